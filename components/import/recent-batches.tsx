"use client";

import { useQuery } from "@tanstack/react-query";
import type { ImportJob } from "@/lib/domain/imports";
import { importJobsQuery } from "@/lib/queries/imports";
import { EmptyState, QueryBody } from "@/components/ui/states";
import { StoredMessageText } from "@/components/ui/stored-message";
import { useFormat, useT } from "@/lib/i18n/react";

/** Recent imports in every state: running ones with their progress, refused ones with their problem count, failed ones with why. */
export function RecentBatches() {
  const t = useT();
  const format = useFormat();
  const nf = format.number;
  const query = useQuery(importJobsQuery());
  const stateText = (j: ImportJob) => {
    if (j.state === "running")
      return t(`import.phase.${j.phase}`, { lines: nf(j.lines), trajectories: nf(j.trajectories), steps: nf(j.steps) });
    if (j.state === "refused") return t("import.refused.count", { n: nf(j.problemCount) });
    if (j.state === "failed") return <StoredMessageText message={j.errorMessage} fallback={j.error} />;
    if (j.state === "asked") return t("import.asked.count", { n: nf(j.otherProjects.reduce((n, c) => n + c.count, 0)) });
    return "";
  };
  return (
    <section className="panel recent" aria-label={t("import.recent")}>
      <div className="panel-pad">
        <h2>{t("import.recent")}</h2>
        {/* The demo data came in through no job: say so, rather than "No imports yet" beside a full list. */}
        {query.data && query.data.seeded > 0 && <p className="muted">{t("import.recent.seeded", { n: nf(query.data.seeded) })}</p>}
      </div>
      <QueryBody
        query={query}
        isEmpty={(data) => data.jobs.length === 0}
        empty={<EmptyState title={t(query.data && query.data.seeded > 0 ? "import.recent.noneYet" : "import.recent.empty")} />}
      >
        {(data) => (
          <table className="table">
            <thead>
              <tr>
                <th>{t("import.recent.file")}</th>
                <th>{t("import.recent.state")}</th>
                <th>{t("import.recent.format")}</th>
                <th>{t("import.recent.project")}</th>
                <th className="num">{t("import.recent.trajectories")}</th>
                <th className="num">{t("import.recent.steps")}</th>
                <th className="num">{t("import.recent.skipped")}</th>
                <th>{t("import.recent.by")}</th>
                <th>{t("import.recent.when")}</th>
              </tr>
            </thead>
            <tbody>
              {data.jobs.map((j) => (
                <tr key={j.id} className={`import-${j.state}`}>
                  <td data-i18n="data">{j.fileName}</td>
                  <td>
                    <span className={`chip chip-import-${j.state}`}>{t(`import.state.${j.state}`)}</span>{" "}
                    <span className="muted">{stateText(j)}</span>
                  </td>
                  <td className="nowrap">{j.format}</td>
                  <td className="nowrap" data-i18n="data">
                    {j.project}
                  </td>
                  <td className="num">{j.state === "succeeded" ? nf(j.trajectories) : "—"}</td>
                  <td className="num">{j.state === "succeeded" ? nf(j.steps) : "—"}</td>
                  <td className="num">{j.state === "succeeded" ? nf(j.duplicates) : "—"}</td>
                  <td className="nowrap" data-i18n="data">
                    {j.createdBy}
                  </td>
                  <td className="nowrap muted">{format.dateTime(j.startedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryBody>
    </section>
  );
}
