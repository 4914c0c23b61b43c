import { truncate } from "@/lib/domain/limits";
import {
  PREFILL_FIELDS,
  PREFILL_SKIP_REASONS,
  prefillDecision,
  modelJobViewSchema,
  startModelJobInput,
  type ModelJobCommand,
  type ModelJobView,
  type PrefillSkipReason,
  type StartModelJobInput,
} from "@/lib/domain/model";
import type { Actor } from "@/lib/domain/permissions";
import { HANDED_IN_STATUSES, isHandedIn, taskStatusSchema } from "@/lib/domain/status";
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from "../people/audit";
import { db as defaultDb, type Db } from "../db";
import { AppError, appError } from "../http/errors";
import {
  audit,
  claimed,
  commandJob,
  defineJobKind,
  ended,
  recoverJobs,
  runJob,
  settleJobs,
  stillHeld,
  waitForJob,
  type JobWhere,
} from "../jobs";
import { judgeTrajectory, REVIEWED_WHERE } from "./judge";
import { modelConfig, PROMPTS, type ModelConfig } from "./index";
import { workThrough } from "./pool";
import { storedProvenance } from "../annotate/provenance";
import { fromStore } from "../http/stored";
import { askThought } from "./suggest";
import { auditActor, authorize } from "../fast/session";
import { stepFromRow } from "../annotate/trajectories";
import { env } from "../env";
import { readStoredError, storedMessageOf, storeMessage } from "../http/stored-message";

/**
 * Background model jobs, recorded in the database (ModelJob, with one ModelJobItem per finished
 * step or trajectory):
 * - prefill: batch pre-annotation. For the selected trajectories, every step no person wrote (decided
 *   from its provenance by `prefillDecision`, never from its version) gets a suggested thought
 *   written into its fields, marked `prefilled`. Submitted and approved trajectories are left alone
 *   unless the admin included them, and even then a thought a person wrote is never replaced. The
 *   write is conditional on the step and its trajectory being as they were read, in one transaction
 *   with its audit row, so a person's edit is never overwritten, even one landing mid-job. Each step
 *   left alone is recorded with its reason (PREFILL_SKIP_REASONS), and the job's view counts them.
 * - judge: the trajectory judge over reviewed trajectories (lib/server/model/judge.ts).
 * Pause, resume and cancel are state changes the runner reads before each item. A job whose process
 * died (restart, kill) is taken over by the next studio process that looks (at start-up, or when the
 * jobs are listed): finished items have rows, so nothing is asked twice except the one in flight.
 */

export const JOB_HEARTBEAT_MS = 5_000;
export const JOB_STALE_MS = env().STUDIO_JOB_STALE_MS ?? 30_000;
/** The stop rule (failures in a row) is the model pool's, shared with evaluation runs. */
export { MAX_FAILURES_IN_ROW } from "./pool";

type JobRow = Awaited<ReturnType<Db["modelJob"]["findFirstOrThrow"]>>;

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
type Selection = { trajectoryIds: string[]; includeSubmittedAndApproved?: boolean };

async function view(prisma: Db, row: JobRow): Promise<ModelJobView> {
  const counts = await prisma.modelJobItem.groupBy({ by: ["result"], where: { jobId: row.id }, _count: { _all: true } });
  const n = (r: string) => counts.find((c) => c.result === r)?._count._all ?? 0;
  const reasons = await prisma.modelJobItem.groupBy({
    by: ["detail"],
    where: { jobId: row.id, result: "skipped", detail: { in: [...PREFILL_SKIP_REASONS] } },
    _count: { _all: true },
  });
  const selection = JSON.parse(row.selectionJson) as Selection;
  return modelJobViewSchema.parse({
    id: row.id,
    kind: row.kind,
    state: row.state,
    prompt: row.prompt,
    model: row.model,
    createdBy: row.createdByLabel,
    trajectories: selection.trajectoryIds.length,
    progress: { done: n("done") + n("skipped") + n("failed"), total: row.progressTotal },
    skipped: n("skipped"),
    skippedBy: Object.fromEntries(reasons.map((r) => [r.detail, r._count._all])),
    includesSubmittedAndApproved: selection.includeSubmittedAndApproved ?? false,
    failures: n("failed"),
    tokens: { prompt: row.promptTokens, completion: row.completionTokens },
    ...readStoredError(row.error),
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  });
}

