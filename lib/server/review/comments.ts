import {
  commentInput,
  replyInput,
  resolveInput,
  type CommentInput,
  type CommentView,
  type ReplyInput,
  type ResolveInput,
} from "@/lib/domain/review";
import type { Actor } from "@/lib/domain/permissions";
import { recordAudit, auditActor, authorize } from "../people";
import { db as defaultDb, type Db, type Tx } from "../db";
import { appError } from "../errors";

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
