// Evaluation runs (issue 25 items 2-6): a saved endpoint answers every kept step of a frozen evaluation set,
// teacher-forced (each step sees the ground-truth history and its own screenshot, lib/domain/eval.ts
// evalSamples, the studio's mobile_use prompt), as a kind of the one job system: durable, with a heartbeat,
// taken over when its process dies, paused, resumed and cancelled, with bounded concurrency (the endpoint's,
// through the model budgets of model-budget.ts) and token counts. Each answered step is an EvalStep row; when
// every step is answered the figures are computed by EvalTally (the same reward rules and SOP code as
// `bridge score`) and stored on the run, and the predictions file `bridge score` reads is written.
//
// This file holds the runs' use cases; the parts: endpoints.ts (saved endpoints), run-data.ts (a run's view,
// its set's members), runner.ts (the job kind and the runner, the figures and predictions file), failures.ts
// (a run's failed steps), send.ts (sending failures to annotation). None of them imports this file.
import {
  compareFigures,
  evalSamples,
  startEvalRunInput,
  type EvalCompare,
  type EvalRunView,
  type StartEvalRunInput,
  type StepChange,
} from "@/lib/domain/eval";
import { truncate } from "@/lib/domain/limits";
import { recordAudit, auditActor, authorizeCaller, type Caller } from "../people";
import { db as defaultDb, type Db } from "../db";
import { appError } from "../errors";
import { claimed, commandJob, recoverJobs, settleJobs, waitForJob, type JobCommand } from "../jobs";
import { modelMaxPixels } from "../model";
import { findEvalSet } from "../export";
import { frameOf, membersOf, view } from "./run-data";
import { EVAL_JOBS, launch } from "./runner";

export { listEvalEndpoints, saveEvalEndpoint, testEvalEndpoint } from "./endpoints";
export { EVAL_JOBS, predictionsPath, writePredictions } from "./runner";
export { evalFailures } from "./failures";
export { sendFailuresToAnnotation } from "./send";

/**
 * Start a run of a saved endpoint on an evaluation set (its latest version unless `version`), scored by
 * `rule`. The model sees each screenshot smart-resized at the studio's model budget (STUDIO_MODEL_MAX_PIXELS,
 * Qwen2.5-VL's default otherwise), the frame the predictions file is in.
 */
export async function startEvalRun(
  { caller, ...raw }: { caller: Caller } & StartEvalRunInput,
  prisma: Db = defaultDb(),
): Promise<EvalRunView> {
  authorizeCaller(caller, "model.manage");
  const input = startEvalRunInput.parse(raw);
  const set = await findEvalSet(prisma, input.set, input.version);
  const endpoint = await prisma.evalEndpoint.findUnique({ where: { name: input.endpoint } });
  if (!endpoint) throw appError("not_found", "error.evalEndpointMissing", { name: input.endpoint });
  const maxPixels = modelMaxPixels();
  const frame = await frameOf(prisma, { snapshotId: set.id, maxPixels, coords: endpoint.coords });
  let total = 0;
  for await (const m of membersOf(prisma, set.id)) total += evalSamples(m.trajectory, frame).filter((s) => s.ok).length;
  const actor = auditActor(caller);
  const row = await prisma.$transaction(async (tx) => {
    const created = await tx.evalRun.create({
      data: {
        snapshotId: set.id,
        setName: set.name,
        setVersion: set.number,
        endpointId: endpoint.id,
        endpointName: endpoint.name,
        model: endpoint.model,
        coords: endpoint.coords,
        rule: input.rule,
        maxPixels,
        state: "running",
        createdById: actor.id,
        createdByLabel: truncate(actor.label),
        progressTotal: total,
        ...claimed(),
      },
    });
    await recordAudit(tx, {
      actor,
      action: "eval.run.start",
      entityType: "eval-run",
      entityId: created.id,
      after: { set: set.name, version: set.number, endpoint: endpoint.name, model: endpoint.model, rule: input.rule, steps: total },
    });
    return created;
  });
  launch(prisma, row.id);
  return view(prisma, row);
}

export async function recoverEvalRuns(prisma: Db = defaultDb()): Promise<string[]> {
  return recoverJobs(EVAL_JOBS, prisma);
}

