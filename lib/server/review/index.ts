import { isTrainingTarget } from "@/lib/domain/trajectory";
import { stepProblems, type StepAnnotation } from "@/lib/domain/annotation";
import { nextStatus, taskStatusSchema } from "@/lib/domain/status";
import {
  auditedStep,
  commentInput,
  personChanges,
  replyInput,
  resolveInput,
  reviewDecisionInput,
  reviewSnapshotSchema,
  snapshotDiff,
  type CommentInput,
  type CommentView,
  type ReplyInput,
  type ResolveInput,
  type ReviewClaim,
  type ReviewContext,
  type ReviewDecisionInput,
  type ReviewSnapshot,
  type StepFix,
  type ReviewQueueRow,
} from "@/lib/domain/review";
import type { Actor } from "@/lib/domain/permissions";
import { changedFields, recordAudit } from "../people/audit";
import { provenanceAfterSave } from "../annotate/provenance";
import { db as defaultDb, type Db, type Tx } from "../db";
import { AppError, appError } from "../http/errors";
import { fromStore } from "../http/stored";
import { assertNotOwnWork } from "./guard";
import { auditActor, authorize } from "../fast/session";
import { stepFromRow } from "../annotate/trajectories";

/** How long a review claim lasts without a heartbeat; the review page renews it every minute. */
export const REVIEW_LEASE_MS = 10 * 60_000;
/** Candidates tried before giving up when other reviewers keep claiming them first. */
const CLAIM_ATTEMPTS = 8;

