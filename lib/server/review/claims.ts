import type { Actor } from "@/lib/domain/permissions";
import type { ReviewClaim } from "@/lib/domain/review";
import { recordAudit, auditActor, authorize } from "../people";
import { db as defaultDb, type Db, type Tx } from "../db";
import { AppError, appError } from "../errors";
import { assertNotOwnWork } from "./guard";
import { emails } from "./people";

/** How long a review claim lasts without a heartbeat; the review page renews it every minute. */
export const REVIEW_LEASE_MS = 10 * 60_000;
/** Candidates tried before giving up when other reviewers keep claiming them first. */
const CLAIM_ATTEMPTS = 8;

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

/** The 409 naming who holds a live claim on this trajectory and until when. */
export async function heldByOther(prisma: Db | Tx, id: string): Promise<AppError> {
  const t = await prisma.trajectory.findUnique({ where: { id }, select: { reviewLeaseById: true, reviewLeaseUntil: true } });
  const who = (await emails(prisma, [t?.reviewLeaseById ?? null])).get(t?.reviewLeaseById ?? "") ?? "another reviewer";
  return appError(
    "conflict",
    "error.reviewHeld",
    { who, until: t?.reviewLeaseUntil?.toISOString().slice(11, 16) ?? "?" },
    { reviewer: who, leaseUntil: t?.reviewLeaseUntil?.toISOString() ?? null },
  );
}
