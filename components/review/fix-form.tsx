"use client";

import { useState } from "react";
import type { StepFix } from "@/lib/domain/review";
import { composeThought } from "@/lib/domain/thought";
import { toolCallSchema } from "@/lib/domain/tool-call";
import { VERDICTS, type Verdict } from "@/lib/domain/trajectory";
import { useT } from "@/lib/i18n/react";
import type { StepView } from "@/lib/domain/views";

/** A fix in progress: the parsed fix, or what is wrong with the form. */
export type FixDraft = { fix: StepFix; error: null } | { fix: null; error: string };

type Fields = { state: string; nextAction: string; purpose: string; clearAction: string; toolCall: string; box: string; verdict: Verdict };

function fieldsOf(step: StepView): Fields {
  return {
    state: step.thought.state,
    nextAction: step.thought.nextAction,
    purpose: step.thought.purpose,
    clearAction: step.clearAction,
    toolCall: JSON.stringify(step.toolCall),
    box: step.box ? step.box.join(", ") : "",
    verdict: step.verdict === "unreviewed" || step.verdict === "good" ? "corrected" : step.verdict,
  };
}

function draftOf(step: StepView, f: Fields, t: ReturnType<typeof useT>): FixDraft {
  let call: unknown;
  try {
    call = JSON.parse(f.toolCall);
  } catch (e) {
    return { fix: null, error: t("review.step.toolCallInvalid", { message: (e as Error).message }) };
  }
  const parsed = toolCallSchema.safeParse(call);
  if (!parsed.success) return { fix: null, error: t("review.step.toolCallInvalid", { message: parsed.error.issues[0]?.message ?? "" }) };
  const nums =
    f.box.trim() === ""
      ? []
      : f.box
          .split(/[\s,]+/)
          .filter(Boolean)
          .map(Number);
  if (nums.length !== 0 && (nums.length !== 4 || nums.some((n) => !Number.isFinite(n))))
    return { fix: null, error: t("review.step.boxInvalid") };
  const thought = { state: f.state, nextAction: f.nextAction, purpose: f.purpose };
  return {
    error: null,
    fix: {
      stepId: step.id,
      version: step.version,
      thought: { ...thought, text: composeThought(thought) },
      clearAction: f.clearAction,
      toolCall: parsed.data,
      box: nums.length === 4 ? (nums as [number, number, number, number]) : null,
      verdict: f.verdict,
    },
  };
}

/** The reviewer's edit of one step, kept on the page until "Fix and approve" saves it with the decision. */
export function FixForm({ step, onChange, onDiscard }: { step: StepView; onChange: (d: FixDraft) => void; onDiscard: () => void }) {
  const t = useT();
  const [f, setF] = useState<Fields>(() => fieldsOf(step));
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<Fields>) => {
    const next = { ...f, ...patch };
    setF(next);
    const d = draftOf(step, next, t);
    setError(d.error);
    onChange(d);
  };
  const n = step.index + 1;
  return (
    <fieldset className="fix-form">
      <legend>{t("review.step.fixing", { n })}</legend>
      <label className="form-field">
        <span>{t("review.field.thought.state")}</span>
        <textarea rows={2} value={f.state} onChange={(e) => set({ state: e.target.value })} />
      </label>
      <label className="form-field">
        <span>{t("review.field.thought.nextAction")}</span>
        <textarea rows={2} value={f.nextAction} onChange={(e) => set({ nextAction: e.target.value })} />
      </label>
      <label className="form-field">
        <span>{t("review.field.thought.purpose")}</span>
        <textarea rows={2} value={f.purpose} onChange={(e) => set({ purpose: e.target.value })} />
      </label>
      <label className="form-field">
        <span>{t("review.field.clearAction")}</span>
        <input value={f.clearAction} onChange={(e) => set({ clearAction: e.target.value })} />
      </label>
      <label className="form-field">
        <span>{t("review.step.toolCallJson")}</span>
        <input className="mono" value={f.toolCall} onChange={(e) => set({ toolCall: e.target.value })} />
      </label>
      <label className="form-field">
        <span>{t("review.step.box")}</span>
        <input className="mono" value={f.box} onChange={(e) => set({ box: e.target.value })} />
      </label>
      <label className="form-field">
        <span>{t("review.step.verdict")}</span>
        <select value={f.verdict} onChange={(e) => set({ verdict: e.target.value as Verdict })}>
          {VERDICTS.filter((v) => v !== "unreviewed").map((v) => (
            <option key={v} value={v}>
              {t(`verdict.${v}`)}
            </option>
          ))}
        </select>
      </label>
      {error && (
        <p className="problem is-blocking" role="alert">
          {error}
        </p>
      )}
      <button type="button" className="btn btn-small" onClick={onDiscard}>
        {t("review.step.fixUndo")}
      </button>
    </fieldset>
  );
}

/** The draft a fresh fix form starts from (the step as it is, verdict "corrected"). */
export const initialFixDraft = (step: StepView, t: ReturnType<typeof useT>): FixDraft => draftOf(step, fieldsOf(step), t);
