"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import { STEP_AGREEMENT_FIELDS, TRAJECTORY_AGREEMENT_FIELDS, type FieldFigures } from "@/lib/domain/agreement";
import type { DashboardTableName } from "@/lib/domain/dashboard-tables";
import { useFormat, useT } from "@/lib/i18n/react";
import { agreementQuery } from "@/lib/queries/agreement";
import { CsvLink } from "./csv-link";

type By = "byPair" | "byApp" | "byActionType";
const TABLE: Record<By, DashboardTableName> = {
  byPair: "agreement-by-pair",
  byApp: "agreement-by-app",
  byActionType: "agreement-by-action-type",
};
const FIELDS = [...STEP_AGREEMENT_FIELDS, ...TRAJECTORY_AGREEMENT_FIELDS];

/**
 * Agreement between people (issue 26 items 1 and 2): for overlapped work, the share of comparisons
 * that agreed per field, by pair of people, app or action type, with Cohen's kappa under the
 * categorical fields and Krippendorff's alpha across everyone.
 */
export function AgreementPanel() {
  const t = useT();
  const format = useFormat();
  const [by, setBy] = useState<By>("byPair");
  const q = useQuery(agreementQuery());
  const title = t("dashboard.agreement");
  return (
    <section className="panel chart-panel" aria-labelledby="agreement-title" data-testid="agreement">
      <div className="panel-title-row">
        <h2 id="agreement-title">{title}</h2>
        <CsvLink table={TABLE[by]} title={`${title} · ${t(`dashboard.agreement.${by}`)}`} />
      </div>
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorBox error={q.error} />
      ) : q.data.trajectories === 0 ? (
        <EmptyState title={t("dashboard.agreement.none")} />
      ) : (
        <>
          <p className="sub">
            {t("dashboard.agreement.sub", {
              n: format.number(q.data.trajectories),
              px: format.number(q.data.options.pointTolerancePx),
              iou: format.number(q.data.options.boxIou),
            })}
          </p>
          <p className="sub" data-testid="agreement-alpha">
            {t("dashboard.agreement.alpha", {
              actionType: alphaText(q.data.alpha.actionType, format.number),
              verdict: alphaText(q.data.alpha.verdict, format.number),
              outcome: alphaText(q.data.alpha.outcome, format.number),
            })}
          </p>
          <div className="button-group" role="group" aria-label={t("dashboard.effort.by")}>
            {(["byPair", "byApp", "byActionType"] as const).map((b) => (
              <button key={b} type="button" className="btn" aria-pressed={by === b} onClick={() => setBy(b)}>
                {t(`dashboard.agreement.${b}`)}
              </button>
            ))}
          </div>
          <AgreementTable
            by={by}
            rows={
              by === "byPair"
                ? q.data.byPair.map((p) => ({ name: `${p.a} · ${p.b}`, fields: p.fields }))
                : by === "byApp"
                  ? q.data.byApp.map((a) => ({ name: a.app, fields: a.fields }))
                  : q.data.byActionType.map((a) => ({ name: a.actionType, fields: a.fields }))
            }
          />
        </>
      )}
    </section>
  );
}

function alphaText(alpha: number | null, number: (n: number, o?: Intl.NumberFormatOptions) => string): string {
  return alpha === null ? "–" : number(alpha, { maximumFractionDigits: 2 });
}

function AgreementTable({ by, rows }: { by: By; rows: { name: string; fields: FieldFigures }[] }) {
  const t = useT();
  const format = useFormat();
  return (
    <div className="table-scroll">
      <table className="table" aria-label={t(`dashboard.agreement.${by}`)}>
        <thead>
          <tr>
            <th>{t(`dashboard.agreement.${by}`)}</th>
            {FIELDS.map((f) => (
              <th key={f} className="num">
                {t(`dashboard.agreement.field.${f}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.name}>
              <td data-i18n="data">{r.name}</td>
              {FIELDS.map((f) => {
                const x = r.fields[f];
                return (
                  <td key={f} className="num" title={t("dashboard.agreement.cell", { agreed: x.agreed, compared: x.compared })}>
                    {x.rate === null ? "–" : format.percent(x.rate)}
                    {x.kappa !== undefined && x.kappa !== null ? (
                      <span className="sub"> κ {format.number(x.kappa, { maximumFractionDigits: 2 })}</span>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
