import { z } from "zod";
import { stepAnnotationSchema, trajectoryAnnotationSchema } from "./annotation";
import { text } from "./limits";
import { taskStatusSchema } from "./status";
import { trajectoryViewSchema } from "./views";

// Adjudication (issue 26 item 3): a reviewer compares the overlap copies of one trajectory and approves
// the values they choose, field by field; the copies stay as alternatives.

/** One person's copy as an alternative: who, where it stands, and their annotation (coordinates in original pixels). */
export const alternativeSchema = z.object({
  copyId: z.string(),
  annotator: z.string().nullable(),
  status: taskStatusSchema,
  ...trajectoryAnnotationSchema.shape,
  steps: z.array(stepAnnotationSchema.extend({ index: z.number().int().nonnegative() })),
});
export type Alternative = z.infer<typeof alternativeSchema>;

/** GET /api/trajectories/:id/adjudication: the trajectory (the model's output and its current annotation) and every copy. */
export const adjudicationViewSchema = z.object({ trajectory: trajectoryViewSchema, copies: z.array(alternativeSchema) });
export type AdjudicationView = z.infer<typeof adjudicationViewSchema>;

/**
 * POST /api/trajectories/:id/adjudication: the values chosen (taken from a copy or edited), one
 * annotation per step in order, the trajectory's own fields, and the version the reviewer saw.
 * `sources[i][field]` names the copy a value was taken from (or "edited"), kept in the audit trail.
 */
export const adjudicateInput = z.object({
  version: z.number().int().positive(),
  trajectory: trajectoryAnnotationSchema,
  steps: z.array(stepAnnotationSchema).min(1),
  sources: z.array(z.record(text("id"), text("id"))).optional(),
});
export type AdjudicateInput = z.input<typeof adjudicateInput>;

// Where the copies disagree (issue 36): the page offers a choice only there; every field the handed-in
// copies agree on is taken as it is, without a choice.

/** The per-step fields a reviewer chooses between: the action with its box, the thought, the clear action, the verdict. */
export const ADJUDICATED_FIELDS = ["action", "thought", "clearAction", "verdict"] as const;
export type AdjudicatedField = (typeof ADJUDICATED_FIELDS)[number];

/** How two actions differ: another action, the same action at another point (or other arguments), another box. */
export type ActionAspect = "type" | "arguments" | "box";

/** One place where the copies differ: a step's field, or the trajectory's outcome (with discard and cut). */
export type Disagreement =
  | { key: string; stepIndex: number; field: AdjudicatedField; aspects: ActionAspect[] }
  | { key: "outcome"; stepIndex: null; field: "outcome"; aspects: [] };

/** What a reviewer picked for a disagreement: a copy (its index among the handed-in copies), or their own text. */
export type AdjudicationChoice = number | "edited";

/** The key of a step field's disagreement (and of its choice). */
export const disagreementKey = (stepIndex: number, field: AdjudicatedField) => `${stepIndex}:${field}`;

/** Copies whose person has handed them in: the ones a reviewer adjudicates between. */
export function handedInCopies(copies: Alternative[]): Alternative[] {
  return copies.filter((c) => c.status === "submitted" || c.status === "approved");
}

/** JSON with sorted object keys, so equal values compare equal whatever order their keys came in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

type CopyStep = Alternative["steps"][number];

function fieldValue(s: CopyStep | undefined, field: AdjudicatedField): string {
  if (!s) return "";
  switch (field) {
    case "action":
      return canonical({ toolCall: s.toolCall, box: s.box });
    case "thought":
      return canonical(s.thought);
    case "clearAction":
      return s.clearAction;
    case "verdict":
      return s.verdict;
  }
}

function actionAspects(steps: (CopyStep | undefined)[]): ActionAspect[] {
  const differ = (f: (s: CopyStep | undefined) => unknown) => new Set(steps.map((s) => canonical(f(s) ?? null))).size > 1;
  const aspects: ActionAspect[] = [];
  if (differ((s) => s?.toolCall.action)) aspects.push("type");
  else if (differ((s) => s?.toolCall)) aspects.push("arguments");
  if (differ((s) => s?.box)) aspects.push("box");
  return aspects;
}

/**
 * Every disagreement among `copies` (the handed-in ones), step by step in field order, then the
 * outcome; and per step the fields all copies agree on. `stepCount` is the trajectory's.
 */
