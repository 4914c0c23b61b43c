import { answerCallInOriginal, evalSamples, type SendResult } from "@/lib/domain/eval";
import type { CoordinateConvention } from "@/lib/domain/geometry";
import { nextStatus } from "@/lib/domain/status";
import { recordAudit, auditActor, authorizeCaller, type Caller } from "../people";
import { db as defaultDb, type Db } from "../db";
import { appError } from "../errors";
import { recordOf } from "../export";

/**
 * "Send to annotation": the run's failing trajectories (all of them, or those whose FIRST failure is at the
 * given ground-truth action type and/or app) become tasks of `assignee` (an annotator or admin, by email):
 * approved work is reopened (the status table's `reopen`), new or sent-back work keeps its status, and every
 * failed step gets the run's answer as an action suggestion (original pixels, origin "eval") the annotator may
 * accept. Work under review (submitted) is left alone and counted as skipped. One transaction, audited.
 */
export async function sendFailuresToAnnotation(
  { caller, id, assignee, action, app }: { caller: Caller; id: string; assignee: string; action?: string; app?: string },
  prisma: Db = defaultDb(),
): Promise<SendResult> {
  authorizeCaller(caller, "model.manage");
  authorizeCaller(caller, "trajectory.assign");
  const run = await prisma.evalRun.findUnique({ where: { id } });
  if (!run) throw appError("not_found", "error.evalRunMissing", { id });
  if (!run.figuresJson) throw appError("conflict", "error.evalRunUnfinished", { id });
  const person = await prisma.user.findUnique({ where: { email: assignee.trim().toLowerCase() } });
  if (!person) throw appError("not_found", "error.personMissingEmail", { email: assignee });
  if (person.isDisabled) throw appError("conflict", "error.personDisabled", { email: person.email });
  if (person.role === "reviewer") throw appError("unprocessable", "error.assignReviewer", { email: person.email });
  const failed = await prisma.evalStep.findMany({
    where: { runId: id, failure: { not: null } },
    orderBy: [{ position: "asc" }, { stepIndex: "asc" }],
  });
  const byTrajectory = new Map<string, typeof failed>();
  for (const f of failed) byTrajectory.set(f.trajectoryId, [...(byTrajectory.get(f.trajectoryId) ?? []), f]);
  const chosen = [...byTrajectory.entries()].filter(([, steps]) => {
    const first = steps[0]!;
    return (!action || first.gtAction === action) && (!app || first.app === app);
  });
  if (chosen.length === 0) throw appError("unprocessable", "error.evalNoFailures");
  const members = new Map(
    (
      await prisma.snapshotMember.findMany({
        where: { snapshotId: run.snapshotId, trajectoryId: { in: chosen.map(([t]) => t) } },
        select: { trajectoryId: true, canonicalJson: true },
      })
    ).map((m) => [m.trajectoryId, recordOf(m.canonicalJson, m.trajectoryId)]),
  );
  const frame = { maxPixels: run.maxPixels, coords: run.coords as CoordinateConvention, actionSpace: "mobile-use" as const };
  const actor = auditActor(caller);
  return prisma.$transaction(
    async (tx) => {
      const result: SendResult = { trajectories: 0, suggestions: 0, skipped: 0 };
      for (const [trajectoryId, steps] of chosen) {
        const live = await tx.trajectory.findUnique({ where: { id: trajectoryId }, select: { id: true, status: true, assigneeId: true } });
        if (!live || live.status === "submitted") {
          result.skipped += 1;
          continue;
        }
        const status = live.status === "approved" ? nextStatus("approved", "reopen")! : live.status;
        await tx.trajectory.update({ where: { id: trajectoryId }, data: { assigneeId: person.id, leaseUntil: null, status } });
        await recordAudit(tx, {
          actor,
          action: "eval.send",
          entityType: "trajectory",
          entityId: trajectoryId,
          before: { assigneeId: live.assigneeId, status: live.status },
          after: { assigneeId: person.id, assignee: person.email, status, evalRun: id },
        });
        result.trajectories += 1;
        const t = members.get(trajectoryId);
        const samples = t ? evalSamples({ ...t, id: trajectoryId }, frame) : [];
        for (const f of steps) {
          const sample = samples.find((s) => s.ok && s.sample.step.index === f.stepIndex);
          const call = sample?.ok ? answerCallInOriginal(f.response, frame.coords, sample.sample.frames) : null;
          const step = await tx.step.findFirst({ where: { trajectoryId, index: f.stepIndex }, select: { id: true } });
          if (!call || !step) continue;
          await tx.stepSuggestion.create({
            data: {
              stepId: step.id,
              trajectoryId,
              kind: "action",
              origin: "eval",
              prompt: `eval-run:${id}`,
              model: run.model,
              outputJson: JSON.stringify({ toolCall: call, clearAction: "", thought: thinkOf(f.response) }),
              rawText: f.response.slice(0, 20_000),
              promptTokens: f.promptTokens,
              completionTokens: f.completionTokens,
              jobId: id,
              requestedById: actor.id,
            },
          });
          result.suggestions += 1;
        }
      }
      return result;
    },
    { timeout: 120_000 },
  );
}

/** The answer's `<think>` text, or "". */
function thinkOf(response: string): string {
  const m = /<think>([\s\S]*?)<\/think>/.exec(response);
  return m?.[1]?.trim() ?? "";
}
