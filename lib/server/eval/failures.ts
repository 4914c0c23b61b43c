import {
  answerCallInOriginal,
  evalFailuresQuery,
  evalSamples,
  type EvalFailure,
  type EvalFailuresPage,
  type EvalFailuresQuery,
  type FailureKind,
} from "@/lib/domain/eval";
import type { CoordinateConvention } from "@/lib/domain/geometry";
import { db as defaultDb, type Db } from "../db";
import { appError } from "../errors";
import { authorizeCaller, type Caller } from "../people";
import { recordOf } from "../export";

type Filters = { app?: string; action?: string; failure?: FailureKind };

/** The failed steps of a run that match `f` (a harmful step the model did not repeat has no failure kind). */
const whereOf = (runId: string, f: Filters) => ({
  runId,
  failure: f.failure ? f.failure : { not: null },
  ...(f.app ? { app: f.app } : {}),
  ...(f.action ? { gtAction: f.action } : {}),
});

/**
 * One page of a run's failed steps (non-harmful, scored 0), in the set's order, filtered by app, action type and
 * failure kind, with the total that matches and, per filter, how many each option would show with the other two
 * filters kept.
 */
export async function evalFailures(
  { caller, id, ...raw }: { caller: Caller; id: string } & EvalFailuresQuery,
  prisma: Db = defaultDb(),
): Promise<EvalFailuresPage> {
  authorizeCaller(caller, "model.manage");
  const { page, perPage, ...filters } = evalFailuresQuery.parse(raw);
  const run = await prisma.evalRun.findUnique({ where: { id } });
  if (!run) throw appError("not_found", "error.evalRunMissing", { id });
  const facet = async (by: "app" | "gtAction" | "failure", without: keyof Filters) => {
    const groups = await prisma.evalStep.groupBy({
      by: [by],
      where: whereOf(id, { ...filters, [without]: undefined }),
      _count: { _all: true },
    });
    return Object.fromEntries(
      groups.flatMap((g) => {
        const key = g[by];
        return key === null ? [] : [[key, g._count._all] as const];
      }),
    );
  };
  const [total, rows, app, action, failure] = await Promise.all([
    prisma.evalStep.count({ where: whereOf(id, filters) }),
    prisma.evalStep.findMany({
      where: whereOf(id, filters),
      orderBy: [{ position: "asc" }, { stepIndex: "asc" }],
      skip: (page - 1) * perPage,
      take: perPage,
    }),
    facet("app", "app"),
    facet("gtAction", "action"),
    facet("failure", "failure"),
  ]);
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
  return { failures: out, total, page, perPage, counts: { app, action, failure } };
}
