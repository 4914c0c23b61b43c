import { z } from "zod";
import { taskStatusSchema } from "./status";
import { text } from "./limits";
import {
  getField,
  isSameValue,
  MERGE_FIELDS,
  stepAnnotationSchema,
  trajectoryAnnotationSchema,
  type StepAnnotation,
  type TrajectoryAnnotation,
} from "./annotation";

// ── Decisions ───────────────────────────────────────────────────────────────────────────────────

/** One step as the reviewer fixed it ("Fix and approve"): the whole annotation, the step it belongs to and the version they edited. */
export const stepFixSchema = stepAnnotationSchema.extend({
  stepId: text("id").min(1),
  version: z.number().int().positive(),
});
export type StepFix = z.infer<typeof stepFixSchema>;

export const REVIEW_DECISIONS = ["approve", "reject"] as const;
export const reviewDecisionSchema = z.enum(REVIEW_DECISIONS);
export type ReviewDecision = z.infer<typeof reviewDecisionSchema>;

export const reviewDecisionInput = z
  .object({
    decision: reviewDecisionSchema,
    /** Required when sending work back: the annotator needs to know why. */
    comment: text("comment").trim().optional(),
    /** The trajectory version the reviewer looked at; a newer one answers 409. */
    version: z.number().int().positive(),
    /** "Fix and approve": the reviewer's own edits, saved (as theirs) in the same transaction as the approval. */
    fixes: z.array(stepFixSchema).max(500).default([]),
  })
  .refine((v) => v.decision === "approve" || (v.comment ?? "").length > 0, { message: "say why when sending work back", path: ["comment"] })
  .refine((v) => v.decision === "approve" || v.fixes.length === 0, {
    message: "fixes go with an approval (fix and approve); to send work back, say what to change",
    path: ["fixes"],
  })
  .refine((v) => new Set(v.fixes.map((f) => f.stepId)).size === v.fixes.length, {
    message: "each step can be fixed once per decision",
    path: ["fixes"],
  });
export type ReviewDecisionInput = z.input<typeof reviewDecisionInput>;

// ── Comments ────────────────────────────────────────────────────────────────────────────────────

export const commentInput = z.object({
  trajectoryId: text("id").min(1),
  stepIndex: z.number().int().nonnegative().nullable().default(null),
  body: text("comment").trim().min(1, "a comment needs text"),
});
export type CommentInput = z.input<typeof commentInput>;

export const replyInput = z.object({ body: z.string().trim().min(1, "a reply needs text").max(4000) });
export type ReplyInput = z.input<typeof replyInput>;

export const resolveInput = z.object({ isResolved: z.boolean() });
export type ResolveInput = z.input<typeof resolveInput>;

export const commentReplySchema = z.object({ id: z.string(), author: z.string(), body: z.string(), createdAt: z.coerce.string() });
export type CommentReplyView = z.infer<typeof commentReplySchema>;

export const commentViewSchema = z.object({
  id: z.string(),
  stepIndex: z.number().int().nullable(),
  author: z.string(),
  body: z.string(),
  isResolved: z.boolean(),
  createdAt: z.coerce.string(),
  replies: z.array(commentReplySchema),
});
export type CommentView = z.infer<typeof commentViewSchema>;

/** Open comments per step index (trajectory-level comments are not counted here). */
export function openCommentsByStep(comments: readonly Pick<CommentView, "stepIndex" | "isResolved">[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const c of comments) if (c.stepIndex !== null && !c.isResolved) out.set(c.stepIndex, (out.get(c.stepIndex) ?? 0) + 1);
  return out;
}

// ── Snapshots and what changed since the last decision ────────────────────────────────────────────

/** The annotation exactly as a reviewer decided on it. */
export const reviewSnapshotSchema = z.object({
  trajectory: trajectoryAnnotationSchema,
  steps: z.array(z.object({ stepId: z.string(), index: z.number().int().nonnegative(), annotation: stepAnnotationSchema })),
});
export type ReviewSnapshot = z.infer<typeof reviewSnapshotSchema>;

export const TRAJECTORY_FIELDS = ["outcome", "isDiscarded", "cutAfter"] as const satisfies readonly (keyof TrajectoryAnnotation)[];
export type TrajectoryField = (typeof TRAJECTORY_FIELDS)[number];

const fieldChangeSchema = <F extends z.ZodTypeAny>(field: F) => z.object({ field, before: z.unknown(), after: z.unknown() });
export const snapshotDiffSchema = z.object({
  trajectory: z.array(fieldChangeSchema(z.enum(TRAJECTORY_FIELDS))),
  steps: z.array(z.object({ stepId: z.string(), index: z.number().int(), fields: z.array(fieldChangeSchema(z.enum(MERGE_FIELDS))) })),
});
export type SnapshotDiff = z.infer<typeof snapshotDiffSchema>;

/**
 * What changed between two snapshots of the same trajectory: the task-level fields (outcome, discard,
 * cut) and, per step, each annotation field with its value then and now. Steps present on one side
 * only are compared against nothing (every field counts).
 */
