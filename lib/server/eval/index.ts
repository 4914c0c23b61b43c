// Evaluation runs (issue 25 items 2-6): a saved endpoint answers every kept step of a frozen evaluation set,
// teacher-forced (each step sees the ground-truth history and its own screenshot, lib/domain/eval.ts
// evalSamples, the studio's mobile_use prompt), as a kind of the one job system: durable, with a heartbeat,
// taken over when its process dies, paused, resumed and cancelled, with bounded concurrency (the endpoint's,
// through the model budgets of model-budget.ts) and token counts. Each answered step is an EvalStep row; when
// every step is answered the figures are computed by EvalTally (the same reward rules and SOP code as
// `bridge score`) and stored on the run, and the predictions file `bridge score` reads is written.
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  actionSpaceOf,
  answerCallInOriginal,
  compareFigures,
  evalEndpointViewSchema,
  evalFiguresSchema,
  evalRunViewSchema,
  EvalTally,
  evalSamples,
  failureKind,
  saveEvalEndpointInput,
  startEvalRunInput,
  type EvalCompare,
  type EvalFailure,
  type SendResult,
  type EvalEndpointView,
  type EvalFigures,
  type EvalFrame,
  type EvalRunView,
  type EvalSample,
  type FailureKind,
  type SaveEvalEndpointInput,
  type StartEvalRunInput,
  type StepChange,
} from "@/lib/domain/eval";
import type { CoordinateConvention } from "@/lib/domain/geometry";
import { truncate } from "@/lib/domain/limits";
import { rewardFor, type RewardRule } from "@/lib/domain/rewards";
import type { CanonicalTrajectory } from "@/lib/domain/trajectory";
import { nextStatus } from "@/lib/domain/status";
import { recordAudit, SYSTEM_ACTOR } from "../people/audit";
import { dataDir } from "../config";
import { db as defaultDb, type Db } from "../db";
import { appError } from "../http/errors";
import {
  audit,
  claimed,
  commandJob,
  defineJobKind,
  ended,
  recoverJobs,
  runJob,
  settleJobs,
  waitForJob,
  type JobCommand,
  type JobWhere,
} from "../jobs";
import { chat, type ChatMessage, type ModelConfig } from "../model";
import { JOB_HEARTBEAT_MS, JOB_STALE_MS } from "../model/jobs";
import { workThrough, type PoolItem } from "../model/pool";
import { isSealed, seal, unseal } from "../people/server-secret";
import { auditActor, authorizeCaller, type Caller } from "../fast/session";
import { findEvalSet, recordOf } from "../export/snapshots";
import { readStoredError, storeMessage, storedMessageOf } from "../http/stored-message";
import { screenshotDataUrl, modelMaxPixels } from "../model/suggest";

/** Members read per query. */
const PAGE = 100;
/** The most tokens an answer may take: a thought, an action and one tool call. */
const ANSWER_TOKENS = 1_024;

type RunRow = Awaited<ReturnType<Db["evalRun"]["findFirstOrThrow"]>>;

/**
 * Evaluation runs as a kind of the jobs module: a run whose process is gone is taken over and goes on here
 * (answered steps have rows, so nothing is asked twice except the one in flight); pause, resume, cancel apply.
 */
export const EVAL_JOBS = defineJobKind<RunRow>({
  name: "eval",
  audit: { prefix: "eval.run", entityType: "eval-run" },
  table: (db) => ({
    running: () => db.evalRun.findMany({ where: { state: "running" } }),
    get: (id) => db.evalRun.findUnique({ where: { id } }),
    update: async (where: JobWhere, data) => (await db.evalRun.updateMany({ where, data })).count,
  }),
  // The model jobs' timings: both kinds wait on the same endpoints.
  heartbeatMs: JOB_HEARTBEAT_MS,
  staleMs: JOB_STALE_MS,
  liveStates: ["running", "paused"],
  whenGone: { takeOver: true },
  resume: (db, id) => launch(db, id),
  commands: {},
});

// ── Endpoints ────────────────────────────────────────────────────────────────────────────────────

/** The purpose bound into the encryption key of an endpoint's saved key (server-secret.ts). */
const KEY_PURPOSE = "eval-endpoint-key";
type EndpointRow = Awaited<ReturnType<Db["evalEndpoint"]["findFirstOrThrow"]>>;

function endpointView(r: EndpointRow): EvalEndpointView {
  return evalEndpointViewSchema.parse({
    id: r.id,
    name: r.name,
    baseUrl: r.baseUrl,
    model: r.model,
    hasKey: r.apiKey !== null,
    coords: r.coords,
    concurrency: r.concurrency,
    timeoutMs: r.timeoutMs,
  });
}