/** Start a job: prefill over the given trajectories, or the judge over them (none given: every reviewed one). */
export async function startModelJob(
  { actor, ...raw }: { actor: Actor } & StartModelJobInput,
  prisma: Db = defaultDb(),
): Promise<ModelJobView> {
  authorize(actor, "model.manage");
  const input = startModelJobInput.parse(raw);
  const config = await modelConfig(prisma);
  const ids = [...new Set(input.trajectoryIds)];
  let trajectoryIds: string[];
  const include = input.kind === "prefill" && input.includeSubmittedAndApproved;
  if (input.matching) {
    trajectoryIds = await prefillMatching(prisma, input.matching, include);
  } else if (input.kind === "judge" && ids.length === 0) {
    trajectoryIds = (await prisma.trajectory.findMany({ where: REVIEWED_WHERE, select: { id: true }, orderBy: { id: "asc" } })).map(
      (t) => t.id,
    );
  } else {
    const found = await prisma.trajectory.findMany({ where: { id: { in: ids } }, select: { id: true } });
    const missing = ids.filter((id) => !found.some((f) => f.id === id));
    if (missing.length)
      throw appError("unprocessable", "error.jobNoTrajectory", {
        ids: `${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` (+${missing.length - 5})` : ""}`,
      });
    trajectoryIds = ids;
  }
  if (trajectoryIds.length === 0)
    throw input.kind === "prefill" && input.matching
      ? appError("unprocessable", include ? "model.prefill.noneMatchingIncluded" : "model.prefill.noneMatching")
      : appError("unprocessable", input.kind === "judge" ? "error.jobNothingToJudge" : "error.jobChooseTrajectory");
  const total =
    input.kind === "prefill" ? await prisma.step.count({ where: { trajectoryId: { in: trajectoryIds } } }) : trajectoryIds.length;
  const row = await prisma.$transaction(async (tx) => {
    const created = await tx.modelJob.create({
      data: {
        kind: input.kind,
        state: "running",
        selectionJson: JSON.stringify({ trajectoryIds, ...(include ? { includeSubmittedAndApproved: true } : {}) } satisfies Selection),
        prompt: input.kind === "prefill" ? PROMPTS.thought : PROMPTS.judge,
        model: config.model,
        createdById: actor.id,
        createdByLabel: truncate(actor.email),
        ...claimed(),
        progressTotal: total,
      },
    });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: `model.${input.kind}.start`,
      entityType: "model-job",
      entityId: created.id,
      after: {
        trajectories: trajectoryIds.length,
        total,
        prompt: created.prompt,
        model: config.model,
        ...(include ? { includeSubmittedAndApproved: true } : {}),
      },
    });
    return created;
  });
  launch(prisma, row.id);
  return view(prisma, row);
}

/** At most this many trajectories in one job started from the list's filters. */
export const MAX_MATCHING_TRAJECTORIES = 10_000;

/** Trajectories read at a time while looking for ones a job started from the list's filters may work on. */
const MATCHING_PAGE = 500;

/**
 * The trajectories matching the list's filters (the same fields the list page keeps in its URL) that
 * have a step the job may write (`prefillDecision`: by default a step no person wrote, in a trajectory
 * not submitted or approved), in the list's order.
 */
