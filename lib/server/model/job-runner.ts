import { truncate } from "@/lib/domain/limits";
import type { PrefillSkipReason } from "@/lib/domain/model";
import { SYSTEM_ACTOR, type AuditActor } from "../people";
import type { Db } from "../db";
import { AppError, readStoredError, storedMessageOf, storeMessage } from "../errors";
import { audit, defineJobKind, ended, runJob, stillHeld, type JobWhere } from "../jobs";
import { judgeTrajectory } from "./judge";
import { modelConfig, type ModelConfig } from "./settings";
import { workThrough } from "./pool";
import { prefillStep, type ItemResult } from "./prefill";
import { env } from "../env";

// The runner of model jobs (jobs.ts): the job kind, and the work through a job's items in this process.

export const JOB_HEARTBEAT_MS = 5_000;
export const JOB_STALE_MS = env().STUDIO_JOB_STALE_MS ?? 30_000;
export type JobRow = Awaited<ReturnType<Db["modelJob"]["findFirstOrThrow"]>>;

/**
 * Model jobs (prefill and judge) as a kind of the jobs module (lib/server/jobs): a job whose process is
 * gone is taken over and goes on here; pause, resume and cancel apply. A paused job finishes the item in
 * flight (its answers may still be written); a cancelled one does not.
 */
export const MODEL_JOBS = defineJobKind<JobRow>({
  name: "model",
  audit: { prefix: "model.job", entityType: "model-job" },
  table: (db) => ({
    running: () => db.modelJob.findMany({ where: { state: "running" } }),
    get: (id) => db.modelJob.findUnique({ where: { id } }),
    update: async (where: JobWhere, data) => (await db.modelJob.updateMany({ where, data })).count,
  }),
  heartbeatMs: JOB_HEARTBEAT_MS,
  staleMs: JOB_STALE_MS,
  liveStates: ["running", "paused"],
  whenGone: { takeOver: true },
  resume: (db, id) => launch(db, id),
  // A failed item is tried again on resume.
  commands: {
    beforeResume: async (db, id) => {
      await db.modelJobItem.deleteMany({ where: { jobId: id, result: "failed" } });
    },
  },
});

/**
 * Run `write` in one transaction only while the job is still this process's and not cancelled: the
 * first statement touches the job's row, so on PostgreSQL a cancel waits for this transaction (and
 * one already committed makes it write nothing); SQLite serialises writers anyway. Null: discarded.
 */
class Discarded extends Error {}

async function whileJobAlive<T>(prisma: Db, jobId: string, write: (tx: Db) => Promise<T>): Promise<T | null> {
  try {
    return await prisma.$transaction(async (tx) => {
      if (!(await stillHeld(MODEL_JOBS, tx, jobId))) throw new Discarded("the job was cancelled while the model answered");
      return write(tx as unknown as Db);
    });
  } catch (e) {
    if (e instanceof Discarded) return null;
    throw e;
  }
}

/** What a job works on, as stored in its row. */
export type Selection = { trajectoryIds: string[]; includeSubmittedAndApproved?: boolean };

export function launch(prisma: Db, id: string) {
  void runJob(MODEL_JOBS, prisma, id, (job) => run(prisma, id, job.signal, job.runnerId), { abortWhenLost: true })?.catch((e: unknown) =>
    console.error(`model job ${id} stopped with an error`, e),
  );
}

/** The items still to do, in a stable order: steps (prefill) or trajectories (judge) without a row. */
async function pendingItems(prisma: Db, row: JobRow): Promise<string[]> {
  const { trajectoryIds } = JSON.parse(row.selectionJson) as Selection;
  const finished = new Set(
    (await prisma.modelJobItem.findMany({ where: { jobId: row.id }, select: { itemId: true } })).map((i) => i.itemId),
  );
  if (row.kind === "judge") return trajectoryIds.filter((t) => !finished.has(t));
  const order = new Map(trajectoryIds.map((t, i) => [t, i]));
  const steps = await prisma.step.findMany({
    where: { trajectoryId: { in: trajectoryIds } },
    select: { id: true, trajectoryId: true, index: true },
  });
  steps.sort((a, b) => order.get(a.trajectoryId)! - order.get(b.trajectoryId)! || a.index - b.index);
  return steps.filter((s) => !finished.has(s.id)).map((s) => s.id);
}

