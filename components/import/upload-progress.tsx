import { Spinner } from "@/components/ui/states";
import type { ImportJob } from "@/lib/domain/imports";
import type { UploadProgress } from "@/lib/queries/imports";
import { useFormat, useT } from "@/lib/i18n/react";

/** The upload itself: bytes sent of the whole, then "received" until the server answers with the import. */
export function UploadProgressBar({ progress }: { progress: UploadProgress }) {
  const t = useT();
  const nf = useFormat().number;
  const mb = (n: number) => t("import.progress.mb", { n: nf(n / 1024 ** 2, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
  if (progress.phase === "received") {
    return (
      <div className="progress-line" role="status">
        <Spinner label={t("import.progress.importing")} /> {t("import.progress.received")}
      </div>
    );
  }
  const pct = progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;
  return (
    <div className="progress-line" role="status">
      <div
        className="bar"
        role="progressbar"
        aria-label={t("import.progress.label")}
        aria-valuenow={pct}
        aria-valuemin={0}
        aria-valuemax={100}
      >
        <div className="bar-fill" style={{ width: `${pct}%` }} />
      </div>
      {t("import.progress.uploading", { loaded: mb(progress.loaded), total: mb(progress.total), pct })}
    </div>
  );
}

/**
 * A running import: its phase and what it has read so far. The first pass checks every line and
 * screenshot (nothing is written yet), the second writes, the last makes the batch visible at once.
 */
export function ImportJobProgress({ job }: { job: ImportJob }) {
  const t = useT();
  const nf = useFormat().number;
  return (
    <div className="progress-line" role="status" aria-label={t("import.progress.job")}>
      <Spinner label={t("import.progress.importing")} />{" "}
      {t(`import.phase.${job.phase}`, { lines: nf(job.lines), trajectories: nf(job.trajectories), steps: nf(job.steps) })}
    </div>
  );
}
