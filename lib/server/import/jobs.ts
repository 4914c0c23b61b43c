// Imports as jobs a person can follow. The request that uploads the files only receives them (that is
// the upload's own progress bar); the import then runs in the background and says its phase and counts
// in an ImportJob row, which any studio process sharing the database can report. The command line runs
// the same job in its own process, so its imports are listed beside the web's.
import { rm } from "node:fs/promises";
import { truncate } from "@/lib/domain/limits";
import { z } from "zod";
import {
  importJobSchema,
  importProblemSchema,
  otherProjectChoiceSchema,
  otherProjectCopiesSchema,
  type ImportJob,
  type OtherProjectChoice,
  type OtherProjectCopies,
} from "@/lib/domain/imports";
import type { CoordinateFrame, ImportFormat } from "@/lib/domain/import-formats";
import { type AuditActor, auditActor, authorizeCaller, type Caller } from "../people";
import { db as defaultDb, type Db } from "../db";
import { AppError, appError, diskFullOr, readStoredError, storedMessageOf, storeMessage } from "../errors";
import { DEFAULT_PROJECT, importFile, type ImportProgress, type ImportResult } from "./import-file";
import { claimed, defineJobKind, ended, isRunnerGone, recoverJobs, requiredColumnsWhere, runJob, waitForJob } from "../jobs";
import { importReceived, receiveUpload, type ReceivedUpload } from "./upload";
import { env } from "../env";

export const IMPORT_HEARTBEAT_MS = 5_000;
/** A running import not heard from for this long is taken as dead (another machine's, or a hung one). */
export const IMPORT_STALE_MS = env().STUDIO_JOB_STALE_MS ?? 30_000;

type JobRow = Awaited<ReturnType<Db["importJob"]["findFirstOrThrow"]>>;

/** Imports as a kind of the jobs module (lib/server/jobs): a job whose process is gone is failed, never taken over. */
export const IMPORT_JOBS = defineJobKind<JobRow, ImportProgress>({
  name: "import",
  audit: { prefix: "import", entityType: "import" },
  table: (db) => ({
    running: () => db.importJob.findMany({ where: { state: "running" } }),
    get: (id) => db.importJob.findUnique({ where: { id } }),
    update: async (where, data, progress) =>
      (await db.importJob.updateMany({ where: requiredColumnsWhere(where), data: { ...progress, ...data } })).count,
  }),
  heartbeatMs: IMPORT_HEARTBEAT_MS,
  staleMs: IMPORT_STALE_MS,
  liveStates: ["running"],
  whenGone: {
    fail: (row) => storeMessage({ key: "job.importStopped", vars: { heardAt: row.heartbeatAt.toISOString() } }),
  },
});

/**
 * The row's problemsJson: a refused import's problems (a list), or, for an import that met data
 * already in other projects, those projects' counts and what was chosen (an object). One text column
 * holds either, so the table needs no migration for the second.
 */
const storedNotes = z.union([
  z.array(importProblemSchema),
  z.object({ otherProjects: otherProjectCopiesSchema, onOtherProjects: otherProjectChoiceSchema }),
]);
const notesJson = (otherProjects: OtherProjectCopies, onOtherProjects: OtherProjectChoice) =>
  JSON.stringify({ otherProjects, onOtherProjects } satisfies z.infer<typeof storedNotes>);

function view(row: JobRow): ImportJob {
  const notes = storedNotes.parse(JSON.parse(row.problemsJson) as unknown);
  const isList = Array.isArray(notes);
  return importJobSchema.parse({
    id: row.id,
    state: row.state,
    fileName: row.fileName,
    format: row.format,
    project: row.project,
    createdBy: row.createdByLabel,
    phase: row.phase,
    lines: row.lines,
    trajectories: row.trajectories,
    steps: row.steps,
    duplicates: row.duplicates,
    screenshots: row.screenshots,
    batchId: row.batchId,
    problems: isList ? notes : [],
    problemCount: row.problemCount,
    otherProjects: isList ? [] : notes.otherProjects,
    onOtherProjects: isList ? "import" : notes.onOtherProjects,
    ...readStoredError(row.error),
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  });
}

