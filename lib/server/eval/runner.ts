import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  answerCallInOriginal,
  EvalTally,
  evalSamples,
  failureKind,
  type EvalFigures,
  type EvalFrame,
  type EvalSample,
} from "@/lib/domain/eval";
import { LIMITS } from "@/lib/domain/limits";
import { rewardFor, type RewardRule } from "@/lib/domain/rewards";
import type { CanonicalTrajectory } from "@/lib/domain/trajectory";
import { SYSTEM_ACTOR } from "../people";
import { dataDir } from "../env";
import type { Db } from "../db";
import { appError, readStoredError, storeMessage, storedMessageOf } from "../errors";
import { audit, defineJobKind, ended, runJob, type JobWhere } from "../jobs";
import { chat, type ChatMessage, JOB_HEARTBEAT_MS, JOB_STALE_MS, workThrough, type PoolItem, screenshotDataUrl } from "../model";
import { endpointConfig } from "./endpoints";
import { frameOf, membersOf, type RunRow } from "./run-data";

// The runner of evaluation runs (index.ts): the job kind, the answers asked step by step, the figures and
// the predictions file written when every step is answered.

/** The most tokens an answer may take: a thought, an action and one tool call. */
const ANSWER_TOKENS = 1_024;

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

export function launch(prisma: Db, id: string) {
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
    // Kept, scored and listed as the suggestions keep theirs: cut at LIMITS.modelAnswer characters.
    const text = answer.text.slice(0, LIMITS.modelAnswer);
    const r = rewardFor(rule, text, sample.groundTruth);
    // A harmful step the model does not repeat is no failure: only non-harmful steps are named.
    const failure = sample.annotation === "HARMFUL" ? null : failureKind(r, sample.groundTruth, text);
    const predicted = answerCallInOriginal(text, frame.coords, sample.frames);
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
          response: text,
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

  // Counted for the run page ("3 failed calls"); the step stays unanswered and is asked again on resume.
  const failed = async () => void (await prisma.evalRun.update({ where: { id }, data: { failedCalls: { increment: 1 } } }));
  const stopped = await workThrough({ queue, concurrency: config.concurrency, signal, stillMine, work, failed });
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