async function prefillMatching(prisma: Db, f: NonNullable<StartModelJobInput["matching"]>, include: boolean): Promise<string[]> {
  const assignee = f.assignee?.trim().toLowerCase();
  const where = {
    ...(f.project ? { project: { name: f.project } } : {}),
    ...(f.app ? { app: f.app } : {}),
    ...(f.status ? { status: f.status } : {}),
    ...(f.q ? { instruction: { contains: f.q } } : {}),
    ...(assignee === "none" ? { assigneeId: null } : assignee ? { assignee: { email: assignee } } : {}),
    // Handed-in work is never a candidate unless included: no need to read its steps.
    ...(include ? {} : { NOT: { status: { in: [...HANDED_IN_STATUSES] } } }),
  };
  const found: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await prisma.trajectory.findMany({
      where,
      select: { id: true, status: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: MATCHING_PAGE,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    });
    if (page.length === 0) return found;
    cursor = page[page.length - 1]!.id;
    const handedIn = new Map(page.map((t) => [t.id, isHandedIn(fromStore(taskStatusSchema, t.status, `status of trajectory ${t.id}`))]));
    const steps = await prisma.step.findMany({
      where: { trajectoryId: { in: page.map((t) => t.id) } },
      select: { trajectoryId: true, provenanceJson: true },
    });
    // A trajectory matches while it has a step whose thought nobody wrote yet, neither a person nor an earlier
    // job (a job's thought may be asked again, but only for work an admin selects, never by filter).
    const writable = new Set(
      steps
        .filter((s) => {
          const prov = storedProvenance(s.provenanceJson);
          const decision = prefillDecision(prov, { isHandedIn: handedIn.get(s.trajectoryId)!, includePeoplesWork: include });
          return decision.write && prov !== null && PREFILL_FIELDS.every((f) => prov[f] === undefined);
        })
        .map((s) => s.trajectoryId),
    );
    found.push(...page.filter((t) => writable.has(t.id)).map((t) => t.id));
    if (found.length > MAX_MATCHING_TRAJECTORIES)
      throw appError("unprocessable", "error.jobTooManyMatch", { n: MAX_MATCHING_TRAJECTORIES });
  }
}

/**
 * Pause, resume or cancel. Resuming runs the job in this process; cancelling keeps what was written.
 * A paused or failed job can be resumed: the same job row goes on with the items not yet done (the
 * failed ones and those never asked). A cancelled or finished one cannot.
 */
export async function commandModelJob(
  { actor, id, command }: { actor: Actor; id: string; command: ModelJobCommand },
  prisma: Db = defaultDb(),
): Promise<ModelJobView> {
  authorize(actor, "model.manage");
  const row = await prisma.modelJob.findUnique({ where: { id } });
  if (!row) throw appError("not_found", "error.modelJobMissing", { id });
  const done = await commandJob(MODEL_JOBS, prisma, { actor: auditActor(actor), row, command });
  if (!done.ok) {
    if (done.reason === "changed") throw appError("conflict", "error.modelJobChanged");
    const key = command === "pause" ? "error.jobCannotPause" : command === "resume" ? "error.jobCannotResume" : "error.jobCannotCancel";
    throw appError("conflict", key, { state: row.state });
  }
  return view(prisma, (await prisma.modelJob.findUnique({ where: { id } }))!);
}

/** Take over running jobs whose process is gone, and run them here. Safe from any process at any time. */
export async function recoverModelJobs(prisma: Db = defaultDb()): Promise<string[]> {
  return recoverJobs(MODEL_JOBS, prisma);
}

export async function listModelJobs({ actor }: { actor: Actor }, prisma: Db = defaultDb()): Promise<ModelJobView[]> {
  authorize(actor, "model.manage");
  await recoverModelJobs(prisma);
  const rows = await prisma.modelJob.findMany({ orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: 100 });
  return Promise.all(rows.map((r) => view(prisma, r)));
}

export async function getModelJob({ actor, id }: { actor: Actor; id: string }, prisma: Db = defaultDb()): Promise<ModelJobView> {
  authorize(actor, "model.manage");
  await recoverModelJobs(prisma);
  const row = await prisma.modelJob.findUnique({ where: { id } });
  if (!row) throw appError("not_found", "error.modelJobMissing", { id });
  return view(prisma, row);
}

/** Resolves when this process's run of the job stops (finished, paused, cancelled); for tests. */
export async function waitForModelJob(id: string): Promise<void> {
  await waitForJob(MODEL_JOBS, id);
}

/** Resolves when every job this process runs has stopped (for tests). */
export async function settleModelJobs(): Promise<void> {
  await settleJobs(MODEL_JOBS);
}

// ── The runner ───────────────────────────────────────────────────────────────────────────────────

