"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorBox, Loading } from "@/components/ui/states";
import type { AdjudicationView, Alternative } from "@/lib/domain/adjudication";
import type { StepAnnotation } from "@/lib/domain/annotation";
import { describeToolCall, isPointless } from "@/lib/domain/tool-call";
import type { StepView } from "@/lib/domain/views";
import { useT } from "@/lib/i18n/react";
import { adjudicate, adjudicationQuery } from "@/lib/queries/adjudication";
import { screenshotUrl } from "@/lib/queries/trajectories";
import { TextDiff } from "./text-diff";

/** Each copy's colour on the screenshot and beside its values (copy 1, 2, 3). */
const COLOURS = ["#d9480f", "#1971c2", "#2f9e44"] as const;
/** The choices per step: the action with its box, the thought, the clear action and the verdict. */
const STEP_FIELDS = ["action", "thought", "clearAction", "verdict"] as const;
type StepField = (typeof STEP_FIELDS)[number];
/** A field's choice: the index of a copy, or "edited" (thought and clear action only). */
type Choice = number | "edited";

/**
 * Adjudication (issue 26 item 3): every copy of an overlapped trajectory side by side per step (each
 * copy's action and box drawn on the one screenshot in its colour, texts as diffs against copy 1); the
 * reviewer picks a copy per field or edits the texts, then approves. The chosen values become the
 * trajectory's annotation; the copies stay as alternatives.
 */
export function Adjudication({ id }: { id: string }) {
  const q = useQuery(adjudicationQuery(id));
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorBox error={q.error} />;
  return <AdjudicationForm view={q.data} />;
}

function AdjudicationForm({ view }: { view: AdjudicationView }) {
  const t = useT();
  const client = useQueryClient();
  const copies = view.copies.filter((c) => c.status === "submitted" || c.status === "approved");
  const steps = view.trajectory.steps;
  const [choices, setChoices] = useState<Record<StepField, Choice>[]>(() =>
    steps.map(() => ({ action: 0, thought: 0, clearAction: 0, verdict: 0 })),
  );
  const [edits, setEdits] = useState<{ thought: string; clearAction: string }[]>(() =>
    steps.map((_, i) => ({ thought: copies[0]?.steps[i]?.thought.text ?? "", clearAction: copies[0]?.steps[i]?.clearAction ?? "" })),
  );
  const [outcomeFrom, setOutcomeFrom] = useState(0);
  const approve = useMutation({
    mutationFn: () => adjudicate(view.trajectory.id, composed(view, copies, choices, edits, outcomeFrom)),
    onSuccess: () => void client.invalidateQueries({ queryKey: adjudicationQuery(view.trajectory.id).queryKey }),
  });
  const pick = (i: number, field: StepField, choice: Choice) =>
    setChoices((all) => all.map((c, j) => (j === i ? { ...c, [field]: choice } : c)));
  if (copies.length < 2) return <p className="sub">{t("review.adjudicate.tooFew", { n: copies.length })}</p>;
  return (
    <div className="adjudication" data-testid="adjudication">
      <div className="page-head">
        <h1>{t("review.adjudicate.title")}</h1>
        <span className="sub" data-i18n="data">
          {view.trajectory.instruction}
        </span>
      </div>
      <ul className="adjudication-legend" aria-label={t("review.adjudicate.copies")}>
        {copies.map((c, k) => (
          <li key={c.copyId} style={{ color: COLOURS[k] }}>
            <span aria-hidden>●</span> {t("review.adjudicate.copy", { n: k + 1 })} <span data-i18n="data">{c.annotator ?? "—"}</span>
          </li>
        ))}
      </ul>
      {steps.map((step, i) => (
        <section key={step.id} className="panel adjudication-step" aria-label={t("review.adjudicate.step", { n: i + 1 })} data-step={i + 1}>
          <h2>{t("review.adjudicate.step", { n: i + 1 })}</h2>
          <div className="adjudication-row" style={{ display: "flex", gap: 16, alignItems: "flex-start" }}>
            <CopiesPicture step={step} copies={copies} />
            <div style={{ flex: 1, minWidth: 0 }}>
              {STEP_FIELDS.map((field) => (
                <fieldset key={field} className="adjudication-field" data-field={field}>
                  <legend>{t(`review.adjudicate.field.${field}`)}</legend>
                  {copies.map((c, k) => {
                    const s = c.steps[i];
                    if (!s) return null;
                    return (
                      <label key={c.copyId} className="adjudication-choice" style={{ display: "block" }}>
                        <input
                          type="radio"
                          name={`step-${i}-${field}`}
                          checked={choices[i]![field] === k}
                          onChange={() => pick(i, field, k)}
                          aria-label={t("review.adjudicate.take", { field: t(`review.adjudicate.field.${field}`), n: k + 1 })}
                        />{" "}
                        <span style={{ color: COLOURS[k] }} aria-hidden>
                          ●
                        </span>{" "}
                        <FieldValue field={field} step={s} first={copies[0]!.steps[i]} />
                      </label>
                    );
                  })}
                  {field === "thought" || field === "clearAction" ? (
                    <label className="adjudication-choice" style={{ display: "block" }}>
                      <input
                        type="radio"
                        name={`step-${i}-${field}`}
                        checked={choices[i]![field] === "edited"}
                        onChange={() => pick(i, field, "edited")}
                      />{" "}
                      {t("review.adjudicate.edit")}
                      {choices[i]![field] === "edited" ? (
                        <textarea
                          className="input"
                          aria-label={t("review.adjudicate.editOf", { field: t(`review.adjudicate.field.${field}`) })}
                          value={edits[i]![field]}
                          onChange={(e) => setEdits((all) => all.map((x, j) => (j === i ? { ...x, [field]: e.target.value } : x)))}
                          rows={field === "thought" ? 3 : 1}
                          style={{ display: "block", width: "100%" }}
                        />
                      ) : null}
                    </label>
                  ) : null}
                </fieldset>
              ))}
            </div>
          </div>
        </section>
      ))}
      <section className="panel" aria-label={t("review.adjudicate.outcome")}>
        <fieldset data-field="outcome">
          <legend>{t("review.adjudicate.outcome")}</legend>
          {copies.map((c, k) => (
            <label key={c.copyId} style={{ display: "block" }}>
              <input
                type="radio"
                name="outcome"
                checked={outcomeFrom === k}
                onChange={() => setOutcomeFrom(k)}
                aria-label={t("review.adjudicate.take", { field: t("review.adjudicate.outcome"), n: k + 1 })}
              />{" "}
              <span style={{ color: COLOURS[k] }} aria-hidden>
                ●
              </span>{" "}
              {c.isDiscarded ? t("review.adjudicate.discarded") : c.outcome ? t(`outcome.${c.outcome}`) : "—"}
              {c.cutAfter !== null ? ` · ${t("review.adjudicate.cut", { n: c.cutAfter + 1 })}` : ""}
            </label>
          ))}
        </fieldset>
        <div className="button-row">
          <button type="button" className="btn btn-primary" onClick={() => approve.mutate()} disabled={approve.isPending}>
            {t("review.adjudicate.approve")}
          </button>
          {approve.isSuccess ? (
            <span role="status" className="sub">
              {t("review.adjudicate.done")}
            </span>
          ) : null}
        </div>
        {approve.isError ? <ErrorBox error={approve.error} /> : null}
      </section>
    </div>
  );
}