export function disagreementsOf(copies: Alternative[], stepCount: number): { disagreements: Disagreement[]; agreed: AdjudicatedField[][] } {
  const disagreements: Disagreement[] = [];
  const agreed: AdjudicatedField[][] = [];
  for (let i = 0; i < stepCount; i++) {
    const steps = copies.map((c) => c.steps.find((s) => s.index === i));
    const same: AdjudicatedField[] = [];
    for (const field of ADJUDICATED_FIELDS) {
      if (new Set(steps.map((s) => fieldValue(s, field))).size <= 1) same.push(field);
      else
        disagreements.push({
          key: disagreementKey(i, field),
          stepIndex: i,
          field,
          aspects: field === "action" ? actionAspects(steps) : [],
        });
    }
    agreed.push(same);
  }
  const outcomes = new Set(copies.map((c) => canonical({ outcome: c.outcome, isDiscarded: c.isDiscarded, cutAfter: c.cutAfter })));
  if (outcomes.size > 1) disagreements.push({ key: "outcome", stepIndex: null, field: "outcome", aspects: [] });
  return { disagreements, agreed };
}

/** The disagreements still without a choice. */
export function unchosen(disagreements: Disagreement[], choices: Readonly<Record<string, AdjudicationChoice | undefined>>): Disagreement[] {
  return disagreements.filter((d) => choices[d.key] === undefined);
}

/**
 * The POST body: every agreed field as the copies have it, every disagreement from the chosen copy
 * (or the reviewer's text, for a thought or clear action chosen as "edited"). `sources` names the copy
 * each value came from, "agreed" where all copies had it, "edited" for the reviewer's text. Throws when
 * a disagreement has no choice: the page saves only once every one has.
 */
export function adjudicationBody({
  version,
  stepCount,
  copies,
  choices,
  edits,
}: {
  version: number;
  stepCount: number;
  copies: Alternative[];
  choices: Readonly<Record<string, AdjudicationChoice | undefined>>;
  edits: Readonly<Record<string, string | undefined>>;
}): AdjudicateInput {
  const { disagreements } = disagreementsOf(copies, stepCount);
  const left = unchosen(disagreements, choices);
  if (left.length > 0) throw new Error(`adjudication: ${left.length} disagreements without a choice (${left[0]!.key})`);
  const first = copies[0];
  if (!first) throw new Error("adjudication: no copies");
  const pick = (key: string): { copy: Alternative; source: string; isEdited: boolean } => {
    const c = disagreements.some((d) => d.key === key) ? choices[key]! : null;
    if (c === null) return { copy: first, source: "agreed", isEdited: false };
    if (c === "edited") return { copy: first, source: "edited", isEdited: true };
    const copy = copies[c];
    if (!copy) throw new Error(`adjudication: no copy ${c + 1} for ${key}`);
    return { copy, source: copy.copyId, isEdited: false };
  };
  const stepOf = (copy: Alternative, i: number) => {
    const s = copy.steps.find((x) => x.index === i);
    if (!s) throw new Error(`adjudication: copy ${copy.copyId} has no step ${i + 1}`);
    return s;
  };
  const sources: Record<string, string>[] = [];
  const steps = Array.from({ length: stepCount }, (_, i) => {
    const from = Object.fromEntries(ADJUDICATED_FIELDS.map((f) => [f, pick(disagreementKey(i, f))])) as Record<
      AdjudicatedField,
      ReturnType<typeof pick>
    >;
    sources.push(Object.fromEntries(ADJUDICATED_FIELDS.map((f) => [f, from[f].source])));
    const action = stepOf(from.action.copy, i);
    const thought = stepOf(from.thought.copy, i).thought;
    return {
      toolCall: action.toolCall,
      box: action.box,
      // An edited thought keeps copy 1's parts and replaces the whole text.
      thought: from.thought.isEdited ? { ...thought, text: edits[disagreementKey(i, "thought")] ?? thought.text } : thought,
      clearAction: from.clearAction.isEdited
        ? (edits[disagreementKey(i, "clearAction")] ?? stepOf(first, i).clearAction)
        : stepOf(from.clearAction.copy, i).clearAction,
      verdict: stepOf(from.verdict.copy, i).verdict,
    };
  });
  const o = pick("outcome").copy;
  return { version, trajectory: { outcome: o.outcome, isDiscarded: o.isDiscarded, cutAfter: o.cutAfter }, steps, sources };
}
