"use client";

import type { ReviewContext } from "@/lib/domain/review";
import { describeToolCall, toolCallSchema } from "@/lib/domain/tool-call";
import { useT } from "@/lib/i18n/react";
import type { MessageKey } from "@/lib/i18n";
import { TextDiff } from "./text-diff";

/** A field's value as a person reads it. */
function shown(field: string, v: unknown, t: ReturnType<typeof useT>): string {
  if (v === null || v === undefined || v === "") return t("review.since.empty");
  if (field === "toolCall") {
    const c = toolCallSchema.safeParse(v);
    return c.success ? describeToolCall(c.data) : JSON.stringify(v);
  }
  if (field === "verdict") return t(`verdict.${String(v)}` as MessageKey);
  if (field === "cutAfter" && typeof v === "number") return String(v + 1);
  if (field === "box" && Array.isArray(v)) return `[${v.join(", ")}]`;
  return typeof v === "string" ? v : JSON.stringify(v);
}

const LABEL: Record<string, MessageKey> = {
  outcome: "review.field.outcome",
  isDiscarded: "review.field.isDiscarded",
  cutAfter: "review.field.cutAfter",
  "thought.state": "review.field.thought.state",
  "thought.nextAction": "review.field.thought.nextAction",
  "thought.purpose": "review.field.thought.purpose",
  "thought.text": "review.field.thought.text",
  clearAction: "review.field.clearAction",
  toolCall: "review.field.toolCall",
  box: "review.field.box",
  verdict: "review.field.verdict",
};

function Change({ field, before, after, t }: { field: string; before: unknown; after: unknown; t: ReturnType<typeof useT> }) {
  const b = shown(field, before, t);
  const a = shown(field, after, t);
  const isText = typeof before === "string" && typeof after === "string" && field !== "verdict" && field !== "outcome";
  return (
    <li>
      <span className="since-field">{t(LABEL[field] ?? "review.field.thought.text")}</span>{" "}
      {isText ? (
        <TextDiff before={before} after={after} />
      ) : (
        <>
          <del data-i18n="data">{b}</del> → <ins data-i18n="data">{a}</ins>
        </>
      )}
    </li>
  );
}

/** What changed since the last decision (a resubmission): the task's fields, then each step's. */
export function SinceLast({ context, onPickStep }: { context: ReviewContext; onPickStep: (index: number) => void }) {
  const t = useT();
  const d = context.sinceLast;
  if (!context.lastDecision || !d) return null;
  const isEmpty = d.trajectory.length === 0 && d.steps.length === 0;
  // The thought's text is composed from its three parts: list it only when no part changed.
  const stepFields = (fields: (typeof d.steps)[number]["fields"]) =>
    fields.some((f) => f.field.startsWith("thought.") && f.field !== "thought.text")
      ? fields.filter((f) => f.field !== "thought.text")
      : fields;
  return (
    <section className="since-last panel" aria-label={t("review.since.title")}>
      <h2>{t("review.since.title")}</h2>
      {isEmpty && <p className="sub">{t("review.since.none")}</p>}
      {d.trajectory.length > 0 && (
        <div>
          <strong>{t("review.since.task")}</strong>
          <ul>
            {d.trajectory.map((c) => (
              <Change key={c.field} field={c.field} before={c.before} after={c.after} t={t} />
            ))}
          </ul>
        </div>
      )}
      {d.steps.map((s) => (
        <div key={s.stepId}>
          <button type="button" className="link-btn" onClick={() => onPickStep(s.index)}>
            {t("review.since.step", { n: s.index + 1 })}
          </button>
          <ul>
            {stepFields(s.fields).map((c) => (
              <Change key={c.field} field={c.field} before={c.before} after={c.after} t={t} />
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