/** Work waiting for review, oldest submission first, with who is reviewing it now. */
export async function reviewQueue({ actor }: { actor: Actor }, prisma: Db = defaultDb(), now = new Date()): Promise<ReviewQueueRow[]> {
  authorize(actor, "trajectory.review");
  const select = {
    id: true,
    app: true,
    instruction: true,
    stepCount: true,
    submittedAt: true,
    outcome: true,
    reviewLeaseById: true,
    reviewLeaseUntil: true,
    assignee: { select: { email: true } },
    reviewDecisions: { orderBy: { createdAt: "desc" as const }, take: 1, select: { decision: true } },
  };
  // A copy (overlap or gold) is never reviewed on its own: overlap copies are judged together on the adjudication
  // page, which the queue offers once two of them are handed in; gold copies are scored against the gold answer.
  const rows = await prisma.trajectory.findMany({
    where: { status: "submitted", copyOfId: null },
    orderBy: [{ submittedAt: "asc" }, { id: "asc" }],
    take: 500,
    select,
  });
  const overlapped = await prisma.trajectory.findMany({
    where: { overlap: { gt: 0 }, copyOfId: null, status: { not: "approved" } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: 500,
    select: {
      ...select,
      copyRows: { where: { copyKind: "overlap", status: { in: ["submitted", "approved"] } }, select: { submittedAt: true } },
    },
  });
  const ready = overlapped
    .filter((r) => r.copyRows.length >= 2)
    .map(({ copyRows, ...r }) => ({
      ...r,
      assignee: null,
      submittedAt: latest(copyRows.map((c) => c.submittedAt)),
      handedIn: copyRows.length,
    }));
  const list = [...rows.map((r) => ({ ...r, handedIn: 0 })), ...ready].sort(
    (a, b) => (a.submittedAt?.getTime() ?? 0) - (b.submittedAt?.getTime() ?? 0),
  );
  const holders = await emails(
    prisma,
    list.map((r) => r.reviewLeaseById),
  );
  return list.map(({ assignee, submittedAt, reviewLeaseById, reviewLeaseUntil, reviewDecisions, handedIn, ...r }) => ({
    ...r,
    submittedAt: submittedAt?.toISOString() ?? null,
    annotator: assignee?.email ?? null,
    /** Sent back before: this is a resubmission. */
    isResubmission: reviewDecisions[0]?.decision === "reject",
    reviewer: reviewLeaseById && reviewLeaseUntil && reviewLeaseUntil > now ? (holders.get(reviewLeaseById) ?? null) : null,
    /** Overlap copies handed in, when this row is to be adjudicated rather than reviewed (0 otherwise). */
    adjudicate: handedIn,
  }));
}

const latest = (dates: (Date | null)[]) => dates.reduce<Date | null>((a, b) => (b && (!a || b > a) ? b : a), null);

async function emails(prisma: Db | Tx, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (wanted.length === 0) return new Map();
  const users = await prisma.user.findMany({ where: { id: { in: wanted } }, select: { id: true, email: true } });
  return new Map(users.map((u) => [u.id, u.email]));
}

// ── Claims ("Start next review") ────────────────────────────────────────────────────────────────

/** Submitted work this reviewer may claim now: nobody else holds a live claim, and it is not their own work. */
function claimable(actor: Actor, now: Date) {
  return {
    status: "submitted",
    copyOfId: null,
    OR: [{ assigneeId: null }, { assigneeId: { not: actor.id } }],
    AND: [
      { OR: [{ reviewLeaseById: null }, { reviewLeaseUntil: null }, { reviewLeaseUntil: { lt: now } }, { reviewLeaseById: actor.id }] },
    ],
  };
}

/** Work this reviewer may not decide on (they are its assignee, submitted it or edited it: see review-guard). */
async function isOwnWork(prisma: Db, actor: Actor, t: { id: string }): Promise<boolean> {
  const row = await prisma.trajectory.findUnique({ where: { id: t.id }, select: { id: true, assigneeId: true } });
  if (!row) return false;
  try {
    await assertNotOwnWork(prisma, actor, row);
    return false;
  } catch (e) {
    if (e instanceof AppError && e.code === "forbidden") return true;
    throw e;
  }
}

/**
 * "Start next review": the reviewer's own live claim first, otherwise claim the oldest submitted
 * work nobody else is reviewing. Claiming is one conditional update (only while still free), so two
 * reviewers starting at once never get the same task: the loser moves on to the next candidate.
 */
export async function startNextReview({ actor }: { actor: Actor }, prisma: Db = defaultDb(), now = new Date()): Promise<string | null> {
  authorize(actor, "trajectory.review");
  const leaseUntil = new Date(now.getTime() + REVIEW_LEASE_MS);
  const mine = await prisma.trajectory.findFirst({
    where: { status: "submitted", copyOfId: null, reviewLeaseById: actor.id, reviewLeaseUntil: { gte: now } },
    orderBy: [{ submittedAt: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  if (mine) {
    await prisma.trajectory.update({ where: { id: mine.id }, data: { reviewLeaseUntil: leaseUntil } });
    return mine.id;
  }
  const tried: string[] = [];
  let lostRaces = 0;
  // Work the reviewer edited or submitted is skipped (it does not count as a lost race); bounded all the same.
  while (lostRaces < CLAIM_ATTEMPTS && tried.length < CLAIM_ATTEMPTS * 25) {
    const candidate = await prisma.trajectory.findFirst({
      where: { ...claimable(actor, now), id: { notIn: tried } },
      orderBy: [{ submittedAt: "asc" }, { id: "asc" }],
      select: { id: true, reviewLeaseById: true, reviewLeaseUntil: true },
    });
    if (!candidate) return null;
    tried.push(candidate.id);
    if (await isOwnWork(prisma, actor, candidate)) continue;
    if (await claimIn(prisma, actor, candidate, now, leaseUntil)) return candidate.id;
    lostRaces++;
  }
  return null;
}

/** Claim one trajectory if it is still free (a conditional update), with its audit row. */
async function claimIn(
  prisma: Db,
  actor: Actor,
  t: { id: string; reviewLeaseById: string | null; reviewLeaseUntil: Date | null },
  now: Date,
  leaseUntil: Date,
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.trajectory.updateMany({
      where: { id: t.id, ...claimable(actor, now) },
      data: { reviewLeaseById: actor.id, reviewLeaseUntil: leaseUntil },
    });
    if (count !== 1) return false;
    // The same person pressing twice at once takes the same task again: a renewal, not a new claim.
    const isRenewal = t.reviewLeaseById === actor.id && t.reviewLeaseUntil !== null && t.reviewLeaseUntil >= now;
    if (isRenewal) return true;
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "review.claim",
      entityType: "trajectory",
      entityId: t.id,
      before: { reviewLeaseById: t.reviewLeaseById, reviewLeaseUntil: t.reviewLeaseUntil?.toISOString() ?? null },
      after: { reviewLeaseById: actor.id, reviewLeaseUntil: leaseUntil.toISOString() },
    });
    return true;
  });
}

/**
 * Opening a review (and its heartbeat): claim it, or renew this reviewer's claim. Someone else's live
 * claim answers 409 naming them; work that is not submitted has nothing to claim (claim: null).
 */
export async function claimReview(
  { actor, id }: { actor: Actor; id: string },
  prisma: Db = defaultDb(),
  now = new Date(),
): Promise<{ claim: ReviewClaim | null }> {
  authorize(actor, "trajectory.review");
  const t = await prisma.trajectory.findUnique({
    where: { id },
    select: { id: true, status: true, assigneeId: true, copyOfId: true, reviewLeaseById: true, reviewLeaseUntil: true },
  });
  if (!t) throw appError("not_found", "error.trajectoryMissing", { id: id });
  // A copy is judged with the other copies on the adjudication page, never claimed on its own.
  if (t.status !== "submitted" || t.assigneeId === actor.id || t.copyOfId !== null) return { claim: null };
  const leaseUntil = new Date(now.getTime() + REVIEW_LEASE_MS);
  const isMineAlready = t.reviewLeaseById === actor.id && t.reviewLeaseUntil !== null && t.reviewLeaseUntil >= now;
  if (isMineAlready) {
    await prisma.trajectory.updateMany({ where: { id, reviewLeaseById: actor.id }, data: { reviewLeaseUntil: leaseUntil } });
    return { claim: { reviewer: actor.email, leaseUntil: leaseUntil.toISOString(), isMine: true } };
  }
  if (await claimIn(prisma, actor, t, now, leaseUntil))
    return { claim: { reviewer: actor.email, leaseUntil: leaseUntil.toISOString(), isMine: true } };
  throw await heldByOther(prisma, id);
}

/** Leave a review without deciding: the caller's claim ends now, so the next reviewer can take it. */
export async function releaseReview({ actor, id }: { actor: Actor; id: string }, prisma: Db = defaultDb()): Promise<{ claim: null }> {
  authorize(actor, "trajectory.review");
  await prisma.$transaction(async (tx) => {
    const t = await tx.trajectory.findUnique({ where: { id }, select: { reviewLeaseById: true, reviewLeaseUntil: true } });
    if (!t) throw appError("not_found", "error.trajectoryMissing", { id: id });
    const { count } = await tx.trajectory.updateMany({
      where: { id, reviewLeaseById: actor.id },
      data: { reviewLeaseById: null, reviewLeaseUntil: null },
    });
    if (count === 1) {
      await recordAudit(tx, {
        actor: auditActor(actor),
        action: "review.release",
        entityType: "trajectory",
        entityId: id,
        before: { reviewLeaseById: actor.id, reviewLeaseUntil: t.reviewLeaseUntil?.toISOString() ?? null },
        after: { reviewLeaseById: null, reviewLeaseUntil: null },
      });
    }
  });
  return { claim: null };
}

async function heldByOther(prisma: Db | Tx, id: string): Promise<AppError> {
  const t = await prisma.trajectory.findUnique({ where: { id }, select: { reviewLeaseById: true, reviewLeaseUntil: true } });
  const who = (await emails(prisma, [t?.reviewLeaseById ?? null])).get(t?.reviewLeaseById ?? "") ?? "another reviewer";
  return appError(
    "conflict",
    "error.reviewHeld",
    { who, until: t?.reviewLeaseUntil?.toISOString().slice(11, 16) ?? "?" },
    { reviewer: who, leaseUntil: t?.reviewLeaseUntil?.toISOString() ?? null },
  );
}

// ── Decisions ───────────────────────────────────────────────────────────────────────────────────

/** The annotation as it stands, in the form a decision snapshots. */
export async function snapshotOf(tx: Tx | Db, trajectoryId: string): Promise<ReviewSnapshot> {
  const t = await tx.trajectory.findUniqueOrThrow({
    where: { id: trajectoryId },
    select: { outcome: true, isDiscarded: true, cutAfter: true, steps: { orderBy: { index: "asc" }, include: { screenshot: true } } },
  });
  return fromStore(
    reviewSnapshotSchema,
    {
      trajectory: { outcome: t.outcome, isDiscarded: t.isDiscarded, cutAfter: t.cutAfter },
      steps: t.steps.map((s) => {
        const v = stepFromRow(s);
        return {
          stepId: v.id,
          index: v.index,
          annotation: { thought: v.thought, clearAction: v.clearAction, toolCall: v.toolCall, box: v.box, verdict: v.verdict },
        };
      }),
    },
    `snapshot of trajectory ${trajectoryId}`,
  );
}

/**
 * The reviewer's own edits of a "fix and approve": each step saved like an annotator's save
 * (version-checked, complete when it is trained on) and audited as `step.annotate` by the reviewer.
 */
async function applyFixes(
  tx: Tx,
  actor: Actor,
  t: { id: string; cutAfter: number | null; isDiscarded: boolean },
  fixes: StepFix[],
): Promise<number[]> {
  const fixed: number[] = [];
  for (const fix of fixes) {
    const row = await tx.step.findUnique({ where: { id: fix.stepId }, include: { screenshot: true } });
    if (!row || row.trajectoryId !== t.id) throw appError("unprocessable", "error.fixNotInTrajectory", { id: fix.stepId });
    if (row.version !== fix.version) {
      throw appError("conflict", "error.reviewStepConflict", { n: row.index + 1, now: row.version, yours: fix.version });
    }
    const { stepId: _s, version: _v, ...annotation } = fix;
    const next: StepAnnotation = annotation;
    if (isTrainingTarget(t, { index: row.index, verdict: next.verdict })) {
      const blocking = stepProblems(next, { width: row.screenshot.width, height: row.screenshot.height }).filter((p) => p.isBlocking);
      if (blocking.length > 0)
        throw appError(
          "unprocessable",
          "error.fixIncomplete",
          { n: row.index + 1, problems: blocking.map((p) => p.detail ?? p.code).join("; ") },
          { stepIndex: row.index, problems: blocking },
        );
    }
    const before = stepFromRow(row);
    const provenance = await provenanceAfterSave(
      tx,
      row,
      { thought: before.thought, clearAction: before.clearAction, toolCall: before.toolCall, box: before.box, verdict: before.verdict },
      next,
      auditActor(actor).label,
    );
    const { count } = await tx.step.updateMany({
      where: { id: row.id, version: fix.version },
      data: {
        thoughtState: next.thought.state,
        thoughtNext: next.thought.nextAction,
        thoughtPurpose: next.thought.purpose,
        thought: next.thought.text,
        clearAction: next.clearAction,
        toolCallJson: JSON.stringify(next.toolCall),
        boxJson: next.box ? JSON.stringify(next.box) : null,
        verdict: next.verdict,
        provenanceJson: provenance.json,
        version: { increment: 1 },
      },
    });
    if (count !== 1) throw appError("conflict", "error.reviewStepSavedNow", { n: row.index + 1 });
    const diff = changedFields(
      auditedStep({
        thought: before.thought,
        clearAction: before.clearAction,
        toolCall: before.toolCall,
        box: before.box,
        verdict: before.verdict,
      }),
      auditedStep(next),
    );
    if (Object.keys(diff.after).length === 0) continue;
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "step.annotate",
      entityType: "step",
      entityId: row.id,
      before: { ...diff.before, ...provenance.auditBefore, version: row.version },
      after: {
        ...diff.after,
        ...provenance.auditAfter,
        version: row.version + 1,
        via: "review.fix",
        trajectoryId: t.id,
        stepIndex: row.index,
      },
    });
    fixed.push(row.index);
  }
  return fixed;
}