function launch(prisma: Db, id: string) {
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
          ? await prefillStep(prisma, config, { jobId: id, stepId: itemId, actor, include, signal: callSignal })
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

type ItemResult = { prompt: number; completion: number; skipped?: string };

/**
 * Pre-annotate one step: decide from its provenance and its trajectory's status whether the job may
 * write its thought (`prefillDecision`), ask for one, then write it only if the step and its
 * trajectory are still as they were read, in one transaction with the suggestion row and the audit
 * row. A step a person saved in the meantime keeps the person's work (the suggestion is still
 * recorded, for them to accept if they like). A skipped step's detail is its PrefillSkipReason.
 */
async function prefillStep(
  prisma: Db,
  config: ModelConfig,
  { jobId, stepId, actor, include, signal }: { jobId: string; stepId: string; actor: AuditActor; include: boolean; signal: AbortSignal },
): Promise<ItemResult | null> {
  const skip = (reason: PrefillSkipReason, tokens = { prompt: 0, completion: 0 }): ItemResult => ({ ...tokens, skipped: reason });
  const step = await prisma.step.findUnique({ where: { id: stepId }, include: { screenshot: true, trajectory: true } });
  if (!step) return skip("gone");
  const status = fromStore(taskStatusSchema, step.trajectory.status, `status of trajectory ${step.trajectoryId}`);
  const prev = storedProvenance(step.provenanceJson);
  const decision = prefillDecision(prev, { isHandedIn: isHandedIn(status), includePeoplesWork: include });
  if (!decision.write) return skip(decision.reason);
  const before = await prisma.step.findMany({
    where: { trajectoryId: step.trajectoryId, index: { lt: step.index } },
    orderBy: { index: "asc" },
    include: { screenshot: true },
  });
  const asked = await askThought(
    config,
    { step, view: stepFromRow(step), history: before.map(stepFromRow), trajectory: step.trajectory },
    { caller: { jobId }, signal },
  );
  const out = asked.output as { state: string; nextAction: string; purpose: string; text: string };
  const tokens = { prompt: asked.promptTokens, completion: asked.completionTokens };
  return whileJobAlive(prisma, jobId, async (tx) => {
    const suggestion = await tx.stepSuggestion.create({
      data: {
        stepId,
        trajectoryId: step.trajectoryId,
        kind: "thought",
        origin: "batch",
        prompt: asked.prompt,
        model: asked.model,
        outputJson: JSON.stringify(out),
        rawText: asked.rawText.slice(0, 20_000),
        promptTokens: asked.promptTokens,
        completionTokens: asked.completionTokens,
        jobId,
      },
    });
    const at = new Date().toISOString();
    const mark = {
      source: "prefilled" as const,
      by: actor.label,
      suggestionId: suggestion.id,
      prompt: asked.prompt,
      model: asked.model,
      at,
    };
    // The other fields keep their entries (a person's clearAction, an earlier job's marks are replaced only on the thought).
    const written = Object.fromEntries(PREFILL_FIELDS.map((f) => [f, mark]));
    const provenance = { ...prev, ...written };
    // Written only if nothing changed since the decision: the step's version and provenance, and the
    // trajectory's status (a trajectory handed in meanwhile is left alone unless included).
    const { count } = await tx.step.updateMany({
      where: {
        id: stepId,
        version: step.version,
        provenanceJson: step.provenanceJson,
        trajectory: { is: include ? { status } : { status: { notIn: [...HANDED_IN_STATUSES] } } },
      },
      data: {
        thoughtState: out.state,
        thoughtNext: out.nextAction,
        thoughtPurpose: out.purpose,
        thought: out.text,
        provenanceJson: JSON.stringify(provenance),
        version: { increment: 1 },
      },
    });
    if (count !== 1) return skip("changed-meanwhile", tokens);
    await recordAudit(tx, {
      actor,
      action: "step.prefill",
      entityType: "step",
      entityId: stepId,
      before: {
        thought: { state: step.thoughtState, nextAction: step.thoughtNext, purpose: step.thoughtPurpose, text: step.thought },
        version: step.version,
      },
      after: { thought: out, provenance: written, version: step.version + 1, jobId },
    });
    return tokens;
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
