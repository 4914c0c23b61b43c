"use client";

import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import { TASK_STATUSES } from "@/lib/domain/status";
import type { VERDICTS } from "@/lib/domain/trajectory";
import { activeDays, verdictFigures, type Dashboard as DashboardData } from "@/lib/domain/dashboard";
import { useFormat, useT } from "@/lib/i18n/react";
import { dashboardQuery } from "@/lib/queries/dashboard";
import { CsvLink } from "./csv-link";
import { LaneCounts } from "./lane-counts";

const STATUS_COLORS: Record<(typeof TASK_STATUSES)[number], string> = {
  new: "#c4cad3",
  in_progress: "#4c7df0",
  submitted: "#f5a524",
  approved: "#12b76a",
  rejected: "#d92d20",
};
const VERDICT_COLORS: Record<Exclude<(typeof VERDICTS)[number], "unreviewed">, string> = {
  good: "#12b76a",
  corrected: "#4c7df0",
  harmful: "#d92d20",
  neutral: "#9e77ed",
};

/** Progress and quality at a glance: charts where people would rather look than read. */
export function Dashboard() {
  const q = useQuery(dashboardQuery());
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorBox error={q.error} />;
  return <DashboardBody data={q.data} />;
}

function DashboardBody({ data }: { data: DashboardData }) {
  const t = useT();
  const format = useFormat();
  const pct = format.percent;
  const figures = verdictFigures(data.verdicts);
  const verdictRows = figures.judged.map((r) => ({ verdict: t(`badge.${r.verdict}`), key: r.verdict, steps: r.steps }));
  const judged = figures.judgedSteps;
  const days = activeDays(data.daily);
  const decisions = data.review.approved + data.review.sentBack;
  return (
    <div className="dashboard">
      <section className="panel chart-panel" aria-label={t("dashboard.byApp")}>
        <div className="panel-title-row">
          <h2>{t("dashboard.byApp")}</h2>
          <CsvLink table="by-app" title={t("dashboard.byApp")} />
        </div>
        <ResponsiveContainer width="100%" height={Math.max(220, data.byApp.length * 26 + 60)}>
          <BarChart data={data.byApp} layout="vertical" margin={{ left: 24, right: 16 }}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" allowDecimals={false} />
            <YAxis type="category" dataKey="app" width={110} tick={{ fontSize: 12 }} />
            <Tooltip />
            <Legend content={ChartLegend} />
            {TASK_STATUSES.map((s) => (
              <Bar key={s} dataKey={s} name={t(`status.${s}`)} stackId="status" fill={STATUS_COLORS[s]} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </section>
      <div className="dashboard-row">
        <section className="panel chart-panel" aria-label={t("dashboard.verdicts")}>
          <div className="panel-title-row">
            <h2>{t("dashboard.verdicts")}</h2>
            <CsvLink table="verdicts" title={t("dashboard.verdicts")} />
          </div>
          <p className="sub">
            {t("dashboard.verdicts.note")} {judged > 0 && `${pct((data.verdicts.corrected + data.verdicts.harmful) / judged)}`}
          </p>
          <p className="verdict-unreviewed">
            <span className="chart-legend-swatch" style={{ background: "#c4cad3" }} aria-hidden />
            {t("dashboard.verdicts.unreviewed", { n: figures.unreviewed })}
          </p>
          {judged === 0 ? (
            <EmptyState title={t("dashboard.verdicts.none")} />
          ) : (
            <ResponsiveContainer width="100%" height={200}>
              <BarChart data={verdictRows}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="verdict" tick={{ fontSize: 12 }} />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Bar dataKey="steps" name={t("dashboard.verdicts")}>
                  {verdictRows.map((r) => (
                    <Cell key={r.key} fill={VERDICT_COLORS[r.key]} />
                  ))}
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          )}
        </section>
        <section className="panel chart-panel" aria-label={t("dashboard.daily")}>
          <div className="panel-title-row">
            <h2>{t("dashboard.daily")}</h2>
            <CsvLink table="daily" title={t("dashboard.daily")} />
          </div>
          {days.length === 0 ? (
            <EmptyState title={t("dashboard.daily.none")} />
          ) : (
            <ResponsiveContainer width="100%" height={250}>
              <LineChart data={days}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="day" tickFormatter={(d: string) => format.day(d)} tick={{ fontSize: 12 }} />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Legend content={ChartLegend} />
                <Line type="monotone" dataKey="stepEdits" name={t("dashboard.daily.stepEdits")} stroke="#4c7df0" dot={days.length < 3} />
                <Line type="monotone" dataKey="submitted" name={t("dashboard.daily.submitted")} stroke="#f5a524" dot={days.length < 3} />
                <Line type="monotone" dataKey="approved" name={t("dashboard.daily.approved")} stroke="#12b76a" dot={days.length < 3} />
                <Line type="monotone" dataKey="sentBack" name={t("dashboard.daily.sentBack")} stroke="#d92d20" dot={days.length < 3} />
              </LineChart>
            </ResponsiveContainer>
          )}
        </section>
      </div>
      <div className="dashboard-row">
        <section className="panel chart-panel" aria-label={t("dashboard.annotators")}>
          <div className="panel-title-row">
            <h2>{t("dashboard.annotators")}</h2>
            <CsvLink table="annotators" title={t("dashboard.annotators")} />
          </div>
          {data.annotators.length === 0 ? (
            <EmptyState title={t("dashboard.noAnnotators")} />
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th>{t("dashboard.annotator")}</th>
                  <th className="num">{t("dashboard.assigned")}</th>
                  <th className="num">{t("dashboard.inProgress")}</th>
                  <th className="num">{t("dashboard.submitted")}</th>
                  <th className="num">{t("dashboard.approved")}</th>
                  <th className="num">{t("dashboard.sentBack")}</th>
                  <th aria-hidden />
                </tr>
              </thead>
              <tbody>
                {data.annotators.map((a) => (
                  <tr key={a.email}>
                    <td data-i18n="data">{a.email}</td>
                    <td className="num">{a.assigned}</td>
                    <td className="num">{a.inProgress}</td>
                    <td className="num">{a.submitted}</td>
                    <td className="num">{a.approved}</td>
                    <td className="num">{a.sentBack}</td>
                    <td className="progress-cell">
                      <span className="progress-track" title={pct(a.assigned ? a.approved / a.assigned : 0)}>
                        <span className="progress-done" style={{ width: `${a.assigned ? (100 * a.approved) / a.assigned : 0}%` }} />
                        <span className="progress-submitted" style={{ width: `${a.assigned ? (100 * a.submitted) / a.assigned : 0}%` }} />
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <LaneCounts lanes={data.lanes} />
        <section className="panel chart-panel" aria-label={t("dashboard.review")}>
          <div className="panel-title-row">
            <h2>{t("dashboard.review")}</h2>
            <CsvLink table="review" title={t("dashboard.review")} />
          </div>
          <p>
            {decisions === 0
              ? t("dashboard.noDecisions")
              : t("dashboard.approvalRate", {
                  rate: pct(data.review.approved / decisions),
                  approved: data.review.approved,
                  sentBack: data.review.sentBack,
                })}
          </p>
        </section>
      </div>
    </div>
  );
}

/** The charts' legend: the series' names with their colours (recharts' own labels each icon "legend icon", in English). */
function ChartLegend({ payload }: { payload?: readonly { value?: unknown; color?: string }[] }) {
  return (
    <ul className="chart-legend">
      {(payload ?? []).map((p) => (
        <li key={String(p.value)}>
          <span className="chart-legend-swatch" style={{ background: p.color }} aria-hidden />
          {String(p.value ?? "")}
        </li>
      ))}
    </ul>
  );
}