/**
 * Approve submitted work (optionally with the reviewer's own fixes: "fix and approve"), or send it
 * back to its annotator with a reason. The status change follows the domain's transition table; a
 * decision on a version the reviewer did not see, or on work another reviewer holds, answers 409.
 * Every decision stores the annotation as decided on, so a resubmission can show what changed since.
 */
export async function decideReview(
  { actor, id: trajectoryId, ...input }: { actor: Actor; id: string } & ReviewDecisionInput,
  prisma: Db = defaultDb(),
  now = new Date(),
) {
  const data = reviewDecisionInput.parse(input);
  authorize(actor, "trajectory.review");
  return prisma.$transaction(async (tx) => {
    const t = await tx.trajectory.findUnique({
      where: { id: trajectoryId },
      select: {
        id: true,
        status: true,
        version: true,
        reviewerId: true,
        assigneeId: true,
        cutAfter: true,
        isDiscarded: true,
        reviewLeaseById: true,
        reviewLeaseUntil: true,
      },
    });
    if (!t) throw appError("not_found", "error.trajectoryMissing", { id: trajectoryId });
    await assertNotOwnWork(tx, actor, t);
    if (t.reviewLeaseById && t.reviewLeaseById !== actor.id && t.reviewLeaseUntil && t.reviewLeaseUntil >= now)
      throw await heldByOther(tx, t.id);
    if (t.version !== data.version) {
      throw appError("conflict", "error.reviewTrajectoryConflict", { now: t.version, yours: data.version }, { version: t.version });
    }
    const from = fromStore(taskStatusSchema, t.status, `status of trajectory ${t.id}`);
    const to = nextStatus(from, data.decision);
    if (!to)
      throw appError("conflict", data.decision === "approve" ? "error.cannotApprove" : "error.cannotSendBack", {
        status: { key: `status.${from}` },
      });
    const fixedSteps = await applyFixes(tx, actor, t, data.fixes);
    const snapshot = await snapshotOf(tx, t.id);
    const updated = await tx.trajectory.update({
      where: { id: t.id },
      data: { status: to, reviewerId: actor.id, reviewedAt: now, version: { increment: 1 }, reviewLeaseById: null, reviewLeaseUntil: null },
      select: { status: true, version: true },
    });
    await tx.reviewDecision.create({
      data: {
        trajectoryId: t.id,
        reviewerId: actor.id,
        reviewerLabel: actor.email,
        decision: data.decision,
        reason: data.comment || null,
        version: t.version,
        snapshotJson: JSON.stringify(snapshot),
      },
    });
    if (data.comment) await tx.comment.create({ data: { trajectoryId: t.id, authorId: actor.id, body: data.comment } });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: `review.${data.decision}`,
      entityType: "trajectory",
      entityId: t.id,
      before: { status: from, reviewerId: t.reviewerId },
      after: {
        status: to,
        reviewerId: actor.id,
        ...(data.comment ? { comment: data.comment } : {}),
        ...(fixedSteps.length ? { fixedSteps: fixedSteps.map((i) => i + 1) } : {}),
      },
    });
    return { status: to, version: updated.version, fixedSteps: fixedSteps.map((i) => i + 1) };
  });
}