type JobSpec = {
  file: string;
  format: ImportFormat;
  project?: string;
  frame?: CoordinateFrame;
  onOtherProjects?: OtherProjectChoice;
  screenshotsDir?: string;
  displayName: string;
  actor: AuditActor;
  /** Rewrites a problem's message before it is stored (an upload hides its temporary folder). */
  hide?: (message: string) => string;
};

/**
 * Record a running job and start importFile behind it. `run` is the import itself (importFile, or an
 * upload's importReceived, which also removes the upload); the returned promise settles with its
 * result once the row says how it ended.
 */
async function launch(
  prisma: Db,
  spec: JobSpec,
  run: (onProgress: (p: ImportProgress) => void) => Promise<ImportResult>,
): Promise<{ row: JobRow; done: Promise<ImportResult> }> {
  const row = await prisma.importJob.create({
    data: {
      state: "running",
      fileName: truncate(spec.displayName, 500),
      format: spec.format,
      project: spec.project ?? DEFAULT_PROJECT,
      createdById: spec.actor.id,
      createdByLabel: truncate(spec.actor.label),
      ...claimed(),
    },
  });
  const id = row.id;
  const done = runJob(IMPORT_JOBS, prisma, id, async (job) => {
    const finish = async (data: Parameters<Db["importJob"]["updateMany"]>[0]["data"]) => {
      await job.stop();
      await prisma.importJob
        .updateMany({ where: { id, runnerId: job.runnerId }, data: { ...data, ...ended() } })
        .catch((err: unknown) => console.error(`import ${id}: could not record how it ended`, err));
    };
    let result: ImportResult;
    try {
      result = await run(job.progressed);
    } catch (e) {
      // A full disk is said in words (the operator frees space); anything else unexpected is logged.
      const known = diskFullOr(e, { key: "error.diskFullImport" });
      const error = storeMessage(storedMessageOf(known, "job.importFailed"));
      if (!(e instanceof AppError)) console.error(`import ${id} failed`, e);
      await finish({ state: "failed", error });
      throw e;
    }
    if (result.ok) {
      await finish({
        state: "succeeded",
        phase: "committing",
        trajectories: result.trajectories,
        steps: result.steps,
        duplicates: result.duplicates,
        screenshots: result.screenshots,
        batchId: result.batchId,
        ...(result.otherProjects.length > 0 ? { problemsJson: notesJson(result.otherProjects, result.onOtherProjects) } : {}),
      });
    } else if (result.asked && result.problemCount === 0) {
      await finish({
        state: "asked",
        trajectories: result.trajectories,
        steps: result.steps,
        problemsJson: notesJson(result.asked, "ask"),
      });
    } else {
      const hide = spec.hide ?? ((m: string) => m);
      const problems = result.problems.map((p) => ({
        ...p,
        message: hide(p.message),
        ...(p.params
          ? { params: Object.fromEntries(Object.entries(p.params).map(([k, v]) => [k, typeof v === "string" ? hide(v) : v])) }
          : {}),
      }));
      await finish({
        state: "refused",
        trajectories: result.trajectories,
        steps: result.steps,
        problemsJson: JSON.stringify(problems),
        problemCount: result.problemCount,
      });
    }
    return result;
  });
  // A new row's id is never running here yet, so the run always starts.
  if (!done) throw new Error(`import ${id} is already running here`);
  // Settled either way; whoever started the job reads its outcome from `done` or from the row.
  void done.catch(() => undefined);
  return { row, done };
}

/**
 * POST /api/imports: receive the upload in this request, then import it in the background and answer
 * at once with the running job (poll getImportJob). A refused upload (too large, a broken zip, no
 * JSONL) is answered here with its error, and leaves no job.
 */
export async function startUploadImport(
  { actor: caller, req }: { actor: Caller; req: Request },
  opts: { db?: Db } = {},
): Promise<ImportJob> {
  authorizeCaller(caller, "import.run");
  const prisma = opts.db ?? defaultDb();
  const up: ReceivedUpload = await receiveUpload(req, caller);
  const spec: JobSpec = {
    file: up.file,
    format: up.format,
    project: up.project,
    frame: up.frame,
    onOtherProjects: up.onOtherProjects,
    displayName: up.displayName,
    actor: auditActor(caller),
    hide: up.hide,
  };
  let started: { row: JobRow; done: Promise<ImportResult> };
  try {
    started = await launch(prisma, spec, (onProgress) => importReceived(up, caller, { db: prisma, onProgress }));
  } catch (e) {
    await rm(up.work, { recursive: true, force: true });
    throw e;
  }
  // The request has its answer; the outcome is in the row (a failure is also logged by launch).
  void started.done.catch(() => undefined);
  return view(started.row);
}

