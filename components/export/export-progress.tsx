"use client";

import { StoredMessageText } from "@/components/ui/stored-message";
import { useT } from "@/lib/i18n/react";
import type { ExportItem } from "@/lib/domain/exports";

/** The export just started: a progress bar while it runs, then its outcome. */
export function ExportProgress({ job }: { job: ExportItem }) {
  const t = useT();
  const { trajectories, total } = job.progress;
  const pct = job.state === "succeeded" ? 100 : total > 0 ? Math.floor((trajectories / total) * 100) : 0;
  return (
    <section className={`panel panel-pad export-job export-job-${job.state}`} aria-label={t("export.current")}>
      <h2>{t(`export.state.${job.state}`)}</h2>
      <div className="progress-line">
        <div className="bar" role="progressbar" aria-label={t("export.progress")} aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100}>
          <div className="bar-fill" style={{ width: `${pct}%` }} />
        </div>
        <span role="status">{t("export.progressText", { done: trajectories, total, pct })}</span>
      </div>
      {job.state === "failed" && (
        <div className="error-box" role="alert">
          <StoredMessageText message={job.errorMessage} fallback={job.error} />
        </div>
      )}
      {job.state === "succeeded" && job.counts?.trajectories === 0 && <p className="hint">{t("export.nothingMatched")}</p>}
    </section>
  );
}
