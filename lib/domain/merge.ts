import {
  getField,
  isSameValue,
  setField,
  trajectoryAnnotationSchema,
  type MergeField,
  type StepAnnotation,
  type TrajectoryAnnotation,
} from "./annotation";
import { composeThought } from "./thought";

/**
 * Three-way merge of a stale save (409) with what the server now holds. `base` is the version both
 * edits started from, `mine` the edit that met the 409, `theirs` the server's. A field only one side
 * changed merges on its own; a field both changed to different values is a conflict a person
 * resolves: mine, theirs, or (for text) a value they type. Nothing writes both texts at once.
 */

/** A step's fields as the merge compares them: the thought's parts one by one, never its text (composed from them). */
export const STEP_MERGE_FIELDS = [
  "thought.state",
  "thought.nextAction",
  "thought.purpose",
  "clearAction",
  "toolCall",
  "box",
  "verdict",
] as const satisfies readonly MergeField[];
export type StepMergeField = (typeof STEP_MERGE_FIELDS)[number];

export const TRAJECTORY_MERGE_FIELDS = ["outcome", "isDiscarded", "cutAfter"] as const;
export type TrajectoryMergeField = (typeof TRAJECTORY_MERGE_FIELDS)[number];

/** Fields a person may settle by typing a value of their own (free text). */
export const TYPED_MERGE_FIELDS: readonly string[] = ["thought.state", "thought.nextAction", "thought.purpose", "clearAction"];

/** Who settled a field without asking: nobody changed it or both made the same change ("same"), or one side only. */
export type MergeSettled = "same" | "mine" | "theirs";

/** One field of a merge: its three values, and how it settles on its own (null: both changed it, a person chooses). */
export type MergeRow<F extends string = string> = { field: F; base: unknown; mine: unknown; theirs: unknown; settled: MergeSettled | null };

/** A person's answer to one conflict. `typed` is the value they wrote (text fields only). */
export type MergePick = { pick: "mine" } | { pick: "theirs" } | { pick: "typed"; value: string };
export type MergePicks<F extends string = string> = Partial<Record<F, MergePick>>;

/** How one value settles between three versions; null when both sides changed it differently. */
export function settle(base: unknown, mine: unknown, theirs: unknown): MergeSettled | null {
  if (isSameValue(mine, theirs)) return "same";
  if (isSameValue(mine, base)) return "theirs";
  if (isSameValue(theirs, base)) return "mine";
  return null;
}

/** Every merge field of a step, with its three values and how it settles. */
export function planStepMerge(base: StepAnnotation, mine: StepAnnotation, theirs: StepAnnotation): MergeRow<StepMergeField>[] {
  return STEP_MERGE_FIELDS.map((field) => {
    const [b, m, t] = [getField(base, field), getField(mine, field), getField(theirs, field)];
    return { field, base: b, mine: m, theirs: t, settled: settle(b, m, t) };
  });
}

/** Every field of the trajectory's annotation, with its three values and how it settles. */
export function planTrajectoryMerge(
  base: TrajectoryAnnotation,
  mine: TrajectoryAnnotation,
  theirs: TrajectoryAnnotation,
): MergeRow<TrajectoryMergeField>[] {
  return TRAJECTORY_MERGE_FIELDS.map((field) => ({
    field,
    base: base[field],
    mine: mine[field],
    theirs: theirs[field],
    settled: settle(base[field], mine[field], theirs[field]),
  }));
}

/** Is this pick an answer for this field? A typed value needs a text field and some text. */
export function isPickValid(field: string, pick: MergePick | undefined): pick is MergePick {
  if (!pick) return false;
  return pick.pick !== "typed" || (TYPED_MERGE_FIELDS.includes(field) && pick.value.trim() !== "");
}

/** The conflicts still without a valid answer, in row order (the dialog's Save waits for none). */
export function openConflicts<F extends string>(rows: readonly MergeRow<F>[], picks: MergePicks<F>): F[] {
  return rows.filter((r) => r.settled === null && !isPickValid(r.field, picks[r.field])).map((r) => r.field);
}

/** The value a row takes: what settled on its own, or what the person picked (undefined while unanswered). */
export function rowValue<F extends string>(row: MergeRow<F>, pick: MergePick | undefined): unknown {
  if (row.settled === "same" || row.settled === "mine") return row.mine;
  if (row.settled === "theirs") return row.theirs;
  if (!isPickValid(row.field, pick)) return undefined;
  return pick.pick === "mine" ? row.mine : pick.pick === "theirs" ? row.theirs : pick.value;
}

/**
 * The merged thought, or null while one of its parts is still unanswered. When only one side
 * changed the thought (or both the same way) that side's whole thought is kept, its text included;
 * otherwise the parts come from the rows and the text is composed from them, so the text
 * never says something the parts do not.
 */
export function mergedThought(
  base: StepAnnotation,
  mine: StepAnnotation,
  theirs: StepAnnotation,
  picks: MergePicks<StepMergeField>,
): StepAnnotation["thought"] | null {
  const whole = settleThought(base, mine, theirs);
  if (whole) return whole === "theirs" ? theirs.thought : mine.thought;
  const rows = planStepMerge(base, mine, theirs);
  const part = (field: "thought.state" | "thought.nextAction" | "thought.purpose") => {
    const row = rows.find((r) => r.field === field)!;
    const v = rowValue(row, picks[field]);
    return v === undefined ? null : String(v);
  };
  const [state, nextAction, purpose] = [part("thought.state"), part("thought.nextAction"), part("thought.purpose")];
  if (state === null || nextAction === null || purpose === null) return null;
  const parts = { state, nextAction, purpose };
  return { ...parts, text: composeThought(parts) };
}

/** Is the merged thought text written again from its parts (both sides changed the thought)? */
export function isThoughtRecomposed(base: StepAnnotation, mine: StepAnnotation, theirs: StepAnnotation): boolean {
  return settleThought(base, mine, theirs) === null;
}

/** How the thought settles as a whole (compared part by part, so the order of its keys never matters). */
function settleThought(base: StepAnnotation, mine: StepAnnotation, theirs: StepAnnotation): MergeSettled | null {
  const whole = ({ thought: t }: StepAnnotation) => [t.state, t.nextAction, t.purpose, t.text];
  return settle(whole(base), whole(mine), whole(theirs));
}

/** The merged step, or null while a conflict is unanswered. */
export function resolveStepMerge(
  base: StepAnnotation,
  mine: StepAnnotation,
  theirs: StepAnnotation,
  picks: MergePicks<StepMergeField>,
): StepAnnotation | null {
  const rows = planStepMerge(base, mine, theirs);
  if (openConflicts(rows, picks).length > 0) return null;
  let out = theirs;
  for (const row of rows) out = setField(out, row.field, rowValue(row, picks[row.field]));
  const thought = mergedThought(base, mine, theirs, picks);
  return thought && { ...out, thought };
}

/** The merged trajectory annotation, or null while a conflict is unanswered. */
export function resolveTrajectoryMerge(
  base: TrajectoryAnnotation,
  mine: TrajectoryAnnotation,
  theirs: TrajectoryAnnotation,
  picks: MergePicks<TrajectoryMergeField>,
): TrajectoryAnnotation | null {
  const rows = planTrajectoryMerge(base, mine, theirs);
  if (openConflicts(rows, picks).length > 0) return null;
  const out: Record<TrajectoryMergeField, unknown> = { ...theirs };
  for (const row of rows) out[row.field] = rowValue(row, picks[row.field]);
  return trajectoryAnnotationSchema.parse(out);
}
