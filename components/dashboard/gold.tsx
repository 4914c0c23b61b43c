"use client";

import { useQuery } from "@tanstack/react-query";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import { STEP_AGREEMENT_FIELDS, TRAJECTORY_AGREEMENT_FIELDS } from "@/lib/domain/agreement";
import { useFormat, useT } from "@/lib/i18n/react";
import { goldAccuracyQuery } from "@/lib/queries/gold";
import { CsvLink } from "./csv-link";

const FIELDS = [...STEP_AGREEMENT_FIELDS, ...TRAJECTORY_AGREEMENT_FIELDS];

/** Accuracy against gold tasks (issue 26 item 4): per person and field, people below the threshold flagged. */
export function GoldPanel() {
  const t = useT();
  const format = useFormat();
  const q = useQuery(goldAccuracyQuery());
  const title = t("dashboard.gold");
  return (
    <section className="panel chart-panel" aria-labelledby="gold-title" data-testid="gold-accuracy">
      <div className="panel-title-row">
        <h2 id="gold-title">{title}</h2>
        <CsvLink table="gold-accuracy" title={title} />
      </div>
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorBox error={q.error} />
      ) : q.data.people.length === 0 ? (
        <EmptyState title={t("dashboard.gold.none")} />
      ) : (
        <>
          <p className="sub">{t("dashboard.gold.sub", { threshold: format.percent(q.data.threshold) })}</p>
          <div className="table-scroll">
            <table className="table" aria-label={title}>
              <thead>
                <tr>
                  <th>{t("dashboard.effort.byPerson")}</th>
                  <th className="num">{t("dashboard.gold.tasks")}</th>
                  <th className="num">{t("dashboard.gold.accuracy")}</th>
                  {FIELDS.map((f) => (
                    <th key={f} className="num">
                      {t(`dashboard.agreement.field.${f}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {q.data.people.map((p) => (
                  <tr key={p.email} data-flagged={p.isFlagged || undefined}>
                    <td data-i18n="data">
                      {p.email}
                      {p.isFlagged ? " " : null}
                      {p.isFlagged ? <span className="badge badge-failure">{t("dashboard.gold.flagged")}</span> : null}
                    </td>
                    <td className="num">{format.number(p.goldTasks)}</td>
                    <td className="num">{format.percent(p.accuracy)}</td>
                    {p.fields.map((f) => (
                      <td key={f.field} className="num" title={t("dashboard.agreement.cell", { agreed: f.agreed, compared: f.compared })}>
                        {f.rate === null ? "–" : format.percent(f.rate)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
