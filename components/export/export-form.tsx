"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorBox } from "@/components/ui/states";
import { useT } from "@/lib/i18n/react";
import { EXPORT_STATUS_OPTIONS, exportedStatuses, type ExportItem, type ExportStatusOption } from "@/lib/domain/exports";
import { useStartExport } from "@/lib/queries/exports";
import { statsQuery } from "@/lib/queries/trajectories";

/** What to export: which statuses, apps and project, and how to split; starts a background export. */
export function ExportForm({ isRunning, onStarted }: { isRunning: boolean; onStarted: (job: ExportItem) => void }) {
  const t = useT();
  const stats = useQuery(statsQuery());
  const start = useStartExport();
  const [status, setStatus] = useState<ExportStatusOption>("approved");
  const [apps, setApps] = useState<string[]>([]);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (k: string) => String(form.get(k) ?? "").trim() || undefined;
    start.mutate({ status, apps, project: text("project"), split: text("split") }, { onSuccess: (r) => onStarted(r.export) });
  }

  const matching = stats.data ? exportedStatuses(status).reduce((n, s) => n + (stats.data.byStatus[s] ?? 0), 0) : undefined;

  return (
    <form className="panel export-form" onSubmit={submit} aria-label={t("export.formLabel")}>
      <div className="form-row">
        <label className="field">
          <span>{t("export.status")}</span>
          <select
            className="select"
            value={status}
            onChange={(e) => setStatus(EXPORT_STATUS_OPTIONS.find((s) => s === e.target.value) ?? "approved")}
          >
            {EXPORT_STATUS_OPTIONS.map((s) => (
              <option key={s} value={s}>
                {t(`export.status.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t("export.project")}</span>
          <input className="input" name="project" maxLength={100} placeholder={t("export.projectPlaceholder")} />
        </label>
        <label className="field">
          <span>{t("export.split")}</span>
          <input className="input grow" name="split" maxLength={500} placeholder="random:42:0.9,0.1 · by-app:WeChat" />
        </label>
      </div>
      <label className="field">
        <span>{t("export.apps")}</span>
        <select
          className="select apps-select"
          multiple
          value={apps}
          onChange={(e) => setApps([...e.target.selectedOptions].map((o) => o.value))}
          size={Math.min(6, Math.max(3, stats.data?.byApp.length ?? 3))}
        >
          {stats.data?.byApp.map((a) => (
            <option key={a.app} value={a.app} data-i18n="data">
              {a.app} ({a.trajectories})
            </option>
          ))}
        </select>
        <span className="hint">{apps.length === 0 ? t("export.allApps") : t("export.someApps", { n: apps.length })}</span>
      </label>
      <div className="form-row">
        <button className="btn btn-primary" type="submit" disabled={start.isPending || isRunning}>
          {isRunning ? t("export.running") : t("export.start")}
        </button>
        {matching !== undefined && (
          <span className={matching ? "hint" : "hint hint-warn"}>{t("export.matchingHint", { n: matching ?? 0 })}</span>
        )}
      </div>
      {start.error && <ErrorBox error={start.error} />}
    </form>
  );
}