/** The review page's context: claim, last decision, what changed since it, and what people changed per step. */
export async function reviewContext(
  { actor, id }: { actor: Actor; id: string },
  prisma: Db = defaultDb(),
  now = new Date(),
): Promise<ReviewContext> {
  authorize(actor, "trajectory.review");
  const t = await prisma.trajectory.findUnique({
    where: { id },
    select: {
      id: true,
      reviewLeaseById: true,
      reviewLeaseUntil: true,
      steps: { select: { id: true } },
      reviewDecisions: { orderBy: { createdAt: "desc" }, take: 1 },
    },
  });
  if (!t) throw appError("not_found", "error.trajectoryMissing", { id: id });
  const holder = t.reviewLeaseById && t.reviewLeaseUntil && t.reviewLeaseUntil >= now ? t.reviewLeaseById : null;
  const holderEmail = holder ? ((await emails(prisma, [holder])).get(holder) ?? "another reviewer") : null;
  const last = t.reviewDecisions[0] ?? null;
  const current = await snapshotOf(prisma, id);
  const sinceLast = last
    ? snapshotDiff(fromStore(reviewSnapshotSchema, JSON.parse(last.snapshotJson), `review decision ${last.id}`), current)
    : null;
  const history = await prisma.auditEvent.findMany({
    where: { action: "step.annotate", entityType: "step", entityId: { in: t.steps.map((s) => s.id) } },
    orderBy: [{ at: "asc" }, { id: "asc" }],
    select: { entityId: true, beforeJson: true },
  });
  const byStep = new Map<string, Record<string, unknown>[]>();
  for (const h of history)
    byStep.set(h.entityId!, [
      ...(byStep.get(h.entityId!) ?? []),
      h.beforeJson ? (JSON.parse(h.beforeJson) as Record<string, unknown>) : {},
    ]);
  return {
    claim: holder ? { reviewer: holderEmail!, leaseUntil: t.reviewLeaseUntil!.toISOString(), isMine: holder === actor.id } : null,
    lastDecision: last
      ? {
          id: last.id,
          decision: last.decision as "approve" | "reject",
          reason: last.reason,
          reviewer: last.reviewerLabel,
          version: last.version,
          createdAt: last.createdAt.toISOString(),
        }
      : null,
    sinceLast,
    personChanges: Object.fromEntries(current.steps.map((s) => [s.stepId, personChanges(s.annotation, byStep.get(s.stepId) ?? [])])),
  };
}

