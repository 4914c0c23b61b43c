"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { StepCanvas } from "@/components/step-canvas/step-canvas";
import { Pager } from "@/components/trajectory-list/pager";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import { createView } from "@/lib/canvas/view";
import { FAILURE_KINDS, FAILURES_PER_PAGE, type EvalFailure, type EvalRunView } from "@/lib/domain/eval";
import { describeToolCall, type ToolCall } from "@/lib/domain/tool-call";
import { editorPath } from "@/lib/domain/trajectory";
import { useFormat, useT } from "@/lib/i18n/react";
import { evalFailuresQuery, type FailureFilters } from "@/lib/queries/eval";
import { useActionName } from "./eval-words";

/** Something that draws nothing, for an answer with no readable call (the legend still names the model). */
const NOTHING: ToolCall = { action: "wait", time: 0 };

/** One failed step: where, why, both actions in words and drawn on the read-only step canvas, the raw answer. */
function FailureCard({ f }: { f: EvalFailure }) {
  const t = useT();
  const [view] = useState(() => createView());
  return (
    <li className="eval-failure" data-failure={f.failure} data-trajectory={f.trajectoryId} data-step={f.step + 1}>
      <h3 data-i18n="data" title={f.instruction}>
        {t("eval.failures.step", { app: f.app, n: f.step + 1, instruction: f.instruction })}
      </h3>
      <p className="eval-failure-why">
        <strong className="eval-kind">{t(`eval.failure.${f.failure}`)}</strong>
        <br />
        {f.predicted ? t("eval.failures.predicted", { call: describeToolCall(f.predicted) }) : t("eval.failures.unreadable")}
        <br />
        {t("eval.failures.truth", { call: describeToolCall(f.groundTruth.toolCall) })}
      </p>
      <div className="eval-failure-canvas">
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
          isSideCollapsed
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

/**
 * The failed steps a page at a time (FAILURES_PER_PAGE), filtered by app, action type and why they failed, each
 * option with the number of failures it would show.
 */
export function FailureGallery({ run }: { run: EvalRunView }) {
  const t = useT();
  const format = useFormat();
  const actionName = useActionName();
  const [filters, setFilters] = useState<FailureFilters>({});
  const [page, setPage] = useState(1);
  const failures = useQuery({ ...evalFailuresQuery(run.id, filters, page), placeholderData: keepPreviousData });
  const f = run.figures!;
  const counts = failures.data?.counts;
  const sum = (c: Record<string, number> | undefined) => Object.values(c ?? {}).reduce((a, b) => a + b, 0);
  const option = (name: string, n: number | undefined) => (counts ? t("eval.failures.option", { name, n: format.number(n ?? 0) }) : name);
  const any = (c: Record<string, number> | undefined) =>
    counts ? t("eval.failures.anyCount", { n: format.number(sum(c)) }) : t("eval.failures.any");
  const pick = (next: FailureFilters) => {
    setFilters((x) => ({ ...x, ...next }));
    setPage(1);
  };
  return (
    <section className="panel" aria-labelledby="eval-failures-title">
      <div className="panel-pad">
        <h2 id="eval-failures-title">{t("eval.failures.title")}</h2>
        <div className="form-row" role="group" aria-label={t("eval.failures.filters")}>
          <label className="field">
            <span>{t("eval.failures.app")}</span>
            <select className="select" value={filters.app ?? ""} onChange={(e) => pick({ app: e.target.value || undefined })}>
              <option value="">{any(counts?.app)}</option>
              {Object.keys(f.perApp).map((a) => (
                <option key={a} value={a}>
                  {option(a, counts?.app[a])}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t("eval.failures.action")}</span>
            <select className="select" value={filters.action ?? ""} onChange={(e) => pick({ action: e.target.value || undefined })}>
              <option value="">{any(counts?.action)}</option>
              {Object.keys(f.perAction).map((a) => (
                <option key={a} value={a}>
                  {option(actionName(a), counts?.action[a])}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t("eval.failures.kind")}</span>
            <select
              className="select"
              value={filters.failure ?? ""}
              onChange={(e) => pick({ failure: FAILURE_KINDS.find((k) => k === e.target.value) })}
            >
              <option value="">{any(counts?.failure)}</option>
              {FAILURE_KINDS.map((k) => (
                <option key={k} value={k}>
                  {option(t(`eval.failure.${k}`), counts?.failure[k])}
                </option>
              ))}
            </select>
          </label>
        </div>
        {failures.error ? (
          <ErrorBox error={failures.error} />
        ) : !failures.data ? (
          <Loading />
        ) : failures.data.total === 0 ? (
          <EmptyState title={t("eval.failures.none")} />
        ) : (
          <>
            <Pager
              page={failures.data.page}
              pageSize={failures.data.perPage ?? FAILURES_PER_PAGE}
              total={failures.data.total}
              onPage={setPage}
            />
            <ul className="eval-gallery" aria-busy={failures.isPlaceholderData}>
              {failures.data.failures.map((x) => (
                <FailureCard key={`${x.trajectoryId}:${x.step}`} f={x} />
              ))}
            </ul>
          </>
        )}
      </div>
    </section>
  );
}
