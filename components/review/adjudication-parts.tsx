"use client";

import type { CopyMark } from "@/components/step-canvas/copy-marks";
import { gestureOf } from "@/lib/canvas/overlay";
import type { View } from "@/lib/canvas/view";
import type { AdjudicatedField, AdjudicationChoice, Alternative, Disagreement } from "@/lib/domain/adjudication";
import { describeToolCall } from "@/lib/domain/tool-call";
import { useT } from "@/lib/i18n/react";
import { useViewState } from "@/components/step-canvas/use-view";
import { TextDiff } from "./text-diff";

type CopyStep = Alternative["steps"][number];

/** Each copy's colour and dash on the canvas and beside its values (copy 1, 2, 3): told apart by more than colour. */
export const COPY_STYLE = [
  { color: "#d9480f", dash: undefined, border: "solid" },
  { color: "#1971c2", dash: [8, 4], border: "dashed" },
  { color: "#2f9e44", dash: [2, 4], border: "dotted" },
] as const;

export const stepOf = (c: Alternative, i: number): CopyStep | undefined => c.steps.find((s) => s.index === i);

/** The copies' actions on step `i`, for the step canvas's own layer. */
export function copyMarksOf(copies: Alternative[], i: number): CopyMark[] {
  return copies.flatMap((c, k) => {
    const s = stepOf(c, i);
    const style = COPY_STYLE[k];
    if (!s || !style) return [];
    return [{ n: k + 1, color: style.color, dash: style.dash ? [...style.dash] : undefined, gesture: gestureOf(s.toolCall), box: s.box }];
  });
}

/** The swatch of copy `k` (its colour and dash). */
export function CopySwatch({ k }: { k: number }) {
  const style = COPY_STYLE[k] ?? COPY_STYLE[0];
  return <span className="swatch swatch-ring" style={{ borderColor: style.color, borderStyle: style.border }} aria-hidden />;
}

/** The canvas legend: each copy as the reviewer may see it (its number and person), its action on this step; the model's action as a toggle. */
export function CopiesLegend({ copies, stepIndex, view }: { copies: Alternative[]; stepIndex: number; view: View }) {
  const t = useT();
  const layers = useViewState(view, (s) => s.layers);
  return (
    <ul className="step-canvas-legend adjudication-legend" aria-label={t("review.adjudicate.copies")}>
      {copies.map((c, k) => {
        const s = stepOf(c, stepIndex);
        return (
          <li key={c.copyId} data-copy={k + 1}>
            <span className="legend-copy">
              <CopySwatch k={k} />
              <span className="legend-name">{t("review.adjudicate.copy", { n: k + 1 })}</span>
              <span className="legend-person" data-i18n="data">
                {c.annotator ?? "—"}
              </span>
            </span>
            {s && <code className="legend-detail">{actionText(s, t("review.adjudicate.noBox"))}</code>}
          </li>
        );
      })}
      <li data-layer="model">
        <label>
          <input type="checkbox" checked={layers.model} onChange={(e) => view.setLayer("model", e.target.checked)} />
          <span className="swatch swatch-ring" style={{ borderColor: "#7c5cff", borderStyle: "dashed" }} aria-hidden />
          <span className="legend-name">{t("canvas.layer.model")}</span>
        </label>
      </li>
    </ul>
  );
}

/** An action as text: the tool call and its box (original pixels). */
export function actionText(s: CopyStep, noBox: string): string {
  return `${describeToolCall(s.toolCall)} · ${s.box ? `[${s.box.map((n) => Math.round(n)).join(", ")}]` : noBox}`;
}

/** One copy's value of a field; texts as a diff against copy 1's, so how they differ shows. */
export function FieldValue({ field, step, first }: { field: AdjudicatedField; step: CopyStep; first: CopyStep | undefined }) {
  const t = useT();
  switch (field) {
    case "action":
      return (
        <code className="mono" data-i18n="data">
          {actionText(step, t("review.adjudicate.noBox"))}
        </code>
      );
    case "thought":
      return <TextDiff before={first?.thought.text ?? step.thought.text} after={step.thought.text} />;
    case "clearAction":
      return <TextDiff before={first?.clearAction ?? step.clearAction} after={step.clearAction} />;
    case "verdict":
      return <span>{t(`verdict.${step.verdict}`)}</span>;
  }
}

/** A copy's outcome, discard and cut in words. */
export function OutcomeValue({ copy }: { copy: Alternative }) {
  const t = useT();
  return (
    <span>
      {copy.isDiscarded ? t("review.adjudicate.discarded") : copy.outcome ? t(`outcome.${copy.outcome}`) : "—"}
      {copy.cutAfter !== null ? ` · ${t("review.adjudicate.cut", { n: copy.cutAfter + 1 })}` : ""}
    </span>
  );
}