// ── Comments ────────────────────────────────────────────────────────────────────────────────────

type CommentRow = {
  id: string;
  stepIndex: number | null;
  body: string;
  isResolved: boolean;
  createdAt: Date;
  author: { email: string };
  replies: { id: string; body: string; createdAt: Date; author: { email: string } }[];
};
const commentInclude = {
  author: { select: { email: true } },
  replies: { orderBy: { createdAt: "asc" as const }, include: { author: { select: { email: true } } } },
};

function commentView(c: CommentRow): CommentView {
  return {
    id: c.id,
    stepIndex: c.stepIndex,
    author: c.author.email,
    body: c.body,
    isResolved: c.isResolved,
    createdAt: c.createdAt.toISOString(),
    replies: c.replies.map((r) => ({ id: r.id, author: r.author.email, body: r.body, createdAt: r.createdAt.toISOString() })),
  };
}

/** Comment on a trajectory or one of its steps. */
export async function addComment({ actor, ...input }: { actor: Actor } & CommentInput, prisma: Db = defaultDb()): Promise<CommentView> {
  const data = commentInput.parse(input);
  const t = await prisma.trajectory.findUnique({
    where: { id: data.trajectoryId },
    select: { assigneeId: true, status: true, stepCount: true },
  });
  if (!t) throw appError("not_found", "error.trajectoryMissing", { id: data.trajectoryId });
  authorize(actor, "comment.write", t);
  if (data.stepIndex !== null && data.stepIndex >= t.stepCount)
    throw appError("unprocessable", "error.commentStepMissing", { n: data.stepIndex + 1, count: t.stepCount });
  return prisma.$transaction(async (tx) => {
    const c = await tx.comment.create({
      data: { trajectoryId: data.trajectoryId, stepIndex: data.stepIndex, authorId: actor.id, body: data.body },
      include: commentInclude,
    });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "comment.create",
      entityType: "trajectory",
      entityId: data.trajectoryId,
      after: { commentId: c.id, stepIndex: data.stepIndex, body: data.body },
    });
    return commentView(c);
  });
}