export async function getEvalRun({ caller, id }: { caller: Caller; id: string }, prisma: Db = defaultDb()): Promise<EvalRunView> {
  authorizeCaller(caller, "model.manage");
  await recoverEvalRuns(prisma);
  const row = await prisma.evalRun.findUnique({ where: { id } });
  if (!row) throw appError("not_found", "error.evalRunMissing", { id });
  return view(prisma, row);
}

export async function listEvalRuns({ caller }: { caller: Caller }, prisma: Db = defaultDb()): Promise<EvalRunView[]> {
  authorizeCaller(caller, "model.manage");
  await recoverEvalRuns(prisma);
  const rows = await prisma.evalRun.findMany({ orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: 100 });
  return Promise.all(rows.map((r) => view(prisma, r)));
}

/** Pause, resume or cancel a run (a paused or failed run resumes with the steps not yet answered). */
export async function commandEvalRun(
  { caller, id, command }: { caller: Caller; id: string; command: JobCommand },
  prisma: Db = defaultDb(),
): Promise<EvalRunView> {
  authorizeCaller(caller, "model.manage");
  const row = await prisma.evalRun.findUnique({ where: { id } });
  if (!row) throw appError("not_found", "error.evalRunMissing", { id });
  const done = await commandJob(EVAL_JOBS, prisma, { actor: auditActor(caller), row, command });
  if (!done.ok) throw appError("conflict", "error.evalRunState", { state: row.state, command });
  return view(prisma, (await prisma.evalRun.findUnique({ where: { id } }))!);
}

/** Resolves when this process's run of `id` stops (finished, paused, cancelled, failed). */
export async function waitForEvalRun(id: string): Promise<void> {
  await waitForJob(EVAL_JOBS, id);
}

export async function settleEvalRuns(): Promise<void> {
  await settleJobs(EVAL_JOBS);
}

/**
 * Two finished runs on the same set version, the older as `a` and the newer as `b` (by start time, whichever
 * order they are named in): every headline figure with b - a (regressions first), and the steps one matched and
 * the other did not (b's regressions first).
 */
export async function compareEvalRuns(
  { caller, a, b }: { caller: Caller; a: string; b: string },
  prisma: Db = defaultDb(),
): Promise<EvalCompare> {
  const [first, second] = [await getEvalRun({ caller, id: a }, prisma), await getEvalRun({ caller, id: b }, prisma)];
  // Older first, whichever order they were picked in: the difference reads newer - older.
  const isSwapped = second.startedAt < first.startedAt || (second.startedAt === first.startedAt && second.id < first.id);
  const [va, vb] = isSwapped ? [second, first] : [first, second];
  if (va.set.id !== vb.set.id)
    throw appError("unprocessable", "error.evalCompareSets", {
      a: `${va.set.name} v${va.set.version}`,
      b: `${vb.set.name} v${vb.set.version}`,
    });
  if (!va.figures || !vb.figures) throw appError("conflict", "error.evalRunUnfinished", { id: va.figures ? vb.id : va.id });
  const steps = async (runId: string) =>
    new Map(
      (
        await prisma.evalStep.findMany({
          where: { runId },
          select: { trajectoryId: true, stepIndex: true, extractMatch: true, app: true, gtAction: true, position: true },
        })
      ).map((s) => [`${s.trajectoryId}#${s.stepIndex}`, s]),
    );
  const [sa, sb] = [await steps(va.id), await steps(vb.id)];
  const changes: (StepChange & { position: number })[] = [];
  for (const [k, x] of sa) {
    const y = sb.get(k);
    if (!y || x.extractMatch === y.extractMatch) continue;
    changes.push({
      trajectoryId: x.trajectoryId,
      step: x.stepIndex,
      app: x.app,
      action: x.gtAction,
      regression: x.extractMatch,
      position: x.position,
    });
  }
  changes.sort((p, q) => Number(q.regression) - Number(p.regression) || p.position - q.position || p.step - q.step);
  return {
    a: va,
    b: vb,
    figures: compareFigures(va.figures, vb.figures),
    steps: changes.map(({ position: _, ...c }) => c),
  };
}