/**
 * Work through the job's items here. `signal` is the jobs module's: aborted when the job is cancelled
 * (here at once, from another process at the next heartbeat) or no longer this runner's.
 */
async function run(prisma: Db, id: string, signal: AbortSignal, me: string): Promise<void> {
  let row = await prisma.modelJob.findUnique({ where: { id } });
  if (!row || row.state !== "running") return;
  let config: ModelConfig;
  try {
    config = await modelConfig(prisma);
  } catch (e) {
    await finish(prisma, id, me, "failed", storeMessage(storedMessageOf(e, "job.modelFailed")));
    return;
  }
  const actor: AuditActor = { id: null, label: `model-job:${id}` };
  const include = (JSON.parse(row.selectionJson) as Selection).includeSubmittedAndApproved ?? false;
  const queue = await pendingItems(prisma, row);
  const stillMine = async () => {
    row = await prisma.modelJob.findUnique({ where: { id } });
    return !!row && row.state === "running" && row.runnerId === me;
  };
  const record = (itemId: string, result: "done" | "skipped" | "failed", detail?: string) =>
    prisma.modelJobItem.upsert({
      where: { jobId_itemId: { jobId: id, itemId } },
      create: { jobId: id, itemId, result, detail: detail ? truncate(detail, 1_000) : null },
      update: {},
    });
  const addTokens = (p: number, c: number) =>
    prisma.modelJob.update({ where: { id }, data: { promptTokens: { increment: p }, completionTokens: { increment: c } } });

  const stopped = await workThrough({
    queue,
    concurrency: config.concurrency,
    signal,
    stillMine,
    work: async (itemId, { signal: callSignal, isCancelled }) => {
      const tokens =
        row!.kind === "prefill"
          ? await prefillStep(prisma, config, {
              jobId: id,
              stepId: itemId,
              actor,
              include,
              signal: callSignal,
              guard: (write) => whileJobAlive(prisma, id, write),
            })
          : await judgeItem(prisma, config, id, itemId, callSignal);
      // Cancelled while the model answered: the answer was discarded, and nothing more is written.
      // A write that landed before the stop rule fired is recorded (it happened); one after a cancel never does.
      if (tokens === null || isCancelled()) return;
      await addTokens(tokens.prompt, tokens.completion);
      await record(itemId, tokens.skipped ? "skipped" : "done", tokens.skipped ?? undefined);
    },
    failed: async (itemId, e) => {
      const details = e instanceof AppError ? (e.details as { tokens?: { prompt: number; completion: number } } | undefined) : undefined;
      if (details?.tokens) await addTokens(details.tokens.prompt, details.tokens.completion);
      await record(itemId, "failed", (e as Error).message);
    },
  });
  if (stopped) return finish(prisma, id, me, "failed", stopped);
  if (queue.length === 0 && (await stillMine())) await finish(prisma, id, me, "succeeded", null);
}

async function finish(prisma: Db, id: string, me: string, state: "succeeded" | "failed", error: string | null) {
  const { count } = await prisma.modelJob.updateMany({
    where: { id, state: "running", runnerId: me },
    data: { state, error, ...ended() },
  });
  if (count === 1)
    await audit(prisma, MODEL_JOBS, id, SYSTEM_ACTOR, state === "succeeded" ? "finish" : "fail", undefined, {
      state,
      error: readStoredError(error).error,
    });
}

async function judgeItem(
  prisma: Db,
  config: ModelConfig,
  jobId: string,
  trajectoryId: string,
  signal: AbortSignal,
): Promise<ItemResult | null> {
  const exists = await prisma.trajectory.count({ where: { id: trajectoryId } });
  if (!exists) return { prompt: 0, completion: 0, skipped: "gone" satisfies PrefillSkipReason };
  const r = await judgeTrajectory(config, trajectoryId, jobId, prisma, {
    caller: { jobId },
    signal,
    guard: (write) => whileJobAlive(prisma, jobId, write),
  });
  if (r.verdict === null) return null;
  return { prompt: r.promptTokens, completion: r.completionTokens };
}
