"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { FormEvent } from "react";
import { ErrorBox, Loading } from "@/components/ui/states";
import type { EvalFigures, EvalRunView, Rates } from "@/lib/domain/eval";
import { useFormat, useT } from "@/lib/i18n/react";
import { evalRunQuery, useCommandEvalRun, useSendToAnnotation } from "@/lib/queries/eval";
import { FailureGallery } from "./eval-failures";
import { useActionName, useProgressWords, useRunLine } from "./eval-words";

function RatesRow({ label, isData, r, sop }: { label: string; isData?: boolean; r: Rates; sop?: EvalFigures["sop"] }) {
  const format = useFormat();
  return (
    <tr>
      <th scope="row" data-i18n={isData ? "data" : undefined}>
        {label}
      </th>
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
  const actionName = useActionName();
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
          <RatesRow key={a} label={actionName(a)} r={r} />
        ))}
        <tr>
          <th colSpan={7}>{t("eval.figures.perApp")}</th>
        </tr>
        {Object.entries(f.perApp).map(([a, r]) => (
          <RatesRow key={a} label={a} isData r={r} sop={r.sop} />
        ))}
      </tbody>
    </table>
  );
}

/**
 * True (rows) against predicted (columns) action type, only the types that occur on either side, each label next to
 * its cells: a narrow table, not one stretched over the page.
 */
function Confusion({ f }: { f: EvalFigures }) {
  const t = useT();
  const actionName = useActionName();
  const truths = Object.keys(f.confusion);
  const predicted = [...new Set(Object.values(f.confusion).flatMap((row) => Object.keys(row)))];
  const columns = [...truths.filter((c) => predicted.includes(c)), ...predicted.filter((c) => !truths.includes(c)).sort()];
  return (
    <table className="table eval-confusion" aria-label={t("eval.confusion.title")}>
      <thead>
        <tr>
          <th rowSpan={2} scope="col">
            {t("eval.confusion.truth")}
          </th>
          <th colSpan={columns.length} scope="colgroup">
            {t("eval.confusion.predicted")}
          </th>
        </tr>
        <tr>
          {columns.map((c) => (
            <th key={c} scope="col">
              {actionName(c)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {Object.entries(f.confusion).map(([truth, row]) => (
          <tr key={truth}>
            <th scope="row">{actionName(truth)}</th>
            {columns.map((c) => (
              <td key={c} className={c === truth ? "eval-diagonal" : row[c] ? "eval-off" : "eval-zero"}>
                {row[c] ?? 0}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SendPanel({ run }: { run: EvalRunView }) {
  const t = useT();
  const actionName = useActionName();
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
                  <option key={a} value={a}>
                    {actionName(a)}
                  </option>
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

/** One run: its progress in words and commands, figures, confusion matrix, "send to annotation" and the failure gallery. */
export function EvalRunPanel({ id }: { id: string }) {
  const t = useT();
  const format = useFormat();
  const words = useProgressWords();
  const line = useRunLine();
  const q = useQuery(evalRunQuery(id));
  const command = useCommandEvalRun(id);
  if (q.error) return <ErrorBox error={q.error} />;
  if (!q.data) return <Loading />;
  const run = q.data.run;
  return (
    <>
      <section className="panel" aria-labelledby="eval-run-title">
        <div className="panel-pad">
          <h2 id="eval-run-title">{line(run)}</h2>
          <p className="eval-progress" role="status" data-state={run.state}>
            {words(run)}
          </p>
          <p className="hint">
            {t("eval.compare.started", { when: format.dateTime(run.startedAt) })} ·{" "}
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
      {run.figures && <FailureGallery run={run} />}
    </>
  );
}