/**
 * One disagreement: which field, how the copies differ, and a radio per copy (none checked until the
 * reviewer chooses); a thought or clear action may also be written anew ("Edit").
 */
export function DisagreementBlock({
  d,
  copies,
  choice,
  edit,
  isCurrent,
  onChoose,
  onEdit,
  onFocus,
}: {
  d: Disagreement;
  copies: Alternative[];
  choice: AdjudicationChoice | undefined;
  edit: string | undefined;
  isCurrent: boolean;
  onChoose: (c: AdjudicationChoice) => void;
  onEdit: (text: string) => void;
  onFocus: () => void;
}) {
  const t = useT();
  const fieldName = d.field === "outcome" ? t("review.adjudicate.outcome") : t(`review.adjudicate.field.${d.field}`);
  const label = d.stepIndex === null ? fieldName : t("review.adjudicate.group", { n: d.stepIndex + 1, field: fieldName });
  const isText = d.field === "thought" || d.field === "clearAction";
  const first = d.stepIndex === null ? undefined : stepOf(copies[0]!, d.stepIndex);
  return (
    <div
      className={`adjudication-disagreement${isCurrent ? " is-current" : ""}${choice === undefined ? " is-open" : ""}`}
      id={`disagreement-${d.key}`}
      data-field={d.field}
      onFocusCapture={onFocus}
      onClick={onFocus}
    >
      <div className="adjudication-disagreement-head">
        <span className="chip chip-changed">≠ {fieldName}</span>
        <span className="sub">
          {d.aspects.length > 0
            ? t("review.adjudicate.differIn", {
                what: d.aspects.map((a) => t(`review.adjudicate.aspect.${a}`)).join(t("review.adjudicate.aspectSeparator")),
              })
            : t("review.adjudicate.differ")}
          {isText && ` · ${t("review.adjudicate.vsCopy1")}`}
        </span>
        <span className={`chip${choice === undefined ? " chip-todo" : " chip-done"}`}>
          {choice === undefined ? t("review.adjudicate.toChoose") : t("review.adjudicate.chosen")}
        </span>
      </div>
      <div role="radiogroup" aria-label={label} className="adjudication-options">
        {copies.map((c, k) => {
          const s = d.stepIndex === null ? null : stepOf(c, d.stepIndex);
          return (
            <label key={c.copyId} className={`adjudication-option${choice === k ? " is-chosen" : ""}`}>
              <input
                type="radio"
                name={`choice-${d.key}`}
                checked={choice === k}
                onChange={() => onChoose(k)}
                aria-label={t("review.adjudicate.take", { field: fieldName, n: k + 1 })}
              />
              <span className="kbd" aria-hidden>
                {k + 1}
              </span>
              <CopySwatch k={k} />
              <span className="adjudication-value">
                {d.field === "outcome" ? <OutcomeValue copy={c} /> : s ? <FieldValue field={d.field} step={s} first={first} /> : "—"}
              </span>
            </label>
          );
        })}
        {isText && (
          <label className={`adjudication-option${choice === "edited" ? " is-chosen" : ""}`}>
            <input type="radio" name={`choice-${d.key}`} checked={choice === "edited"} onChange={() => onChoose("edited")} />
            <span className="kbd" aria-hidden>
              E
            </span>
            <span className="adjudication-value">{t("review.adjudicate.edit")}</span>
          </label>
        )}
      </div>
      {choice === "edited" && (
        <textarea
          className="input adjudication-edit"
          aria-label={t("review.adjudicate.editOf", { field: fieldName })}
          value={edit ?? ""}
          onChange={(e) => onEdit(e.target.value)}
          rows={d.field === "thought" ? 3 : 1}
        />
      )}
    </div>
  );
}

/** The fields of step `i` all copies agree on, one line, expandable to their values. */
export function AgreedLine({
  fields,
  step,
  stepIndex,
  isWholeStep,
}: {
  fields: AdjudicatedField[];
  step: CopyStep | undefined;
  stepIndex: number;
  isWholeStep: boolean;
}) {
  const t = useT();
  if (fields.length === 0 || !step) return null;
  return (
    <details className="adjudication-agreed">
      <summary>
        {isWholeStep
          ? t("review.adjudicate.stepAgrees", { n: stepIndex + 1, count: fields.length })
          : t("review.adjudicate.agree", { n: fields.length })}
      </summary>
      <dl>
        {fields.map((f) => (
          <div key={f}>
            <dt>{t(`review.adjudicate.field.${f}`)}</dt>
            <dd>
              <FieldValue field={f} step={step} first={step} />
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