/** One copy's value of a field, texts as a diff against copy 1's. */
function FieldValue({ field, step, first }: { field: StepField; step: StepAnnotation; first: StepAnnotation | undefined }) {
  const t = useT();
  switch (field) {
    case "action":
      return (
        <span data-i18n="data">
          {describeToolCall(step.toolCall)}
          {step.box ? ` [${step.box.map((n) => Math.round(n)).join(", ")}]` : ""}
        </span>
      );
    case "thought":
      return <TextDiff before={first?.thought.text ?? step.thought.text} after={step.thought.text} />;
    case "clearAction":
      return <TextDiff before={first?.clearAction ?? step.clearAction} after={step.clearAction} />;
    case "verdict":
      return <span>{t(`verdict.${step.verdict}`)}</span>;
  }
}

/** The screenshot with every copy's point and box in its colour (original pixels; the SVG scales with the image). */
function CopiesPicture({ step, copies }: { step: StepView; copies: Alternative[] }) {
  const t = useT();
  const { width, height, sha256 } = step.screenshot;
  const r = Math.max(width, height) / 80;
  return (
    <div style={{ position: "relative", width: 300, flex: "none" }} data-testid="copies-picture">
      <img
        src={screenshotUrl(sha256)}
        alt={t("review.adjudicate.screenshot", { n: step.index + 1 })}
        style={{ width: "100%", display: "block" }}
      />
      <svg viewBox={`0 0 ${width} ${height}`} style={{ position: "absolute", inset: 0, width: "100%", height: "100%" }} aria-hidden>
        {copies.map((c, k) => {
          const s = c.steps[step.index];
          if (!s) return null;
          const colour = COLOURS[k];
          const call = s.toolCall;
          const point = !isPointless(call) && "coordinate" in call ? call.coordinate : null;
          return (
            <g key={c.copyId} data-copy={k + 1}>
              {s.box ? (
                <rect
                  x={s.box[0]}
                  y={s.box[1]}
                  width={s.box[2] - s.box[0]}
                  height={s.box[3] - s.box[1]}
                  fill="none"
                  stroke={colour}
                  strokeWidth={r / 3}
                />
              ) : null}
              {point ? (
                <circle cx={point[0]} cy={point[1]} r={r} fill={colour} fillOpacity={0.6} stroke="#fff" strokeWidth={r / 5} />
              ) : null}
            </g>
          );
        })}
      </svg>
    </div>
  );
}

/** The request body: each field from the chosen copy, or the edited text. */
function composed(
  view: AdjudicationView,
  copies: Alternative[],
  choices: Record<StepField, Choice>[],
  edits: { thought: string; clearAction: string }[],
  outcomeFrom: number,
) {
  const sources: Record<string, string>[] = [];
  const steps = view.trajectory.steps.map((_, i): StepAnnotation => {
    const c = choices[i]!;
    const from = (choice: Choice) => copies[choice === "edited" ? 0 : choice]!.steps[i]!;
    const action = from(c.action);
    const thoughtCopy = from(c.thought);
    sources.push(
      Object.fromEntries(STEP_FIELDS.map((f) => [f, c[f] === "edited" ? "edited" : copies[c[f] as number]!.copyId])) as Record<
        string,
        string
      >,
    );
    return {
      toolCall: action.toolCall,
      box: action.box,
      // An edited thought keeps the chosen copy's parts and replaces the whole text.
      thought: c.thought === "edited" ? { ...thoughtCopy.thought, text: edits[i]!.thought } : thoughtCopy.thought,
      clearAction: c.clearAction === "edited" ? edits[i]!.clearAction : from(c.clearAction).clearAction,
      verdict: from(c.verdict).verdict,
    };
  });
  const o = copies[outcomeFrom]!;
  return {
    version: view.trajectory.version,
    trajectory: { outcome: o.outcome, isDiscarded: o.isDiscarded, cutAfter: o.cutAfter },
    steps,
    sources,
  };
}
