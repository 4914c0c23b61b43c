"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import { isPercentFigure, type EvalCompare, type StepChange } from "@/lib/domain/eval";
import { editorPath } from "@/lib/domain/trajectory";
import { useFormat, useT } from "@/lib/i18n/react";
import { evalCompareQuery } from "@/lib/queries/eval";
import { useActionName, useRunLine } from "./eval-words";

type Figure = EvalCompare["figures"][number];

const METRIC_NAMES = {
  typeAccuracy: "eval.figures.type",
  stepAccuracy: "eval.figures.step",
  groundingAccuracy: "eval.figures.grounding",
  sopSuccessRate: "eval.figures.sopSuccess",
  sopProgress: "eval.figures.sopProgress",
} as const;

/** The change newer - older in percentage points, signed and coloured: "+3.1 points" green, "−13.5 points" red. */
function Change({ points }: { points: number | null }) {
  const t = useT();
  const format = useFormat();
  if (points === null) return <span className="eval-change-na">{t("eval.compare.na")}</span>;
  const rounded = Math.round(points * 10) / 10;
  const n = format.number(Math.abs(rounded), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  if (rounded > 0) return <span className="eval-change-up">{t("eval.compare.up", { n })}</span>;
  if (rounded < 0) return <span className="eval-change-down">{t("eval.compare.down", { n })}</span>;
  return <span className="eval-change-same">{t("eval.compare.same")}</span>;
}

/** One table of figures, regressions first (the server's order); `label` names each row in the person's words. */
function CompareTable({
  title,
  head,
  rows,
  label,
  isData,
}: {
  title: string;
  head: string;
  rows: Figure[];
  label: (f: Figure) => string;
  isData?: boolean;
}) {
  const t = useT();
  const format = useFormat();
  const show = (f: Figure, x: number | null) => format.percent(x === null ? null : isPercentFigure(f.figure) ? x / 100 : x);
  return (
    <table className="table eval-compare" aria-label={title}>
      <thead>
        <tr>
          <th scope="col">{head}</th>
          <th scope="col">{t("eval.compare.older")}</th>
          <th scope="col">{t("eval.compare.newer")}</th>
          <th scope="col">{t("eval.compare.delta")}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((f) => (
          <tr key={f.figure} data-figure={f.figure} className={f.points !== null && f.points < 0 ? "eval-regression" : undefined}>
            <th scope="row" data-i18n={isData ? "data" : undefined}>
              {label(f)}
            </th>
            <td>{show(f, f.a)}</td>
            <td>{show(f, f.b)}</td>
            <td>
              <Change points={f.points} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function StepList({ title, steps }: { title: string; steps: StepChange[] }) {
  const t = useT();
  const actionName = useActionName();
  return (
    <section className="eval-flips" aria-label={title}>
      <h3>{title}</h3>
      {steps.length === 0 ? (
        <p className="hint">{t("eval.compare.noneHere")}</p>
      ) : (
        <ul className="export-list eval-changes">
          {steps.map((s) => (
            <li key={`${s.trajectoryId}:${s.step}`} data-regression={s.regression}>
              <Link href={editorPath(s.trajectoryId, s.step)}>
                {t("eval.compare.stepLine", { app: s.app, action: actionName(s.action), n: s.step + 1 })}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Two runs, older first by start time whichever order they were picked in: a sentence of what fell and rose, then
 * the figures over all steps, per app and per action type (each regressions first, the change newer - older in
 * points), and the steps that flipped, each opening that step.
 */
export function EvalComparePanel({ a, b }: { a: string; b: string }) {
  const t = useT();
  const format = useFormat();
  const line = useRunLine();
  const actionName = useActionName();
  const q = useQuery(evalCompareQuery(a, b));
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <Loading />;
  const c = q.data;
  const scoped = (scope: Figure["scope"]) => c.figures.filter((f) => f.scope === scope);
  const broke = c.steps.filter((s) => s.regression);
  const fixed = c.steps.filter((s) => !s.regression);
  const rounded = c.figures.map((f) => (f.points === null ? 0 : Math.round(f.points * 10) / 10));
  return (
    <section className="panel" aria-label={t("eval.compare.title")}>
      <div className="panel-pad">
        <dl className="eval-compare-runs" aria-label={t("eval.compare.runs")}>
          {(
            [
              ["eval.compare.older", c.a],
              ["eval.compare.newer", c.b],
            ] as const
          ).map(([which, run]) => (
            <div key={which}>
              <dt>{t(which)}</dt>
              <dd>
                <Link href={`/admin/eval/${run.id}`}>{line(run)}</Link>{" "}
                <span className="hint">{t("eval.compare.started", { when: format.dateTime(run.startedAt) })}</span>
              </dd>
            </div>
          ))}
        </dl>
        <p className="eval-compare-summary" role="status">
          {t("eval.compare.summary", {
            fell: rounded.filter((p) => p < 0).length,
            rose: rounded.filter((p) => p > 0).length,
            broke: broke.length,
            fixed: fixed.length,
          })}
        </p>
        <h2>{t("eval.compare.overall")}</h2>
        <CompareTable
          title={t("eval.compare.overall")}
          head={t("eval.compare.figure")}
          rows={scoped("all")}
          label={(f) => t(METRIC_NAMES[f.metric])}
        />
        <h2>{t("eval.compare.perApp")}</h2>
        <CompareTable title={t("eval.compare.perApp")} head={t("eval.compare.app")} rows={scoped("app")} label={(f) => f.of ?? ""} isData />
        <h2>{t("eval.compare.perAction")}</h2>
        <CompareTable
          title={t("eval.compare.perAction")}
          head={t("eval.compare.action")}
          rows={scoped("action")}
          label={(f) => actionName(f.of ?? "")}
        />
        <h2>{t("eval.compare.steps")}</h2>
        {c.steps.length === 0 ? (
          <EmptyState title={t("eval.compare.noSteps")} />
        ) : (
          <div className="eval-flips-row">
            <StepList title={t("eval.compare.broke", { n: broke.length })} steps={broke} />
            <StepList title={t("eval.compare.fixedNow", { n: fixed.length })} steps={fixed} />
          </div>
        )}
      </div>
    </section>
  );
}