/** The key of an endpoint, only for the URL it was entered for (null: none, or it cannot be read). */
function endpointKey(r: EndpointRow): string | null {
  if (!r.apiKey || !isSealed(r.apiKey)) return null;
  const plain = unseal(r.apiKey, KEY_PURPOSE);
  if (plain === null) return null;
  const v = JSON.parse(plain) as { key?: unknown; url?: unknown };
  return typeof v.key === "string" && v.url === r.baseUrl ? v.key : null;
}

function endpointConfig(r: EndpointRow): ModelConfig {
  return { baseUrl: r.baseUrl, model: r.model, apiKey: endpointKey(r), concurrency: r.concurrency, timeoutMs: r.timeoutMs };
}

/**
 * Save an evaluation endpoint by name (a new name adds one, an existing one is replaced). A key is stored
 * sealed with the URL it was entered for; a new URL without a new key clears it. The audit row never holds it.
 */
export async function saveEvalEndpoint(
  { caller, ...raw }: { caller: Caller } & SaveEvalEndpointInput,
  prisma: Db = defaultDb(),
): Promise<EvalEndpointView> {
  authorizeCaller(caller, "model.manage");
  const input = saveEvalEndpointInput.parse(raw);
  return prisma.$transaction(async (tx) => {
    const before = await tx.evalEndpoint.findUnique({ where: { name: input.name } });
    const apiKey =
      input.apiKey !== undefined && input.apiKey !== ""
        ? seal(JSON.stringify({ key: input.apiKey, url: input.baseUrl }), KEY_PURPOSE)
        : input.apiKey === "" || !before || before.baseUrl !== input.baseUrl
          ? null
          : before.apiKey;
    const data = {
      baseUrl: input.baseUrl,
      model: input.model,
      coords: input.coords,
      concurrency: input.concurrency,
      timeoutMs: input.timeoutMs,
      apiKey,
    };
    const row = await tx.evalEndpoint.upsert({ where: { name: input.name }, create: { name: input.name, ...data }, update: data });
    await recordAudit(tx, {
      actor: auditActor(caller),
      action: "eval.endpoint.save",
      entityType: "eval-endpoint",
      entityId: row.id,
      before: before ? { ...endpointView(before) } : null,
      after: { ...endpointView(row) },
    });
    return endpointView(row);
  });
}

export async function listEvalEndpoints({ caller }: { caller: Caller }, prisma: Db = defaultDb()): Promise<EvalEndpointView[]> {
  authorizeCaller(caller, "model.manage");
  return (await prisma.evalEndpoint.findMany({ orderBy: { name: "asc" } })).map(endpointView);
}

// ── Runs ─────────────────────────────────────────────────────────────────────────────────────────

async function view(prisma: Db, row: RunRow): Promise<EvalRunView> {
  const done = await prisma.evalStep.count({ where: { runId: row.id } });
  return evalRunViewSchema.parse({
    id: row.id,
    set: { id: row.snapshotId, name: row.setName, version: row.setVersion },
    endpoint: { id: row.endpointId, name: row.endpointName, model: row.model, coords: row.coords },
    rule: row.rule,
    maxPixels: row.maxPixels,
    state: row.state,
    progress: { done, total: row.progressTotal },
    tokens: { prompt: row.promptTokens, completion: row.completionTokens },
    error: readStoredError(row.error).error,
    figures: row.figuresJson ? evalFiguresSchema.parse(JSON.parse(row.figuresJson)) : null,
    createdBy: row.createdByLabel,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  });
}

/** Read a set's members in order, a page at a time. */
async function* membersOf(prisma: Db, snapshotId: string): AsyncGenerator<{ position: number; trajectory: CanonicalTrajectory }> {
  for (let position = 0; ; position += PAGE) {
    const page = await prisma.snapshotMember.findMany({
      where: { snapshotId, position: { gte: position, lt: position + PAGE } },
      orderBy: { position: "asc" },
    });
    if (page.length === 0) return;
    for (const m of page) yield { position: m.position, trajectory: { ...recordOf(m.canonicalJson, m.trajectoryId), id: m.trajectoryId } };
  }
}

async function frameOf(prisma: Db, row: Pick<RunRow, "snapshotId" | "maxPixels" | "coords">): Promise<EvalFrame> {
  const all: CanonicalTrajectory[] = [];
  for await (const m of membersOf(prisma, row.snapshotId)) all.push(m.trajectory);
  return { maxPixels: row.maxPixels, coords: row.coords as CoordinateConvention, actionSpace: actionSpaceOf(all) };
}

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

// ── The runner ───────────────────────────────────────────────────────────────────────────────────

