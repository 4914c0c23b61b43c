"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { StepCanvas } from "@/components/step-canvas/step-canvas";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import { createView } from "@/lib/canvas/view";
import {
  FAILURE_KINDS,
  isPercentFigure,
  type EvalFailure,
  type EvalFigures,
  type EvalRunView,
  type FailureKind,
  type Rates,
} from "@/lib/domain/eval";
import { COORDINATE_CONVENTION_NAMES, type CoordinateConvention } from "@/lib/domain/geometry";
import { REWARD_RULES, type RewardRule } from "@/lib/domain/rewards";
import { describeToolCall, type ToolCall } from "@/lib/domain/tool-call";
import { editorPath } from "@/lib/domain/trajectory";
import { useFormat, useT } from "@/lib/i18n/react";
import {
  evalCompareQuery,
  evalEndpointsQuery,
  evalFailuresQuery,
  evalRunQuery,
  evalRunsQuery,
  useCommandEvalRun,
  useSaveEvalEndpoint,
  useSendToAnnotation,
  useStartEvalRun,
  type FailureFilters,
} from "@/lib/queries/eval";
import { evalSetsQuery } from "@/lib/queries/snapshots";

/** Saved endpoints and the form that saves one. */
export function EvalEndpointsPanel() {
  const t = useT();
  const endpoints = useQuery(evalEndpointsQuery());
  const save = useSaveEvalEndpoint();
  const [coords, setCoords] = useState<CoordinateConvention>("qwen25-abs");
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (k: string) => String(form.get(k) ?? "").trim();
    save.mutate({ name: text("name"), baseUrl: text("baseUrl"), model: text("model"), coords });
  }
  return (
    <section className="panel" aria-labelledby="eval-endpoints-title">
      <div className="panel-pad">
        <h2 id="eval-endpoints-title">{t("eval.endpoints.title")}</h2>
        <form className="export-form" onSubmit={submit} aria-label={t("eval.endpoints.formLabel")}>
          <div className="form-row">
            <label className="field">
              <span>{t("eval.endpoints.name")}</span>
              <input className="input" name="name" required maxLength={100} />
            </label>
            <label className="field">
              <span>{t("eval.endpoints.url")}</span>
              <input className="input" name="baseUrl" required maxLength={2000} placeholder="http://127.0.0.1:8000/v1" />
            </label>
            <label className="field">
              <span>{t("eval.endpoints.model")}</span>
              <input className="input" name="model" required maxLength={200} />
            </label>
            <label className="field">
              <span>{t("eval.endpoints.coords")}</span>
              <select
                className="select"
                value={coords}
                onChange={(e) => setCoords(COORDINATE_CONVENTION_NAMES.find((c) => c === e.target.value) ?? "qwen25-abs")}
              >
                {COORDINATE_CONVENTION_NAMES.map((c) => (
                  <option key={c} value={c}>
                    {t(`eval.coords.${c}`)}
                  </option>
                ))}
              </select>
            </label>
            <button className="btn btn-primary" type="submit" disabled={save.isPending}>
              {t("eval.endpoints.save")}
            </button>
          </div>
          {save.error && <ErrorBox error={save.error} />}
        </form>
        {endpoints.error ? (
          <ErrorBox error={endpoints.error} />
        ) : !endpoints.data ? (
          <Loading />
        ) : endpoints.data.endpoints.length === 0 ? (
          <EmptyState title={t("eval.endpoints.none")} />
        ) : (
          <ul className="export-list">
            {endpoints.data.endpoints.map((e) => (
              <li key={e.id}>
                <strong>{e.name}</strong> <span className="hint">{`${e.model} · ${e.baseUrl} · ${t(`eval.coords.${e.coords}`)}`}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/** Start a run, list the runs, and choose two to compare. */
export function EvalRunsPanel() {
  const t = useT();
  const format = useFormat();
  const runs = useQuery(evalRunsQuery());
  const sets = useQuery(evalSetsQuery());
  const endpoints = useQuery(evalEndpointsQuery());
  const start = useStartEvalRun();
  const [rule, setRule] = useState<RewardRule>("ui-s1");
  const [picked, setPicked] = useState<string[]>([]);
  const setNames = [...new Set((sets.data?.snapshots ?? []).map((s) => s.name))];
  const endpointNames = (endpoints.data?.endpoints ?? []).map((e) => e.name);
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    start.mutate({ set: String(form.get("set") ?? ""), endpoint: String(form.get("endpoint") ?? ""), rule });
  }
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id].slice(-2)));
  return (
    <section className="panel" aria-labelledby="eval-runs-title">
      <div className="panel-pad">
        <h2 id="eval-runs-title">{t("eval.start.title")}</h2>
        {setNames.length === 0 || endpointNames.length === 0 ? (
          <p className="hint">{t("eval.start.needs")}</p>
        ) : (
          <form className="export-form" onSubmit={submit} aria-label={t("eval.start.formLabel")}>
            <div className="form-row">
              <label className="field">
                <span>{t("eval.start.set")}</span>
                <select className="select" name="set">
                  {setNames.map((n) => (
                    <option key={n}>{n}</option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span>{t("eval.start.endpoint")}</span>
                <select className="select" name="endpoint">
                  {endpointNames.map((n) => (
                    <option key={n}>{n}</option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span>{t("eval.start.rule")}</span>
                <select
                  className="select"
                  value={rule}
                  onChange={(e) => setRule(REWARD_RULES.find((r) => r === e.target.value) ?? "ui-s1")}
                >
                  {REWARD_RULES.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
              </label>
              <button className="btn btn-primary" type="submit" disabled={start.isPending}>
                {t("eval.start.go")}
              </button>
            </div>
            {start.error && <ErrorBox error={start.error} />}
            {start.data && <Link href={`/admin/eval/${start.data.run.id}`}>{start.data.run.id}</Link>}
          </form>
        )}
        <h2>{t("eval.runs.title")}</h2>
        {runs.error ? (
          <ErrorBox error={runs.error} />
        ) : !runs.data ? (
          <Loading />
        ) : runs.data.runs.length === 0 ? (
          <EmptyState title={t("eval.runs.none")} />
        ) : (
          <>
            <ul className="export-list eval-runs">
              {runs.data.runs.map((r) => (
                <li key={r.id} data-run={r.id}>
                  <label className="check">
                    <input type="checkbox" checked={picked.includes(r.id)} onChange={() => toggle(r.id)} aria-label={t("eval.runs.pick")} />
                  </label>{" "}
                  <Link href={`/admin/eval/${r.id}`}>
                    {t("eval.runs.line", { endpoint: r.endpoint.name, set: r.set.name, version: r.set.version, rule: r.rule })}
                  </Link>{" "}
                  <span className="hint">
                    {t(`eval.state.${r.state}`)} · {t("eval.run.progress", { done: r.progress.done, total: r.progress.total })}
                    {r.figures ? ` · ${t("eval.figures.step")} ${format.percent(r.figures.accuracy.stepAccuracy)}` : ""} ·{" "}
                    {format.dateTime(r.startedAt)}
                  </span>
                </li>
              ))}
            </ul>
            {picked.length === 2 && (
              <Link className="btn" href={`/admin/eval/compare?a=${picked[0]}&b=${picked[1]}`}>
                {t("eval.runs.compare")}
              </Link>
            )}
          </>
        )}
      </div>
    </section>
  );
}

function RatesRow({ label, r, sop }: { label: string; r: Rates; sop?: EvalFigures["sop"] }) {
  const format = useFormat();
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{format.number(r.steps)}</td>
      <td>{format.percent(r.typeAccuracy)}</td>
      <td>{format.percent(r.stepAccuracy)}</td>
      <td>{format.percent(r.groundingAccuracy)}</td>
      <td>{sop ? format.percent(sop.successRate === null ? null : sop.successRate / 100) : ""}</td>
      <td>{sop ? format.percent(sop.progress) : ""}</td>
    </tr>
  );
}

function FiguresTable({ f }: { f: EvalFigures }) {
  const t = useT();
  return (
    <table className="table eval-figures" aria-label={t("eval.figures.title")}>
      <thead>
        <tr>
          <th>{t("eval.figures.scope")}</th>
          <th>{t("eval.figures.steps")}</th>
          <th>{t("eval.figures.type")}</th>
          <th>{t("eval.figures.step")}</th>
          <th>{t("eval.figures.grounding")}</th>
          <th>{t("eval.figures.sopSuccess")}</th>
          <th>{t("eval.figures.sopProgress")}</th>
        </tr>
      </thead>
      <tbody>
        <RatesRow label={t("eval.figures.all")} r={f.accuracy} sop={f.sop} />
        <tr>
          <th colSpan={7}>{t("eval.figures.perAction")}</th>
        </tr>
        {Object.entries(f.perAction).map(([a, r]) => (
          <RatesRow key={a} label={a} r={r} />
        ))}
        <tr>
          <th colSpan={7}>{t("eval.figures.perApp")}</th>
        </tr>
        {Object.entries(f.perApp).map(([a, r]) => (
          <RatesRow key={a} label={a} r={r} sop={r.sop} />
        ))}
      </tbody>
    </table>
  );
}

function Confusion({ f }: { f: EvalFigures }) {
  const t = useT();
  const columns = [...new Set(Object.values(f.confusion).flatMap((row) => Object.keys(row)))].sort();
  return (
    <table className="table eval-confusion" aria-label={t("eval.confusion.title")}>
      <thead>
        <tr>
          <th>{t("eval.confusion.true")}</th>
          {columns.map((c) => (
            <th key={c}>{c}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {Object.entries(f.confusion).map(([truth, row]) => (
          <tr key={truth}>
            <th scope="row">{truth}</th>
            {columns.map((c) => (
              <td key={c} className={c === truth ? "eval-diagonal" : undefined}>
                {row[c] ?? 0}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Something that draws nothing, for an answer with no readable call (the legend still names the model). */
const NOTHING: ToolCall = { action: "wait", time: 0 };

function FailureCard({ f }: { f: EvalFailure }) {
  const t = useT();
  const [view] = useState(() => createView());
  return (
    <li className="eval-failure" data-failure={f.failure} data-trajectory={f.trajectoryId} data-step={f.step + 1}>
      <h3>{t("eval.failures.step", { app: f.app, n: f.step + 1, instruction: f.instruction })}</h3>
      <p>
        <strong className="eval-kind">{t(`eval.failure.${f.failure}`)}</strong> ·{" "}
        {f.predicted ? t("eval.failures.predicted", { call: describeToolCall(f.predicted) }) : t("eval.failures.unreadable")} ·{" "}
        {t("eval.failures.truth", { call: describeToolCall(f.groundTruth.toolCall) })}
      </p>
      <div className="review-step-canvas" style={{ height: 420 }}>
        <StepCanvas
          view={view}
          stepKey={`${f.trajectoryId}:${f.step}`}
          screenshot={f.screenshot}
          model={f.predicted ?? NOTHING}
          corrected={f.groundTruth.toolCall}
          importedBoxes={[]}
          correctedBox={f.groundTruth.box}
          isWheelZoomWithModifier
          layout="below"
        />
      </div>
      <details>
        <summary>{t("eval.failures.raw")}</summary>
        <pre className="eval-raw">{f.response}</pre>
      </details>
      <Link href={editorPath(f.trajectoryId, f.step)}>{t("eval.failures.open")}</Link>
    </li>
  );
}

function Failures({ run }: { run: EvalRunView }) {
  const t = useT();
  const [filters, setFilters] = useState<FailureFilters>({});
  const failures = useQuery(evalFailuresQuery(run.id, filters));
  const f = run.figures!;
  const apps = Object.keys(f.perApp);
  const actions = Object.keys(f.perAction);
  const pick = (k: keyof FailureFilters, v: string) => setFilters((x) => ({ ...x, [k]: v || undefined }));
  return (
    <section className="panel" aria-labelledby="eval-failures-title">
      <div className="panel-pad">
        <h2 id="eval-failures-title">{t("eval.failures.title")}</h2>
        <div className="form-row" role="group" aria-label={t("eval.failures.filters")}>
          <label className="field">
            <span>{t("eval.failures.app")}</span>
            <select className="select" value={filters.app ?? ""} onChange={(e) => pick("app", e.target.value)}>
              <option value="">{t("eval.failures.any")}</option>
              {apps.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t("eval.failures.action")}</span>
            <select className="select" value={filters.action ?? ""} onChange={(e) => pick("action", e.target.value)}>
              <option value="">{t("eval.failures.any")}</option>
              {actions.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t("eval.failures.kind")}</span>
            <select
              className="select"
              value={filters.failure ?? ""}
              onChange={(e) => setFilters((x) => ({ ...x, failure: FAILURE_KINDS.find((k) => k === e.target.value) }))}
            >
              <option value="">{t("eval.failures.any")}</option>
              {FAILURE_KINDS.map((k: FailureKind) => (
                <option key={k} value={k}>
                  {t(`eval.failure.${k}`)}
                </option>
              ))}
            </select>
          </label>
        </div>
        {failures.error ? (
          <ErrorBox error={failures.error} />
        ) : !failures.data ? (
          <Loading />
        ) : failures.data.failures.length === 0 ? (
          <EmptyState title={t("eval.failures.none")} />
        ) : (
          <ul className="eval-gallery">
            {failures.data.failures.map((x) => (
              <FailureCard key={`${x.trajectoryId}:${x.step}`} f={x} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function SendPanel({ run }: { run: EvalRunView }) {
  const t = useT();
  const send = useSendToAnnotation(run.id);
  const f = run.figures!;
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (k: string) => String(form.get(k) ?? "").trim() || undefined;
    send.mutate({ assignee: text("assignee") ?? "", action: text("action"), app: text("app") });
  }
  return (
    <section className="panel" aria-labelledby="eval-send-title">
      <div className="panel-pad">
        <h2 id="eval-send-title">{t("eval.send.title")}</h2>
        <form className="export-form" onSubmit={submit} aria-label={t("eval.send.formLabel")}>
          <div className="form-row">
            <label className="field">
              <span>{t("eval.send.assignee")}</span>
              <input className="input" name="assignee" type="email" required />
            </label>
            <label className="field">
              <span>{t("eval.send.firstAt")}</span>
              <select className="select" name="action" defaultValue="">
                <option value="">{t("eval.failures.any")}</option>
                {Object.keys(f.perAction).map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
            </label>
            <label className="field">
              <span>{t("eval.send.app")}</span>
              <select className="select" name="app" defaultValue="">
                <option value="">{t("eval.failures.any")}</option>
                {Object.keys(f.perApp).map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
            </label>
            <button className="btn btn-primary" type="submit" disabled={send.isPending}>
              {t("eval.send.go")}
            </button>
          </div>
          {send.error && <ErrorBox error={send.error} />}
          {send.data && (
            <p role="status">
              {t("eval.send.done", {
                trajectories: send.data.trajectories,
                suggestions: send.data.suggestions,
                skipped: send.data.skipped,
              })}
            </p>
          )}
        </form>
      </div>
    </section>
  );
}

/** One run: its state and commands, figures, confusion matrix, failure gallery and "send to annotation". */
export function EvalRunPanel({ id }: { id: string }) {
  const t = useT();
  const format = useFormat();
  const q = useQuery(evalRunQuery(id));
  const command = useCommandEvalRun(id);
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <Loading />;
  const run = q.data.run;
  return (
    <>
      <section className="panel" aria-labelledby="eval-run-title">
        <div className="panel-pad">
          <h2 id="eval-run-title">
            {t("eval.runs.line", { endpoint: run.endpoint.name, set: run.set.name, version: run.set.version, rule: run.rule })}
          </h2>
          <p className="hint" data-state={run.state}>
            {t(`eval.state.${run.state}`)} · {t("eval.run.progress", { done: run.progress.done, total: run.progress.total })} ·{" "}
            {t("eval.run.tokens", { prompt: format.number(run.tokens.prompt), completion: format.number(run.tokens.completion) })}
          </p>
          {run.error && <p className="error-text">{run.error}</p>}
          <div className="form-row">
            {run.state === "running" && (
              <button className="btn" onClick={() => command.mutate("pause")}>
                {t("eval.run.pause")}
              </button>
            )}
            {(run.state === "paused" || run.state === "failed") && (
              <button className="btn" onClick={() => command.mutate("resume")}>
                {t("eval.run.resume")}
              </button>
            )}
            {(run.state === "running" || run.state === "paused") && (
              <button className="btn" onClick={() => command.mutate("cancel")}>
                {t("eval.run.cancel")}
              </button>
            )}
            <Link href="/admin/eval">{t("eval.run.back")}</Link>
          </div>
          {command.error && <ErrorBox error={command.error} />}
          <h2>{t("eval.figures.title")}</h2>
          {run.figures ? <FiguresTable f={run.figures} /> : <p className="hint">{t("eval.figures.none")}</p>}
          {run.figures && (
            <>
              <h2>{t("eval.confusion.title")}</h2>
              <Confusion f={run.figures} />
            </>
          )}
        </div>
      </section>
      {run.figures && <SendPanel run={run} />}
      {run.figures && <Failures run={run} />}
    </>
  );
}

/**
 * Two runs side by side: each figure with its difference in percentage points, in the server's order (the largest
 * regression first, compareFigures), and the steps that changed.
 */
export function EvalComparePanel({ a, b }: { a: string; b: string }) {
  const t = useT();
  const format = useFormat();
  const q = useQuery(evalCompareQuery(a, b));
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <Loading />;
  const c = q.data;
  const show = (figure: string, x: number | null) => format.percent(x === null ? null : isPercentFigure(figure) ? x / 100 : x);
  const line = (r: EvalRunView) =>
    t("eval.runs.line", { endpoint: r.endpoint.name, set: r.set.name, version: r.set.version, rule: r.rule });
  return (
    <section className="panel" aria-labelledby="eval-compare-title">
      <div className="panel-pad">
        <h2 id="eval-compare-title">{t("eval.compare.title")}</h2>
        <table className="table eval-compare">
          <thead>
            <tr>
              <th>{t("eval.compare.figure")}</th>
              <th>
                <Link href={`/admin/eval/${c.a.id}`}>{line(c.a)}</Link>
              </th>
              <th>
                <Link href={`/admin/eval/${c.b.id}`}>{line(c.b)}</Link>
              </th>
              <th>{t("eval.compare.delta")}</th>
            </tr>
          </thead>
          <tbody>
            {c.figures.map((f) => (
              <tr key={f.figure} data-figure={f.figure} className={f.delta !== null && f.delta < 0 ? "eval-regression" : undefined}>
                <th scope="row">{f.figure}</th>
                <td>{show(f.figure, f.a)}</td>
                <td>{show(f.figure, f.b)}</td>
                <td>{f.points === null ? "" : `${f.points > 0 ? "+" : ""}${format.number(f.points, { maximumFractionDigits: 1 })}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2>{t("eval.compare.steps")}</h2>
        {c.steps.length === 0 ? (
          <EmptyState title={t("eval.compare.noSteps")} />
        ) : (
          <ul className="export-list eval-changes">
            {c.steps.map((s) => (
              <li key={`${s.trajectoryId}:${s.step}`} data-regression={s.regression}>
                <strong>{s.regression ? t("eval.compare.regression") : t("eval.compare.fixed")}</strong>{" "}
                <Link href={editorPath(s.trajectoryId, s.step)}>
                  {t("eval.compare.stepLine", { app: s.app, action: s.action, n: s.step + 1 })}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
