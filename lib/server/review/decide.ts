import { isTrainingTarget } from "@/lib/domain/trajectory";
import { stepProblems, type StepAnnotation } from "@/lib/domain/annotation";
import { nextStatus, taskStatusSchema } from "@/lib/domain/status";
import { auditedStep, reviewDecisionInput, type ReviewDecisionInput, type StepFix } from "@/lib/domain/review";
import type { Actor } from "@/lib/domain/permissions";
import { changedFields, recordAudit, auditActor, authorize } from "../people";
import { provenanceAfterSave, stepFromRow, stepAnnotationColumns, writeStepAnnotation } from "../annotate";
import { db as defaultDb, type Db, type Tx } from "../db";
import { appError, fromStore } from "../errors";
import { assertNotOwnWork } from "./guard";
import { heldByOther } from "./claims";
import { snapshotOf } from "./context";
import { prismaExec } from "../fast";

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
    const landed = await writeStepAnnotation(prismaExec(tx), {
      stepId: row.id,
      version: fix.version,
      columns: stepAnnotationColumns(next),
      provenanceJson: provenance.json,
      at: new Date(),
    });
    if (!landed) throw appError("conflict", "error.reviewStepSavedNow", { n: row.index + 1 });
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
