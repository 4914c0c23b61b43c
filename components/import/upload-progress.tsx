import { Spinner } from "@/components/ui/states";
import { useFormatNumber } from "@/components/ui/format";
import type { UploadProgress } from "@/lib/queries/imports";
import { useT } from "@/lib/i18n/react";

export function UploadProgressBar({ progress }: { progress: UploadProgress }) {
  const t = useT();
  const nf = useFormatNumber();
  const mb = (n: number) => t("import.progress.mb", { n: nf(n / 1024 ** 2, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
  if (progress.phase === "importing") {
    return (
      <div className="progress-line" role="status">
        <Spinner label={t("import.progress.importing")} /> {t("import.progress.checking")}
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
