"use client";

import { useQuery } from "@tanstack/react-query";
import { importBatchesQuery } from "@/lib/queries/imports";
import { intlLocale, useFormatNumber } from "@/components/ui/format";
import { EmptyState, QueryBody } from "@/components/ui/states";
import { useLocale, useT } from "@/lib/i18n/react";

export function RecentBatches() {
  const t = useT();
  const locale = useLocale();
  const nf = useFormatNumber();
  // English keeps its day-month-year dates; Chinese gets its own order.
  const dateLocale = locale === "en" ? "en-GB" : intlLocale(locale);
  const query = useQuery(importBatchesQuery());
  return (
    <section className="panel recent" aria-label={t("import.recent")}>
      <div className="panel-pad">
        <h2>{t("import.recent")}</h2>
      </div>
      <QueryBody query={query} isEmpty={(data) => data.batches.length === 0} empty={<EmptyState title={t("import.recent.empty")} />}>
        {(data) => (
          <table className="table">
            <thead>
              <tr>
                <th>{t("import.recent.file")}</th>
                <th>{t("import.recent.format")}</th>
                <th>{t("import.recent.project")}</th>
                <th className="num">{t("import.recent.trajectories")}</th>
                <th className="num">{t("import.recent.steps")}</th>
                <th className="num">{t("import.recent.skipped")}</th>
                <th>{t("import.recent.when")}</th>
              </tr>
            </thead>
            <tbody>
              {data.batches.map((b) => (
                <tr key={b.id}>
                  <td>{b.fileName}</td>
                  <td className="nowrap">{b.format}</td>
                  <td className="nowrap">{b.project}</td>
                  <td className="num">{nf(b.trajectories)}</td>
                  <td className="num">{nf(b.steps)}</td>
                  <td className="num">{nf(b.duplicates)}</td>
                  <td className="nowrap muted">
                    {new Date(b.startedAt).toLocaleString(dateLocale, { dateStyle: "medium", timeStyle: "short" })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryBody>
    </section>
  );
}
