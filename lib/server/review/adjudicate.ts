// Adjudication (issue 26 item 3): the reviewer's choice among the overlap copies of one trajectory
// becomes the trajectory's annotation and is approved; the copies stay as they were, in the audit
// trail and in the export as alternatives (`annotations[]`), so a trainer can learn from the chosen
// values or from all of them.
import { adjudicateInput, type AdjudicateInput, type AdjudicationView, type Alternative } from "@/lib/domain/adjudication";
import { stepAnnotationColumns, getTrajectory } from "../annotate";
import { annotationOf, submitProblems, trajectoryAnnotationOf } from "@/lib/domain/annotation";
import type { Actor } from "@/lib/domain/permissions";
import { taskStatusSchema } from "@/lib/domain/status";
import type { TrajectoryView } from "@/lib/domain/views";
import { recordAudit, auditActor, authorize } from "../people";
import { db as defaultDb, type Db, type Tx } from "../db";
import { appError, fromStore } from "../errors";
import { snapshotOf } from "./context";

/** Copies whose person has handed them in: the ones a reviewer adjudicates between. */
const HANDED_IN = ["submitted", "approved"];

/** The overlap copies of trajectory `id` as alternatives, oldest first (the order people took them is not kept). */
export async function alternativesOf(prisma: Db | Tx, id: string): Promise<Alternative[]> {
  const rows = await prisma.trajectory.findMany({
    where: { copyOfId: id, copyKind: "overlap" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, status: true, assignee: { select: { email: true } } },
  });
  const out: Alternative[] = [];
  for (const r of rows) {
    const view = await getTrajectory(r.id, prisma);
    out.push({
      copyId: r.id,
      annotator: r.assignee?.email ?? null,
      status: fromStore(taskStatusSchema, r.status, `status of trajectory ${r.id}`),
      ...trajectoryAnnotationOf(view),
      steps: view.steps.map((s) => ({ index: s.index, ...annotationOf(s) })),
    });
  }
  return out;
}

async function overlapped(prisma: Db | Tx, id: string) {
  const t = await prisma.trajectory.findUnique({ where: { id }, select: { id: true, overlap: true, version: true, status: true } });
  if (!t) throw appError("not_found", "error.trajectoryMissing", { id });
  if (t.overlap === 0) throw appError("conflict", "error.notOverlapped", { id });
  return t;
}

/** What a reviewer adjudicates from: the trajectory and each copy. Reviewers and admins. */
export async function getAdjudication({ actor, id }: { actor: Actor; id: string }, prisma: Db = defaultDb()): Promise<AdjudicationView> {
  authorize(actor, "trajectory.review");
  await overlapped(prisma, id);
  return { trajectory: await getTrajectory(id, prisma), copies: await alternativesOf(prisma, id) };
}

/**
 * Write the chosen values into the trajectory and approve it, in one transaction: every step's
 * annotation (its version goes up), the outcome, discard and cut, a review decision with the snapshot
 * as approved, and an audit row naming the copy each value came from. Refused (nothing changed) when
 * the trajectory is not overlapped, fewer than two copies are handed in, the reviewer saw another
 * version, the steps do not match, or the chosen annotation is incomplete.
 */
export async function adjudicate(
  { actor, id, ...input }: { actor: Actor; id: string } & AdjudicateInput,
  prisma: Db = defaultDb(),
  now = new Date(),
): Promise<TrajectoryView> {
  authorize(actor, "trajectory.review");
  const data = adjudicateInput.parse(input);
  return prisma.$transaction(async (tx) => {
    const t = await overlapped(tx, id);
    if (t.version !== data.version)
      throw appError("conflict", "error.reviewTrajectoryConflict", { now: t.version, yours: data.version }, { version: t.version });
    const handedIn = await tx.trajectory.count({ where: { copyOfId: id, copyKind: "overlap", status: { in: HANDED_IN } } });
    if (handedIn < 2) throw appError("conflict", "error.adjudicateTooFew", { id, n: handedIn });
    const before = await getTrajectory(id, tx);
    if (data.steps.length !== before.steps.length)
      throw appError("unprocessable", "error.adjudicateSteps", { id, n: before.steps.length, got: data.steps.length });
    const problems = submitProblems(
      data.trajectory,
      before.steps.map((s, i) => ({ index: s.index, annotation: data.steps[i]!, size: s.screenshot })),
    );
    const first = problems[0];
    if (first)
      throw appError("unprocessable", "error.adjudicateIncomplete", {
        id,
        what: first.code === "step.incomplete" ? `step ${first.stepIndex + 1}: ${first.problems.join(", ")}` : first.code,
      });
    for (const [i, s] of before.steps.entries()) {
      const a = data.steps[i]!;
      await tx.step.update({
        where: { id: s.id },
        data: { ...stepAnnotationColumns(a), version: { increment: 1 } },
      });
    }
    await tx.trajectory.update({
      where: { id },
      data: { ...data.trajectory, status: "approved", reviewerId: actor.id, reviewedAt: now, version: { increment: 1 } },
    });
    await tx.reviewDecision.create({
      data: {
        trajectoryId: id,
        reviewerId: actor.id,
        reviewerLabel: actor.email,
        decision: "approve",
        reason: "adjudicated",
        version: t.version,
        snapshotJson: JSON.stringify(await snapshotOf(tx, id)),
      },
    });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "trajectory.adjudicate",
      entityType: "trajectory",
      entityId: id,
      before: { status: t.status, ...trajectoryAnnotationOf(before), steps: before.steps.map(annotationOf) },
      after: {
        status: "approved",
        ...data.trajectory,
        steps: data.steps,
        sources: data.sources ?? null,
        alternatives: (await alternativesOf(tx, id)).map((a) => a.copyId),
      },
    });
    return getTrajectory(id, tx);
  });
}