function launch(prisma: Db, id: string) {
  void runJob(EVAL_JOBS, prisma, id, (job) => run(prisma, id, job.signal, job.runnerId), { abortWhenLost: true })?.catch((e: unknown) =>
    console.error(`evaluation run ${id} stopped with an error`, e),
  );
}

/** The request for one step: the mobile_use system prompt, the instruction and ground-truth history, the screenshot. */
async function messagesFor(sample: EvalSample, mime: string): Promise<ChatMessage[]> {
  const image = await screenshotDataUrl(sample.step.screenshot.sha256, mime);
  return [
    { role: "system", content: sample.system },
    {
      role: "user",
      content: [
        { type: "text", text: sample.userText },
        { type: "image_url", image_url: { url: image } },
      ],
    },
  ];
}

async function run(prisma: Db, id: string, signal: AbortSignal, me: string): Promise<void> {
  const row = await prisma.evalRun.findUnique({ where: { id } });
  if (!row || row.state !== "running") return;
  const endpoint = await prisma.evalEndpoint.findUnique({ where: { id: row.endpointId } });
  if (!endpoint) {
    await finish(prisma, id, me, "failed", storeMessage({ key: "error.evalEndpointMissing", vars: { name: row.endpointName } }));
    return;
  }
  const config = endpointConfig(endpoint);
  const frame = await frameOf(prisma, row);
  const rule = row.rule as RewardRule;
  const answered = new Set(
    (await prisma.evalStep.findMany({ where: { runId: id }, select: { trajectoryId: true, stepIndex: true } })).map(
      (s) => `${s.trajectoryId}#${s.stepIndex}`,
    ),
  );
  const queue: { position: number; trajectory: CanonicalTrajectory; sample: EvalSample }[] = [];
  for await (const m of membersOf(prisma, row.snapshotId)) {
    for (const s of evalSamples(m.trajectory, frame))
      if (s.ok && !answered.has(`${m.trajectory.id}#${s.sample.step.index}`)) queue.push({ ...m, sample: s.sample });
  }
  const mimes = new Map(
    (
      await prisma.screenshot.findMany({
        where: { sha256: { in: [...new Set(queue.map((q) => q.sample.step.screenshot.sha256))] } },
        select: { sha256: true, mime: true },
      })
    ).map((s) => [s.sha256, s.mime]),
  );

  const stillMine = async () => {
    const r = await prisma.evalRun.findUnique({ where: { id }, select: { state: true, runnerId: true } });
    return !!r && r.state === "running" && r.runnerId === me;
  };

  const work = async (item: (typeof queue)[number], { signal: callSignal }: PoolItem) => {
    const { sample, trajectory } = item;
    const mime = mimes.get(sample.step.screenshot.sha256);
    if (mime === undefined) throw appError("not_found", "error.screenshotMissing", { id: sample.step.screenshot.sha256 });
    const answer = await chat(config, () => messagesFor(sample, mime), {
      caller: { jobId: id },
      maxTokens: ANSWER_TOKENS,
      signal: callSignal,
    });
    if (callSignal.aborted) return;
    const r = rewardFor(rule, answer.text, sample.groundTruth);
    // A harmful step the model does not repeat is no failure: only non-harmful steps are named.
    const failure = sample.annotation === "HARMFUL" ? null : failureKind(r, sample.groundTruth, answer.text);
    const predicted = answerCallInOriginal(answer.text, frame.coords, sample.frames);
    await prisma.$transaction([
      prisma.evalStep.upsert({
        where: { runId_trajectoryId_stepIndex: { runId: id, trajectoryId: trajectory.id!, stepIndex: sample.step.index } },
        create: {
          runId: id,
          trajectoryId: trajectory.id!,
          stepIndex: sample.step.index,
          position: item.position,
          app: trajectory.app,
          gtAction: sample.groundTruth.gt_action.action,
          predictedAction: predicted?.action ?? null,
          response: answer.text,
          extractMatch: r.extractMatch,
          typeMatch: r.typeMatch,
          hit: r.hit,
          failure,
          promptTokens: answer.promptTokens,
          completionTokens: answer.completionTokens,
        },
        update: {},
      }),
      prisma.evalRun.update({
        where: { id },
        data: { promptTokens: { increment: answer.promptTokens }, completionTokens: { increment: answer.completionTokens } },
      }),
    ]);
  };

  const stopped = await workThrough({ queue, concurrency: config.concurrency, signal, stillMine, work });
  if (stopped) return finish(prisma, id, me, "failed", stopped);
  if (!(await stillMine())) return;
  const missing = row.progressTotal - (await prisma.evalStep.count({ where: { runId: id } }));
  if (missing > 0) {
    // Some calls failed (fewer than the stop rule's count in a row): the run can be resumed for them.
    return finish(prisma, id, me, "failed", storeMessage({ key: "error.evalRunUnanswered", vars: { n: missing } }));
  }
  try {
    const figures = await computeFigures(prisma, row, frame);
    await writePredictions(prisma, id);
    await finish(prisma, id, me, "succeeded", null, figures);
  } catch (e) {
    console.error(`evaluation run ${id}: figures failed`, e);
    await finish(prisma, id, me, "failed", storeMessage(storedMessageOf(e, "job.modelFailed")));
  }
}

