import { truncate } from "@/lib/domain/limits";
import {
  PREFILL_SKIP_REASONS,
  modelJobViewSchema,
  startModelJobInput,
  type ModelJobCommand,
  type ModelJobView,
  type StartModelJobInput,
} from "@/lib/domain/model";
import type { Actor } from "@/lib/domain/permissions";
import { recordAudit, auditActor, authorize } from "../people";
import { db as defaultDb, type Db } from "../db";
import { appError, readStoredError } from "../errors";
import { claimed, commandJob, recoverJobs, settleJobs, waitForJob } from "../jobs";
import { REVIEWED_WHERE } from "./judge";
import { launch, MODEL_JOBS, type JobRow, type Selection } from "./job-runner";
import { prefillMatching } from "./prefill";
import { PROMPTS } from "./prompt-files";
import { modelConfig } from "./settings";

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

export { JOB_HEARTBEAT_MS, JOB_STALE_MS, MODEL_JOBS } from "./job-runner";
export { MAX_MATCHING_TRAJECTORIES } from "./prefill";
/** The stop rule (failures in a row) is the model pool's, shared with evaluation runs. */
export { MAX_FAILURES_IN_ROW } from "./pool";

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
