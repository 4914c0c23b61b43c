import { personChanges, reviewSnapshotSchema, snapshotDiff, type ReviewContext, type ReviewSnapshot } from "@/lib/domain/review";
import type { Actor } from "@/lib/domain/permissions";
import { db as defaultDb, type Db, type Tx } from "../db";
import { appError, fromStore } from "../errors";
import { authorize } from "../people";
import { stepFromRow } from "../annotate";
import { emails } from "./people";

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
