"use client";

import { useQuery } from "@tanstack/react-query";
import { CopyButton } from "@/components/account/copy";
import { useFormatDate } from "@/components/account/use-format-date";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import { useT } from "@/lib/i18n/react";
import { bridgeCommand, exportsQuery, type ExportItem } from "@/lib/queries/exports";

/** Finished (and failed) exports: filters, counts from the manifest, the folder, and the trainer bridge command. */
export function ExportList() {
  const t = useT();
  const query = useQuery(exportsQuery());
  const items = query.data?.exports.filter((e) => e.state !== "running");
  return (
    <section className="panel" aria-labelledby="exports-title">
      <div className="panel-pad">
        <h2 id="exports-title">{t("export.previous")}</h2>
      </div>
      {query.error ? (
        <div className="panel-pad">
          <ErrorBox error={query.error} />
        </div>
      ) : !items ? (
        <Loading>{t("admin.loading")}</Loading>
      ) : items.length === 0 ? (
        <EmptyState title={t("export.none")}>
          <p>{t("export.noneHint")}</p>
        </EmptyState>
      ) : (
        <ul className="export-list" aria-label={t("export.previous")}>
          {items.map((e) => (
            <ExportEntry key={e.id} item={e} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ExportEntry({ item }: { item: ExportItem }) {
  const t = useT();
  const formatDate = useFormatDate();
  const c = item.counts;
  const filters = [
    t(`export.status.${item.filters.status === "submitted" || item.filters.status === "all" ? item.filters.status : "approved"}`),
    item.filters.apps.length ? item.filters.apps.join(", ") : t("export.allApps"),
    item.filters.project,
    item.filters.split,
  ].filter(Boolean);
  return (
    <li className="export-entry" aria-label={item.id}>
      <div className="export-entry-head">
        <strong>{item.id}</strong>
        {item.state === "failed" ? <span className="badge badge-rejected">{t("export.state.failed")}</span> : <span className="badge badge-approved">{t("export.done")}</span>}
        <span className="muted">{formatDate(item.finishedAt ?? item.startedAt)}</span>
        <span className="muted">{filters.join(" · ")}</span>
      </div>
      {item.state === "failed" ? (
        <p className="error-text">{item.error}</p>
      ) : (
        c && (
          <>
            <dl className="counts">
              <Count label={t("export.trajectories")} value={c.trajectories} />
              <Count label={t("export.steps")} value={c.steps} />
              <Count label={t("export.trainingSteps")} value={c.trainingSteps} />
              <Count label={t("export.harmfulSteps")} value={c.harmfulSteps} />
              <Count label={t("export.screenshots")} value={c.screenshots} />
              {Object.entries(c.bySplit).map(([split, n]) => (
                <Count key={split} label={split} value={n} />
              ))}
            </dl>
            <div className="cmd-row">
              <span className="cmd-label">{t("export.folder")}</span>
              <code className="cmd">{item.outDir}</code>
              <CopyButton text={item.outDir} label={t("export.copyFolder")} />
            </div>
            <div className="cmd-row">
              <span className="cmd-label">{t("export.bridge")}</span>
              <code className="cmd">{bridgeCommand(item.outDir)}</code>
              <CopyButton text={bridgeCommand(item.outDir)} label={t("export.copyCommand")} />
            </div>
          </>
        )
      )}
    </li>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value.toLocaleString()}</dd>
    </div>
  );
}
