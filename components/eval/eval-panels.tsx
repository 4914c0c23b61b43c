"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRef, useState, type FormEvent } from "react";
import { ConnectionTestResult } from "@/components/admin/model-settings-parts";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import type { SnapshotItem } from "@/lib/domain/snapshots";
import { COORDINATE_CONVENTION_NAMES, type CoordinateConvention } from "@/lib/domain/geometry";
import { REWARD_RULES, type RewardRule } from "@/lib/domain/rewards";
import { useFormat, useT } from "@/lib/i18n/react";
import { evalEndpointsQuery, evalRunsQuery, useSaveEvalEndpoint, useStartEvalRun, useTestEvalEndpoint } from "@/lib/queries/eval";
import { evalSetsQuery } from "@/lib/queries/snapshots";
import { LiveProgress, useProgressWords, useRunLine } from "./eval-words";

export { EvalRunPanel } from "./eval-run";
export { EvalComparePanel } from "./eval-compare";

/** Saved endpoints and the form that saves one, with the command line's options and "Test connection". */
export function EvalEndpointsPanel() {
  const t = useT();
  const format = useFormat();
  const endpoints = useQuery(evalEndpointsQuery());
  const save = useSaveEvalEndpoint();
  const test = useTestEvalEndpoint();
  const form = useRef<HTMLFormElement>(null);
  const [coords, setCoords] = useState<CoordinateConvention>("qwen25-abs");
  const fields = () => {
    const data = new FormData(form.current ?? undefined);
    const text = (k: string) => String(data.get(k) ?? "").trim();
    const apiKey = text("apiKey");
    return {
      name: text("name"),
      baseUrl: text("baseUrl"),
      model: text("model"),
      concurrency: Number(text("concurrency") || 4),
      timeoutMs: Math.round(Number(text("timeout") || 60) * 1000),
      ...(apiKey ? { apiKey } : {}),
    };
  };
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    test.reset();
    save.mutate({ ...fields(), coords });
  }
  function testConnection() {
    if (!form.current?.reportValidity()) return;
    save.reset();
    const { concurrency: _, ...typed } = fields();
    test.mutate(typed);
  }
  return (
    <section className="panel" aria-labelledby="eval-endpoints-title">
      <div className="panel-pad">
        <h2 id="eval-endpoints-title">{t("eval.endpoints.title")}</h2>
        <form ref={form} className="export-form" onSubmit={submit} aria-label={t("eval.endpoints.formLabel")}>
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
          </div>
          <div className="form-row">
            <label className="field">
              <span>{t("eval.endpoints.concurrency")}</span>
              <input className="input" name="concurrency" type="number" min={1} max={32} defaultValue={4} required />
            </label>
            <label className="field">
              <span>{t("eval.endpoints.timeout")}</span>
              <input className="input" name="timeout" type="number" min={1} max={600} defaultValue={60} required />
            </label>
            <label className="field">
              <span>{t("eval.endpoints.apiKey")}</span>
              <input className="input" name="apiKey" type="password" autoComplete="off" maxLength={4000} />
              <small className="muted">{t("eval.endpoints.apiKeyHint")}</small>
            </label>
            <button className="btn btn-primary" type="submit" disabled={save.isPending}>
              {t("eval.endpoints.save")}
            </button>
            <button className="btn" type="button" disabled={test.isPending} onClick={testConnection}>
              {t("model.test.button")}
            </button>
          </div>
          {save.error && <ErrorBox error={save.error} />}
          {save.data && (
            <p className="muted" role="status">
              {t("eval.endpoints.saved", { name: save.data.endpoint.name })}
            </p>
          )}
          {test.isPending && (
            <p className="muted" role="status">
              {t("model.test.running")}
            </p>
          )}
          {test.error && <ErrorBox error={test.error} />}
          {test.data && <ConnectionTestResult test={test.data.test} />}
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
                <strong data-i18n="data">{e.name}</strong>{" "}
                <span className="hint">
                  {t("eval.endpoints.line", {
                    model: e.model,
                    url: e.baseUrl,
                    coords: t(`eval.coords.${e.coords}`),
                    concurrency: e.concurrency,
                    timeout: format.duration(e.timeoutMs),
                    key: t(e.hasKey ? "eval.endpoints.hasKey" : "eval.endpoints.noKey"),
                  })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/** Sets newest version first within a name, names in order. */
const bySet = (p: SnapshotItem, q: SnapshotItem) => p.name.localeCompare(q.name) || q.number - p.number;

/** Start a run (the set picked by version, held-out named), list the runs, and choose two to compare. */
export function EvalRunsPanel() {
  const t = useT();
  const format = useFormat();
  const words = useProgressWords();
  const line = useRunLine();
  const runs = useQuery(evalRunsQuery());
  const sets = useQuery(evalSetsQuery());
  const endpoints = useQuery(evalEndpointsQuery());
  const start = useStartEvalRun();
  const [rule, setRule] = useState<RewardRule>("ui-s1");
  const [picked, setPicked] = useState<string[]>([]);
  const versions = [...(sets.data?.snapshots ?? [])].sort(bySet);
  const endpointNames = (endpoints.data?.endpoints ?? []).map((e) => e.name);
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const set = versions.find((s) => s.id === form.get("set"));
    if (!set) return;
    start.mutate({ set: set.name, version: set.number, endpoint: String(form.get("endpoint") ?? ""), rule });
  }
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id].slice(-2)));
  return (
    <section className="panel" aria-labelledby="eval-runs-title">
      <div className="panel-pad">
        <h2 id="eval-runs-title">{t("eval.start.title")}</h2>
        {versions.length === 0 || endpointNames.length === 0 ? (
          <p className="hint">{t("eval.start.needs")}</p>
        ) : (
          <form className="export-form" onSubmit={submit} aria-label={t("eval.start.formLabel")}>
            <div className="form-row">
              <label className="field">
                <span>{t("eval.start.set")}</span>
                <select className="select" name="set">
                  {versions.map((s) => (
                    <option key={s.id} value={s.id}>
                      {t(s.heldOut ? "eval.start.setOptionHeldOut" : "eval.start.setOption", { name: s.name, version: s.number })}
                    </option>
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
            {start.data && (
              <p role="status" className="eval-started">
                {t("eval.start.started", { line: line(start.data.run) })} <LiveProgress id={start.data.run.id} /> ·{" "}
                <Link href={`/admin/eval/${start.data.run.id}`}>{t("eval.start.open")}</Link>
              </p>
            )}
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
                  <Link href={`/admin/eval/${r.id}`}>{line(r)}</Link>{" "}
                  <span className="hint">
                    {words(r)}
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
