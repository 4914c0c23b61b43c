import { answerCallInOriginal, evalSamples, type EvalFailure, type FailureKind } from "@/lib/domain/eval";
import type { CoordinateConvention } from "@/lib/domain/geometry";
import { db as defaultDb, type Db } from "../db";
import { appError } from "../errors";
import { authorizeCaller, type Caller } from "../people";
import { recordOf } from "../export";

/** A run's failed steps (non-harmful, scored 0), in the set's order, filtered by app, action type and failure kind. */
export async function evalFailures(
  { caller, id, app, action, failure }: { caller: Caller; id: string; app?: string; action?: string; failure?: FailureKind },
  prisma: Db = defaultDb(),
): Promise<EvalFailure[]> {
  authorizeCaller(caller, "model.manage");
  const run = await prisma.evalRun.findUnique({ where: { id } });
  if (!run) throw appError("not_found", "error.evalRunMissing", { id });
  const rows = await prisma.evalStep.findMany({
    where: { runId: id, failure: failure ? failure : { not: null }, ...(app ? { app } : {}), ...(action ? { gtAction: action } : {}) },
    orderBy: [{ position: "asc" }, { stepIndex: "asc" }],
    take: 500,
  });
  const members = new Map(
    (
      await prisma.snapshotMember.findMany({
        where: { snapshotId: run.snapshotId, trajectoryId: { in: [...new Set(rows.map((r) => r.trajectoryId))] } },
        select: { trajectoryId: true, canonicalJson: true },
      })
    ).map((m) => [m.trajectoryId, recordOf(m.canonicalJson, m.trajectoryId)]),
  );
  const frame = { maxPixels: run.maxPixels, coords: run.coords as CoordinateConvention, actionSpace: "mobile-use" as const };
  const out: EvalFailure[] = [];
  for (const r of rows) {
    const t = members.get(r.trajectoryId);
    const sample = t && evalSamples({ ...t, id: r.trajectoryId }, frame).find((s) => s.ok && s.sample.step.index === r.stepIndex);
    if (!t || !sample || !sample.ok || sample.sample.annotation === "HARMFUL") continue;
    const s = sample.sample;
    out.push({
      trajectoryId: r.trajectoryId,
      step: r.stepIndex,
      app: r.app,
      instruction: t.instruction,
      gtAction: r.gtAction,
      predictedAction: r.predictedAction,
      failure: r.failure as FailureKind,
      response: r.response,
      screenshot: { sha256: s.step.screenshot.sha256, width: s.frames.original.width, height: s.frames.original.height },
      groundTruth: { toolCall: s.groundTruth.gt_action, box: s.step.box },
      predicted: answerCallInOriginal(r.response, frame.coords, s.frames),
    });
  }
  return out;
}