/** A comment and the facts of its trajectory (for the permission check), or 404. */
async function loadComment(commentId: string, prisma: Db | Tx) {
  const c = await prisma.comment.findUnique({
    where: { id: commentId },
    include: { trajectory: { select: { id: true, assigneeId: true, status: true } } },
  });
  if (!c) throw appError("not_found", "error.commentMissing", { id: commentId });
  return c;
}

/** Reply in a comment's thread (the annotator answering the reviewer, or back). */
export async function replyToComment(
  { actor, commentId, ...input }: { actor: Actor; commentId: string } & ReplyInput,
  prisma: Db = defaultDb(),
): Promise<CommentView> {
  const data = replyInput.parse(input);
  return prisma.$transaction(async (tx) => {
    const c = await loadComment(commentId, tx);
    authorize(actor, "comment.write", c.trajectory);
    const r = await tx.commentReply.create({ data: { commentId, authorId: actor.id, body: data.body } });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "comment.reply",
      entityType: "trajectory",
      entityId: c.trajectory.id,
      after: { commentId, replyId: r.id, stepIndex: c.stepIndex, body: data.body },
    });
    return commentView(await tx.comment.findUniqueOrThrow({ where: { id: commentId }, include: commentInclude }));
  });
}

/** Resolve a comment (or open it again). */
export async function setCommentResolved(
  { actor, commentId, ...input }: { actor: Actor; commentId: string } & ResolveInput,
  prisma: Db = defaultDb(),
): Promise<CommentView> {
  const data = resolveInput.parse(input);
  return prisma.$transaction(async (tx) => {
    const c = await loadComment(commentId, tx);
    authorize(actor, "comment.write", c.trajectory);
    if (c.isResolved !== data.isResolved) {
      await tx.comment.update({ where: { id: commentId }, data: { isResolved: data.isResolved } });
      await recordAudit(tx, {
        actor: auditActor(actor),
        action: data.isResolved ? "comment.resolve" : "comment.reopen",
        entityType: "trajectory",
        entityId: c.trajectory.id,
        before: { commentId, isResolved: c.isResolved },
        after: { commentId, isResolved: data.isResolved },
      });
    }
    return commentView(await tx.comment.findUniqueOrThrow({ where: { id: commentId }, include: commentInclude }));
  });
}

/** The comments on a trajectory `actor` may read, each with its replies. */
export async function listComments(
  { actor, trajectoryId }: { actor: Actor; trajectoryId: string },
  prisma: Db = defaultDb(),
): Promise<CommentView[]> {
  const t = await prisma.trajectory.findUnique({ where: { id: trajectoryId }, select: { assigneeId: true, status: true } });
  if (!t) throw appError("not_found", "error.trajectoryMissing", { id: trajectoryId });
  authorize(actor, "trajectory.read", t);
  const rows = await prisma.comment.findMany({
    where: { trajectoryId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: commentInclude,
  });
  return rows.map(commentView);
}
