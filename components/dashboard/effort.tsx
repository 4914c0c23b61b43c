"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import type { DashboardTableName } from "@/lib/domain/dashboard-tables";
import type { EffortFigures } from "@/lib/domain/effort";
import { useFormat, useT } from "@/lib/i18n/react";
import { effortFiguresQuery } from "@/lib/queries/effort";
import { CsvLink } from "./csv-link";

type By = "byPerson" | "byApp" | "byActionType";
const TABLE: Record<By, DashboardTableName> = {
  byPerson: "effort-by-person",
  byApp: "effort-by-app",
  byActionType: "effort-by-action-type",
};

/** Time per step (issue 26 item 5): median active time by person, app or action type, with a bar per row. */
export function EffortPanel() {
  const t = useT();
  const format = useFormat();
  const [by, setBy] = useState<By>("byPerson");
  const q = useQuery(effortFiguresQuery());
  const title = t("dashboard.effort");
  return (
    <section className="panel chart-panel" aria-labelledby="effort-title" data-testid="effort">
      <div className="panel-title-row">
        <h2 id="effort-title">{title}</h2>
        <CsvLink table={TABLE[by]} title={`${title} · ${t(`dashboard.effort.${by}`)}`} />
      </div>
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorBox error={q.error} />
      ) : (
        <>
          <p className="sub">{t("dashboard.effort.sub", { idle: format.duration(q.data.idleAfterMs) })}</p>
          {q.data.overall.steps === 0 ? (
            <EmptyState title={t("dashboard.effort.none")} />
          ) : (
            <>
              <div className="button-group" role="group" aria-label={t("dashboard.effort.by")}>
                {(["byPerson", "byApp", "byActionType"] as const).map((b) => (
                  <button key={b} type="button" className="btn" aria-pressed={by === b} onClick={() => setBy(b)}>
                    {t(`dashboard.effort.${b}`)}
                  </button>
                ))}
              </div>
              <EffortTable figures={q.data} by={by} />
            </>
          )}
        </>
      )}
    </section>
  );
}

function EffortTable({ figures, by }: { figures: EffortFigures; by: By }) {
  const t = useT();
  const format = useFormat();
  const rows = figures[by].map((r) => ({
    name: "email" in r ? r.email : "app" in r ? r.app : r.actionType,
    ...r,
  }));
  const longest = Math.max(1, ...rows.map((r) => r.medianMs ?? 0));
  return (
    <table className="table" aria-label={t(`dashboard.effort.${by}`)}>
      <thead>
        <tr>
          <th>{t(`dashboard.effort.${by}`)}</th>
          <th className="num">{t("dashboard.effort.steps")}</th>
          <th className="num">{t("dashboard.effort.median")}</th>
          <th aria-hidden />
          <th className="num">{t("dashboard.effort.total")}</th>
          <th className="num">{t("dashboard.effort.edits")}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name}>
            <td data-i18n="data">{r.name}</td>
            <td className="num">{format.number(r.steps)}</td>
            <td className="num">{format.duration(r.medianMs)}</td>
            <td className="progress-cell">
              <span className="progress-track">
                <span className="progress-done" style={{ width: `${(100 * (r.medianMs ?? 0)) / longest}%` }} />
              </span>
            </td>
            <td className="num">{format.duration(r.totalMs)}</td>
            <td className="num">{format.number(r.edits)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