async function finish(prisma: Db, id: string, me: string, state: "succeeded" | "failed", error: string | null, figures?: EvalFigures) {
  const { count } = await prisma.evalRun.updateMany({
    where: { id, state: "running", runnerId: me },
    data: { state, error, ...(figures ? { figuresJson: JSON.stringify(figures) } : {}), ...ended() },
  });
  if (count === 1)
    await audit(prisma, EVAL_JOBS, id, SYSTEM_ACTOR, state === "succeeded" ? "finish" : "fail", undefined, {
      state,
      error: readStoredError(error).error,
      ...(figures ? { stepAccuracy: figures.accuracy.stepAccuracy, sopSuccessRate: figures.sop.successRate } : {}),
    });
}

/** The run's answers by trajectory and step index. */
async function responsesOf(prisma: Db, runId: string): Promise<Map<string, Map<number, string>>> {
  const out = new Map<string, Map<number, string>>();
  const rows = await prisma.evalStep.findMany({ where: { runId }, select: { trajectoryId: true, stepIndex: true, response: true } });
  for (const r of rows) {
    const m = out.get(r.trajectoryId) ?? new Map<number, string>();
    out.set(r.trajectoryId, m);
    m.set(r.stepIndex, r.response);
  }
  return out;
}

/** The figures of a run's stored answers over its set (EvalTally: `bridge score`'s arithmetic). */
async function computeFigures(prisma: Db, row: RunRow, frame: EvalFrame): Promise<EvalFigures> {
  const tally = new EvalTally({ ...frame, rule: row.rule as RewardRule });
  const responses = await responsesOf(prisma, row.id);
  for await (const m of membersOf(prisma, row.snapshotId)) {
    const t = m.trajectory;
    tally.add(t, evalSamples(t, frame), responses.get(t.id!) ?? new Map());
  }
  return tally.figures();
}

/** Where a run's predictions file is kept: `<data>/eval/<run id>/predictions.jsonl`. */
export function predictionsPath(runId: string): string {
  return path.join(dataDir(), "eval", runId, "predictions.jsonl");
}

/**
 * The run's answers as the predictions file `bridge score` reads (one line per answered step, in the set's
 * order): {"trajectory": id, "step": index, "response": text}. Written beside the data, renamed into place.
 */
export async function writePredictions(prisma: Db, runId: string, file = predictionsPath(runId)): Promise<string> {
  const rows = await prisma.evalStep.findMany({
    where: { runId },
    orderBy: [{ position: "asc" }, { stepIndex: "asc" }],
    select: { trajectoryId: true, stepIndex: true, response: true },
  });
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.partial`;
  await writeFile(
    tmp,
    rows.map((r) => `${JSON.stringify({ trajectory: r.trajectoryId, step: r.stepIndex, response: r.response })}\n`).join(""),
  );
  await rename(tmp, file);
  return file;
}

// ── Failures and comparison ──────────────────────────────────────────────────────────────────────

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

/**
 * Two finished runs on the same set version: every headline figure with b - a (regressions first), and the
 * steps one matched and the other did not (b's regressions first).
 */
export async function compareEvalRuns(
  { caller, a, b }: { caller: Caller; a: string; b: string },
  prisma: Db = defaultDb(),
): Promise<EvalCompare> {
  const [va, vb] = [await getEvalRun({ caller, id: a }, prisma), await getEvalRun({ caller, id: b }, prisma)];
  if (va.set.id !== vb.set.id)
    throw appError("unprocessable", "error.evalCompareSets", {
      a: `${va.set.name} v${va.set.version}`,
      b: `${vb.set.name} v${vb.set.version}`,
    });
  if (!va.figures || !vb.figures) throw appError("conflict", "error.evalRunUnfinished", { id: va.figures ? b : a });
  const steps = async (runId: string) =>
    new Map(
      (
        await prisma.evalStep.findMany({
          where: { runId },
          select: { trajectoryId: true, stepIndex: true, extractMatch: true, app: true, gtAction: true, position: true },
        })
      ).map((s) => [`${s.trajectoryId}#${s.stepIndex}`, s]),
    );
  const [sa, sb] = [await steps(a), await steps(b)];
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

// ── Sending failures to people ───────────────────────────────────────────────────────────────────

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