export function snapshotDiff(before: ReviewSnapshot, after: ReviewSnapshot): SnapshotDiff {
  const trajectory = TRAJECTORY_FIELDS.filter((f) => !isSameValue(before.trajectory[f], after.trajectory[f])).map((field) => ({
    field,
    before: before.trajectory[field],
    after: after.trajectory[field],
  }));
  const then = new Map(before.steps.map((s) => [s.stepId, s.annotation]));
  const steps = after.steps
    .map((s) => {
      const old = then.get(s.stepId);
      const fields = MERGE_FIELDS.filter((f) => !old || !isSameValue(getField(old, f), getField(s.annotation, f))).map((field) => ({
        field,
        before: old ? getField(old, field) : null,
        after: getField(s.annotation, field),
      }));
      return { stepId: s.stepId, index: s.index, fields };
    })
    .filter((s) => s.fields.length > 0)
    .sort((a, b) => a.index - b.index);
  return { trajectory, steps };
}

// ── What a person changed (the review chips) ────────────────────────────────────────────────────

export const STEP_CHANGES = ["thought", "clearAction", "toolCall", "box", "verdict"] as const;
export type StepChange = (typeof STEP_CHANGES)[number];

/** The audited form of a step's annotation (what `step.annotate` audit rows hold), field -> chip. */
const AUDITED_FIELD_CHANGE: Record<string, StepChange> = {
  thoughtState: "thought",
  thoughtNext: "thought",
  thoughtPurpose: "thought",
  thought: "thought",
  clearAction: "clearAction",
  toolCall: "toolCall",
  box: "box",
  verdict: "verdict",
};

/** A step's annotation in the audited form, to compare against audit rows. */
export function auditedStep(a: StepAnnotation): Record<string, unknown> {
  return {
    thoughtState: a.thought.state,
    thoughtNext: a.thought.nextAction,
    thoughtPurpose: a.thought.purpose,
    thought: a.thought.text,
    clearAction: a.clearAction,
    toolCall: a.toolCall,
    box: a.box,
    verdict: a.verdict,
  };
}

/**
 * What people changed in a step, read from its edit history (the `before` of each audit row, oldest
 * first): a field counts when someone edited it AND it now differs from what it was before the first
 * edit. An imported box nobody touched is no change; an edit undone again is none either. The verdict
 * is left out: every finished step has one (the review shows it as its own badge).
 */
export function personChanges(current: StepAnnotation, history: readonly Record<string, unknown>[]): StepChange[] {
  const now = auditedStep(current);
  const firstSeen = new Map<string, unknown>();
  for (const before of history)
    for (const [k, v] of Object.entries(before)) if (k in AUDITED_FIELD_CHANGE && !firstSeen.has(k)) firstSeen.set(k, v);
  const out = new Set<StepChange>();
  for (const [k, v] of firstSeen) if (!isSameValue(v, now[k]) && AUDITED_FIELD_CHANGE[k] !== "verdict") out.add(AUDITED_FIELD_CHANGE[k]!);
  return STEP_CHANGES.filter((c) => out.has(c));
}

// ── The review page's context ───────────────────────────────────────────────────────────────────

export const reviewDecisionViewSchema = z.object({
  id: z.string(),
  decision: reviewDecisionSchema,
  reason: z.string().nullable(),
  reviewer: z.string(),
  version: z.number().int(),
  createdAt: z.coerce.string(),
});
export type ReviewDecisionView = z.infer<typeof reviewDecisionViewSchema>;

/** GET /api/reviews: one row of work waiting for review, and who is reviewing it now. */
export const reviewQueueRowSchema = z.object({
  id: z.string(),
  app: z.string(),
  instruction: z.string(),
  stepCount: z.number(),
  outcome: z.string().nullable(),
  submittedAt: z.string().nullable(),
  annotator: z.string().nullable(),
  /** Sent back before: this is a resubmission. */
  isResubmission: z.boolean(),
  reviewer: z.string().nullable(),
  /** Overlap copies handed in when the row is to be adjudicated between them (0: an ordinary review). */
  adjudicate: z.number().int(),
});
export type ReviewQueueRow = z.infer<typeof reviewQueueRowSchema>;
export const reviewQueueSchema = z.object({ rows: z.array(reviewQueueRowSchema) });

/** POST /api/reviews/:id: the status and version after the decision, and the steps the reviewer fixed (1-based). */
export const decisionResultSchema = z.object({
  status: taskStatusSchema,
  version: z.number().int(),
  fixedSteps: z.array(z.number().int()),
});

/** GET /api/comments?trajectoryId= */
export const commentsQueryInput = z.object({ trajectoryId: text("id").min(1) });
export const commentsSchema = z.object({ rows: z.array(commentViewSchema) });

export const reviewClaimSchema = z.object({ reviewer: z.string(), leaseUntil: z.coerce.string(), isMine: z.boolean() });
export type ReviewClaim = z.infer<typeof reviewClaimSchema>;

/** GET /api/reviews/:id: who holds the review, the last decision, what changed since, and what people changed per step. */
export const reviewContextSchema = z.object({
  claim: reviewClaimSchema.nullable(),
  lastDecision: reviewDecisionViewSchema.nullable(),
  /** Against the annotation as it was at the last decision; null before the first decision. */
  sinceLast: snapshotDiffSchema.nullable(),
  /** Step id -> the fields people changed (from the edit history). */
  personChanges: z.record(z.string(), z.array(z.enum(STEP_CHANGES))),
});
export type ReviewContext = z.infer<typeof reviewContextSchema>;

/** POST /api/reviews/next and POST /api/reviews/:id/claim. */
export const nextReviewSchema = z.object({ id: z.string().nullable() });
export const claimResultSchema = z.object({ claim: reviewClaimSchema.nullable() });
