import { nextStatus, taskStatusSchema } from "@/lib/domain/status";
import { commentInput, reviewDecisionInput, type CommentInput, type CommentView, type ReviewDecisionInput } from "@/lib/domain/review";
import type { Actor } from "@/lib/domain/permissions";
import { recordAudit } from "./audit";
import { db as defaultDb, type Db } from "./db";
import { AppError } from "./errors";
import { fromStore } from "./stored";
import { assertNotOwnWork } from "./review-guard";
import { auditActor, authorize } from "./session";

/** Work waiting for review, oldest submission first. */
export async function reviewQueue(actor: Actor, prisma: Db = defaultDb()) {
  authorize(actor, "trajectory.review");
  const rows = await prisma.trajectory.findMany({
    where: { status: "submitted" },
    orderBy: [{ submittedAt: "asc" }, { id: "asc" }],
    take: 500,
    select: { id: true, app: true, instruction: true, stepCount: true, submittedAt: true, outcome: true, assignee: { select: { email: true } } },
  });
  return rows.map(({ assignee, submittedAt, ...r }) => ({ ...r, submittedAt: submittedAt?.toISOString() ?? null, annotator: assignee?.email ?? null }));
}

/**
 * Approve submitted work, or send it back to its annotator with a reason. The status change follows
 * the domain's transition table; a decision on a version the reviewer did not see answers 409.
 */
export async function decideReview(actor: Actor, trajectoryId: string, input: ReviewDecisionInput, prisma: Db = defaultDb()) {
  const data = reviewDecisionInput.parse(input);
  authorize(actor, "trajectory.review");
  return prisma.$transaction(async (tx) => {
    const t = await tx.trajectory.findUnique({ where: { id: trajectoryId }, select: { id: true, status: true, version: true, reviewerId: true, assigneeId: true } });
    if (!t) throw new AppError("not_found", `trajectory ${trajectoryId} does not exist`);
    await assertNotOwnWork(tx, actor, t);
    if (t.version !== data.version) {
      throw new AppError("conflict", `the trajectory changed since you opened it (version ${t.version}, you saw ${data.version}); reload before deciding`, { version: t.version });
    }
    const from = fromStore(taskStatusSchema, t.status, `status of trajectory ${t.id}`);
    const to = nextStatus(from, data.decision);
    if (!to) throw new AppError("conflict", `a trajectory that is ${from.replace("_", " ")} cannot be ${data.decision === "approve" ? "approved" : "sent back"}`);
    const updated = await tx.trajectory.update({
      where: { id: t.id },
      data: { status: to, reviewerId: actor.id, reviewedAt: new Date(), version: { increment: 1 } },
      select: { status: true, version: true },
    });
    if (data.comment) await tx.comment.create({ data: { trajectoryId: t.id, authorId: actor.id, body: data.comment } });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: `review.${data.decision}`,
      entityType: "trajectory",
      entityId: t.id,
      before: { status: from, reviewerId: t.reviewerId },
      after: { status: to, reviewerId: actor.id, ...(data.comment ? { comment: data.comment } : {}) },
    });
    return updated;
  });
}

/** Comment on a trajectory or one of its steps. */
export async function addComment(actor: Actor, input: CommentInput, prisma: Db = defaultDb()): Promise<CommentView> {
  const data = commentInput.parse(input);
  const t = await prisma.trajectory.findUnique({ where: { id: data.trajectoryId }, select: { assigneeId: true, status: true, stepCount: true } });
  if (!t) throw new AppError("not_found", `trajectory ${data.trajectoryId} does not exist`);
  authorize(actor, "comment.write", t);
  if (data.stepIndex !== null && data.stepIndex >= t.stepCount) throw new AppError("unprocessable", `step ${data.stepIndex + 1} does not exist (the trajectory has ${t.stepCount})`);
  return prisma.$transaction(async (tx) => {
    const c = await tx.comment.create({ data: { trajectoryId: data.trajectoryId, stepIndex: data.stepIndex, authorId: actor.id, body: data.body } });
    await recordAudit(tx, { actor: auditActor(actor), action: "comment.create", entityType: "trajectory", entityId: data.trajectoryId, after: { stepIndex: data.stepIndex, body: data.body } });
    return { id: c.id, stepIndex: c.stepIndex, author: actor.email, body: c.body, isResolved: c.isResolved, createdAt: c.createdAt.toISOString() };
  });
}

/** The comments on a trajectory `actor` may read. */
export async function listComments(actor: Actor, trajectoryId: string, prisma: Db = defaultDb()): Promise<CommentView[]> {
  const t = await prisma.trajectory.findUnique({ where: { id: trajectoryId }, select: { assigneeId: true, status: true } });
  if (!t) throw new AppError("not_found", `trajectory ${trajectoryId} does not exist`);
  authorize(actor, "trajectory.read", t);
  const rows = await prisma.comment.findMany({ where: { trajectoryId }, orderBy: { createdAt: "asc" }, include: { author: { select: { email: true } } } });
  return rows.map((c) => ({ id: c.id, stepIndex: c.stepIndex, author: c.author.email, body: c.body, isResolved: c.isResolved, createdAt: c.createdAt.toISOString() }));
}