/** The command line's import: the same job, run in this process and awaited. */
export async function runImportJob(
  opts: Omit<JobSpec, "displayName" | "actor"> & {
    displayName?: string;
    actor: AuditActor;
    db?: Db;
    onProgress?: (p: ImportProgress) => void;
  },
): Promise<ImportResult & { jobId: string }> {
  const prisma = opts.db ?? defaultDb();
  const displayName = opts.displayName ?? opts.file.split(/[\\/]/).pop() ?? opts.file;
  const { row, done } = await launch(prisma, { ...opts, displayName }, (onProgress) =>
    importFile({
      file: opts.file,
      format: opts.format,
      project: opts.project,
      frame: opts.frame,
      onOtherProjects: opts.onOtherProjects,
      screenshotsDir: opts.screenshotsDir,
      displayName,
      actor: opts.actor,
      db: prisma,
      onProgress: (p) => {
        onProgress(p);
        opts.onProgress?.(p);
      },
    }),
  );
  return { ...(await done), jobId: row.id };
}

/**
 * Mark running imports whose process is gone (restart, kill, another machine gone quiet) as failed,
 * with an audit row. Their staged rows are removed by sweepAbandonedImports; nothing of them was
 * ever visible. Safe from any process at any time: each job is failed once.
 */
export async function recoverImportJobs(opts: { db?: Db } = {}): Promise<{ failed: string[] }> {
  return { failed: await recoverJobs(IMPORT_JOBS, opts.db ?? defaultDb()) };
}

/** The most recent imports, newest first, in every state (running ones with their progress). */
export async function listImportJobs(
  { actor, limit = 20 }: { actor: Caller; limit?: number },
  opts: { db?: Db } = {},
): Promise<ImportJob[]> {
  authorizeCaller(actor, "import.run");
  const prisma = opts.db ?? defaultDb();
  await recoverImportJobs({ db: prisma });
  const rows = await prisma.importJob.findMany({ orderBy: { startedAt: "desc" }, take: Math.min(Math.max(limit, 1), 100) });
  return rows.map(view);
}

/**
 * Trajectories that came in through no import job: the demo seed's (it runs the import directly).
 * Read from the batches' own counts, a handful of rows, never from the trajectories.
 */
export async function seededTrajectories({ actor }: { actor: Caller }, opts: { db?: Db } = {}): Promise<number> {
  authorizeCaller(actor, "import.run");
  const prisma = opts.db ?? defaultDb();
  const [batches, jobs] = await Promise.all([
    prisma.importBatch.findMany({ where: { status: "succeeded" }, select: { id: true, trajectories: true } }),
    prisma.importJob.findMany({ where: { batchId: { not: null } }, select: { batchId: true } }),
  ]);
  const byJob = new Set(jobs.map((j) => j.batchId));
  return batches.filter((b) => !byJob.has(b.id)).reduce((n, b) => n + b.trajectories, 0);
}

export async function getImportJob({ actor, id }: { actor: Caller; id: string }, opts: { db?: Db } = {}): Promise<ImportJob> {
  authorizeCaller(actor, "import.run");
  const prisma = opts.db ?? defaultDb();
  let row = await prisma.importJob.findUnique({ where: { id } });
  if (!row) throw appError("not_found", "error.importMissing", { id });
  if (row.state === "running" && isRunnerGone(IMPORT_JOBS, row, Date.now())) {
    await recoverImportJobs({ db: prisma });
    row = await prisma.importJob.findUniqueOrThrow({ where: { id } });
  }
  return view(row);
}

/** Wait for an import this process runs (tests, and a server draining before it stops). */
export async function waitForImportJob(id: string): Promise<void> {
  await waitForJob(IMPORT_JOBS, id);
}
