// Where "the model got it wrong" comes from, once, for every product a correction trains: preference pairs
// (`bridge dpo`), critic records (`bridge critic`) and process labels (`bridge prm`, grpo, traj).
//
// A step pairs what the model did (`original`, as imported, never edited) with what a person left there
// (thought, clear action, tool call) and a verdict. Two different questions are asked of it:
// - Did a person change the model's RESPONSE? Any of thought text, clear action or tool call differs from
//   the model's own: the step gives a preference pair (chosen = the person's, rejected = the model's).
// - Was the model's ACTION wrong? The verdict is `harmful` (the executed action was a mistake), or the
//   person replaced the tool call. A reworded thought or clear action over the model's own call leaves the
//   action right: such a step is a positive for the critic and +1 for a process reward model.
// The verdict `corrected` alone decides nothing: the editor sets it for a rewritten thought as readily as for
// a moved point, so the fields say what was corrected.
import { sameJson } from "./dialect";
import type { Annotation } from "./rewards";
import type { CanonicalStep, CanonicalTrajectory } from "./trajectory";

/** A step's process label: +1 the model's step was good, 0 neutral (redundant, harmless), -1 harmful or wrong. */
export type ProcessLabel = 1 | 0 | -1;

/** The response fields a person may change; the order is the response's. */
export const RESPONSE_FIELDS = ["thought", "clearAction", "toolCall"] as const;
export type ResponseField = (typeof RESPONSE_FIELDS)[number];

type JudgedStep = Pick<CanonicalStep, "thought" | "clearAction" | "toolCall" | "original" | "verdict">;

/**
 * The response fields a person changed against the model's original output: thought text and clear action
 * (each compared as written) and tool call (structurally, original pixels). A thought or clear action the
 * source never had (`original.thought` / `original.clearAction` absent, e.g. an AndroidControl episode) is
 * not a change: the model wrote nothing to prefer against. The box is not part of the response and never counts.
 */
export function changedFields(step: Omit<JudgedStep, "verdict">): ResponseField[] {
  const o = step.original;
  const out: ResponseField[] = [];
  if (o.thought !== undefined && step.thought.text !== o.thought) out.push("thought");
  if (o.clearAction !== undefined && step.clearAction !== o.clearAction) out.push("clearAction");
  if (!sameJson(step.toolCall, o.toolCall)) out.push("toolCall");
  return out;
}

/** Was the model's action wrong: verdict `harmful`, or a person replaced its tool call? */
export function isModelActionWrong(step: JudgedStep): boolean {
  return step.verdict === "harmful" || !sameJson(step.toolCall, step.original.toolCall);
}

/**
 * The process label of the model's step: -1 when its action was wrong (isModelActionWrong), else 0 for a
 * `neutral` verdict, else +1. Null for a step nobody reviewed (no verdict): no label is made up for it.
 * UI-S1's annotations map one to one (processLabelOfAnnotation) for steps whose call was left as the model
 * wrote it: GOOD +1, NEUTRAL 0, HARMFUL -1.
 */
export function processLabel(step: JudgedStep): ProcessLabel | null {
  if (step.verdict === "unreviewed") return null;
  if (isModelActionWrong(step)) return -1;
  return step.verdict === "neutral" ? 0 : 1;
}

const LABEL_OF_ANNOTATION: Record<Annotation, ProcessLabel> = { GOOD: 1, NEUTRAL: 0, HARMFUL: -1 };
const ANNOTATION_OF_LABEL: Record<`${ProcessLabel}`, Annotation> = { "1": "GOOD", "0": "NEUTRAL", "-1": "HARMFUL" };

/** UI-S1's step annotation as a process label: GOOD +1, NEUTRAL 0, HARMFUL -1. */
export function processLabelOfAnnotation(annotation: Annotation): ProcessLabel {
  return LABEL_OF_ANNOTATION[annotation];
}

/** A process label as UI-S1's step annotation (the inverse of processLabelOfAnnotation). */
export function annotationOfProcessLabel(label: ProcessLabel): Annotation {
  return ANNOTATION_OF_LABEL[`${label}`];
}

/**
 * The 1-based number of the first kept step (inside the cut) whose label is -1, or null when the model went
 * wrong nowhere it was kept (a discarded trajectory: null). Steps after the cut are never exported, so they
 * never name the first error.
 */
export function firstError(
  t: Pick<CanonicalTrajectory, "cutAfter" | "isDiscarded"> & { steps: readonly (JudgedStep & Pick<CanonicalStep, "index">)[] },
): number | null {
  if (t.isDiscarded) return null;
  const last = t.cutAfter ?? t.steps.length - 1;
  const i = t.steps.findIndex((s) => s.index <= last && processLabel(s) === -1);
  return i < 0 ? null : t.steps[i]!.index + 1;
}

/**
 * The canonical line with its process labels: each step's `processLabel` (processLabel) and the trajectory's
 * `firstError` (firstError), the same values the trainer rows carry as process_label and first_error. Returns
 * the record, changed in place.
 */
export function withProcessLabels<T extends Pick<CanonicalTrajectory, "cutAfter" | "isDiscarded" | "steps" | "firstError">>(record: T): T {
  for (const step of record.steps) step.processLabel = processLabel(step);
  record.firstError = firstError(record);
  return record;
}
