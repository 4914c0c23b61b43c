import { randomBytes } from "node:crypto";
import { trainerHintsSchema } from "@/lib/domain/trainer-hints";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { exportCountsSchema, type ExportItem, type StartExport } from "@/lib/domain/exports";
import { truncate } from "@/lib/domain/limits";
import { CLI_ACTOR, type AuditActor } from "../people/audit";
import { dataDir } from "../config";
import {
  claimed,
  defineJobKind,
  ended,
  recoverJobs,
  requiredColumnsWhere,
  reserve,
  runJob,
  runnerId as jobRunnerId,
  settleJobs,
  waitForJob,
} from "../jobs";
import { db as defaultDb, type Db } from "../db";
import { AppError, appError, diskFullOr } from "../http/errors";
import { readStoredError, storedMessageOf, storeMessage } from "../http/stored-message";
import { EXPORT_STATUSES, exportDataset, type ExportStatus, type ExportSummary } from "./index";
import { auditActor, authorizeCaller, type Caller } from "../fast/session";
import { parseSplit, type SplitSpec } from "./split";
import { env } from "../env";

/**
 * Exports are jobs recorded in the database (table ExportJob), whether started from the web or the
 * command line. The process that runs one says it is alive every HEARTBEAT_MS; any studio process
 * sharing the database can list and report it. A job whose process died (a restart, a kill) is
 * marked failed by the next process that looks: at once when that process ran on this machine and
 * is gone, after STALE_MS without a heartbeat otherwise. What a finished job leaves is a folder whose
 * manifest.json the list also reads; half-written `.<id>.partial-<hex>` folders of jobs that are not
 * running are swept at start-up, by the CLI export, and when the list is read.
 */

export const HEARTBEAT_MS = 5_000;
/** A running job not heard from for this long is taken as dead (another machine's, or a hung one). */
export const STALE_MS = env().STUDIO_JOB_STALE_MS ?? 30_000;

type JobRow = Awaited<ReturnType<Db["exportJob"]["findFirstOrThrow"]>>;

/** Exports as a kind of the jobs module (lib/server/jobs): a job whose process is gone is failed, never taken over. */
export const EXPORT_JOBS = defineJobKind<JobRow, { progressDone: number; progressTotal: number }>({
  name: "export",
  audit: { prefix: "export", entityType: "export" },
  table: (db) => ({
    running: () => db.exportJob.findMany({ where: { state: "running" } }),
    get: (id) => db.exportJob.findUnique({ where: { id } }),
    update: async (where, data, progress) =>
      (await db.exportJob.updateMany({ where: requiredColumnsWhere(where), data: { ...progress, ...data } })).count,
  }),
  heartbeatMs: HEARTBEAT_MS,
  staleMs: STALE_MS,
  liveStates: ["running"],
  whenGone: {
    fail: (row) => storeMessage({ key: "job.exportStopped", vars: { heardAt: row.heartbeatAt.toISOString() } }),
  },
});

// When each folder was last swept for partial exports (a sweep reads the folder: at most every few seconds).
const globalForSweeps = globalThis as unknown as { studioExportSweeps?: Map<string, number> };
const lastSweep = (globalForSweeps.studioExportSweeps ??= new Map<string, number>());

/** This process's runner id (for tests and logs). */
export function runnerId(): string {
  return jobRunnerId();
}

export function exportsDir(): string {
  return path.join(dataDir(), "exports");
}

const ID_PATTERN = /^[A-Za-z0-9][\w.-]{0,120}$/;
/** The hidden folder exportDataset writes into before renaming it: .<name>.partial-<8 hex>. */
const PARTIAL_PATTERN = /^\.(.+)\.partial-[0-9a-f]{8}$/;

function splitText(spec: SplitSpec): string | null {
  switch (spec.kind) {
    case "none":
      return null;
    case "random":
      return `random:${spec.seed}:${spec.ratios.join(",")}`;
    case "by-app":
      return `by-app:${spec.heldOut.join(",")}`;
  }
}

const filtersSchema = z.object({
  status: z.string(),
  apps: z.array(z.string()),
  project: z.string().nullable(),
  split: z.string().nullable(),
});

function view(row: JobRow): ExportItem {
  const stored = row.countsJson ? JSON.parse(row.countsJson) : null;
  const counts = stored ? exportCountsSchema.safeParse(stored) : null;
  const trainer = stored?.trainer ? trainerHintsSchema.safeParse(stored.trainer) : null;
  const filters = filtersSchema.safeParse(JSON.parse(row.filtersJson));
  return {
    id: row.id,
    state: row.state === "succeeded" || row.state === "failed" ? row.state : "running",
    outDir: row.outDir,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    progress: { trajectories: row.progressDone, total: row.progressTotal },
    filters: filters.success ? filters.data : { status: "?", apps: [], project: null, split: null },
    counts: counts?.success ? counts.data : null,
    trainer: trainer?.success ? trainer.data : null,
    ...readStoredError(row.error),
  };
}

/**
 * Mark jobs whose process is gone as failed (with an audit row), then sweep the partial folders in
 * `dirs` (default: the exports folder) that belong to no running job. Safe to call from any
 * process at any time; each job is failed once, by whoever gets there first.
 */
export async function recoverExportJobs(
  opts: { db?: Db; dirs?: string[]; force?: boolean } = {},
): Promise<{ failed: string[]; swept: string[] }> {
  const prisma = opts.db ?? defaultDb();
  const now = Date.now();
  const failed = await recoverJobs(EXPORT_JOBS, prisma);
  const swept: string[] = [];
  for (const dir of opts.dirs ?? [exportsDir()]) {
    // Sweeping reads a folder: at most every few seconds per folder, unless forced or a job was just failed.
    if (!opts.force && failed.length === 0 && now - (lastSweep.get(dir) ?? 0) < HEARTBEAT_MS) continue;
    lastSweep.set(dir, now);
    swept.push(...(await sweepPartials(prisma, dir)));
  }
  return { failed, swept };
}

/** Remove `.<name>.partial-<hex>` folders in `dir` unless a running job writes <dir>/<name>. */
async function sweepPartials(prisma: Db, dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const partials = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && PARTIAL_PATTERN.test(e.name));
  if (partials.length === 0) return [];
  const running = await prisma.exportJob.findMany({ where: { state: "running" }, select: { outDir: true } });
  const busy = new Set(running.map((r) => path.resolve(r.outDir)));
  const swept: string[] = [];
  for (const e of partials) {
    const target = path.resolve(dir, e.name.match(PARTIAL_PATTERN)![1]!);
    if (busy.has(target)) continue;
    await rm(path.join(dir, e.name), { recursive: true, force: true });
    swept.push(path.join(dir, e.name));
  }
  return swept;
}

/** A folder name that sorts by time: 20261122T101530Z-approved (-2, -3 ... if taken). */
async function newExportId(prisma: Db, status: ExportStatus, now: Date): Promise<string> {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  const base = `${stamp}-${status}`;
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (!existsSync(path.join(exportsDir(), id)) && !(await prisma.exportJob.findUnique({ where: { id }, select: { id: true } })))
      return id;
  }
}

type JobSpec = { id: string; outDir: string; status: ExportStatus; apps: string[]; project?: string; split: SplitSpec; actor: AuditActor };

/**
 * Record the job (state running, owned by this process) and run it; resolves when it is recorded.
 * `admit` runs once the row is committed: when it throws, the row is removed and nothing runs.
 */
async function launch(
  prisma: Db,
  spec: JobSpec,
  opts: { onProgress?: (p: { trajectories: number; total: number }) => void; admit?: () => Promise<void> } = {},
): Promise<{ row: JobRow; done: Promise<ExportSummary> }> {
  const onProgress = opts.onProgress;
  const row = await prisma.exportJob.create({
    data: {
      id: spec.id,
      state: "running",
      outDir: spec.outDir,
      filtersJson: JSON.stringify({ status: spec.status, apps: spec.apps, project: spec.project ?? null, split: splitText(spec.split) }),
      createdById: spec.actor.id,
      createdByLabel: truncate(spec.actor.label),
      ...claimed(),
    },
  });
  if (opts.admit) {
    try {
      await opts.admit();
    } catch (e) {
      await prisma.exportJob.delete({ where: { id: row.id } });
      throw e;
    }
  }
  const done = runJob(
    EXPORT_JOBS,
    prisma,
    spec.id,
    async (job) => {
      let summary: ExportSummary;
      try {
        summary = await exportDataset({
          outDir: spec.outDir,
          status: spec.status,
          apps: spec.apps,
          project: spec.project,
          split: spec.split,
          actor: spec.actor,
          db: prisma,
          onProgress: (p) => {
            onProgress?.(p);
            job.progressed({ progressDone: p.trajectories, progressTotal: p.total });
          },
        });
      } catch (e) {
        await job.stop();
        // A full disk is said in words (the operator frees space); anything else unexpected is logged.
        const known = diskFullOr(e);
        const error = storeMessage(storedMessageOf(known, "job.exportFailed"));
        if (!(e instanceof AppError)) console.error(`export ${spec.id} failed`, e);
        await prisma.exportJob
          .updateMany({
            where: { id: spec.id, runnerId: job.runnerId },
            data: { state: "failed", error, ...ended() },
          })
          .catch((err: unknown) => console.error(`export ${spec.id}: could not record the failure`, err));
        throw e;
      }
      await job.stop();
      const counts = {
        trajectories: summary.trajectories,
        steps: summary.steps,
        trainingSteps: summary.trainingSteps,
        harmfulSteps: summary.harmfulSteps,
        screenshots: summary.screenshots,
        bySplit: summary.bySplit,
        trainer: summary.trainer,
      };
      // The folder is published: record that even if a hiccup had this job marked failed meanwhile.
      await prisma.exportJob.updateMany({
        where: { id: spec.id, runnerId: job.runnerId },
        data: {
          state: "succeeded",
          countsJson: JSON.stringify(counts),
          progressDone: summary.trajectories,
          progressTotal: summary.trajectories,
          error: null,
          ...ended(),
        },
      });
      return summary;
    },
    // The id was reserved by the caller before its row was recorded.
    { replace: true },
  )!;
  return { row, done };
}

/**
 * A data folder that cannot take one more 64 KB file answers 507 in words before any job is recorded.
 * On SQLite the job row itself would fail on the same disk, but on PostgreSQL the row is written elsewhere
 * and the export would be accepted (202) only to fail moments later.
 */
async function proveRoom(dir: string): Promise<void> {
  const probe = path.join(dir, `.room-${randomBytes(4).toString("hex")}`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(probe, Buffer.alloc(64 * 1024));
  } catch (e) {
    throw diskFullOr(e);
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
  }
}

/**
 * Start an export in the background and return at once; poll getExport(id) for progress. One web
 * export runs at a time across every studio process sharing the database, so a second request
 * while one runs is refused (409) instead of doubling the load.
 */
export async function startExportJob(
  { actor: caller, ...input }: { actor: Caller } & StartExport,
  opts: { db?: Db; onProgress?: (p: { trajectories: number; total: number }) => void } = {},
): Promise<ExportItem> {
  authorizeCaller(caller, "export.run");
  const actor = auditActor(caller);
  const prisma = opts.db ?? defaultDb();
  if (!(EXPORT_STATUSES as readonly string[]).includes(input.status))
    throw appError("unprocessable", "error.exportStatus", { list: EXPORT_STATUSES.join(", ") });
  let split: SplitSpec;
  try {
    split = parseSplit(input.split);
  } catch (e) {
    throw new AppError("unprocessable", (e as Error).message.replace("--split", "split"));
  }
  await proveRoom(exportsDir());
  await recoverExportJobs({ db: prisma });
  const webRunning = { state: "running", createdByLabel: { not: CLI_ACTOR.label } };
  const running = await prisma.exportJob.findFirst({ where: webRunning, orderBy: [{ startedAt: "asc" }, { id: "asc" }] });
  if (running) throw appError("conflict", "error.exportRunning", { id: running.id });
  const now = new Date();
  const id = await newExportId(prisma, input.status, now);
  const outDir = path.join(exportsDir(), id);
  const release = reserve(EXPORT_JOBS, id);
  let launched: Awaited<ReturnType<typeof launch>>;
  try {
    // Two processes may both have seen no running export. Once ours is recorded, any other running
    // one means we give way: whichever of two was recorded later sees the other, so at most one runs.
    const admit = async () => {
      const other = await prisma.exportJob.findFirst({ where: { ...webRunning, id: { not: id } } });
      if (other) throw appError("conflict", "error.exportRunning", { id: other.id });
    };
    launched = await launch(
      prisma,
      { id, outDir, status: input.status, apps: input.apps, project: input.project, split, actor },
      { admit, onProgress: opts.onProgress },
    );
  } catch (e) {
    release();
    throw e;
  }
  // The request has its answer; the outcome is in the row (a failure is also logged by launch).
  void launched.done.catch(() => undefined);
  return view(launched.row);
}

/**
 * The command line's export: recorded as a job like a web export (so the export page and any
 * process can report it, and a killed run is marked failed), after sweeping the partial folders
 * an interrupted run left beside the target.
 */
export async function runCliExport(opts: {
  outDir: string;
  status: ExportStatus;
  apps?: string[];
  project?: string;
  split: SplitSpec;
  onProgress?: (p: { trajectories: number; total: number }) => void;
  db?: Db;
}): Promise<ExportSummary> {
  const prisma = opts.db ?? defaultDb();
  const outDir = path.resolve(opts.outDir);
  await recoverExportJobs({ db: prisma, dirs: [...new Set([exportsDir(), path.dirname(outDir)])], force: true });
  const base =
    path
      .basename(outDir)
      .replace(/[^\w.-]/g, "_")
      .slice(0, 100) || "export";
  const id = `${new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z")}-cli-${base}-${randomBytes(3).toString("hex")}`;
  const release = reserve(EXPORT_JOBS, id);
  try {
    const { done } = await launch(
      prisma,
      { id, outDir, status: opts.status, apps: opts.apps ?? [], project: opts.project, split: opts.split, actor: CLI_ACTOR },
      { onProgress: opts.onProgress },
    );
    return await done;
  } finally {
    release();
  }
}

/** Resolves when the job has finished (for tests); unknown ids resolve at once. */
export async function waitForExportJob(id: string): Promise<void> {
  await waitForJob(EXPORT_JOBS, id);
}

/** Resolves when every export this process runs has finished (for tests). */
export async function settleExportJobs(): Promise<void> {
  await settleJobs(EXPORT_JOBS);
}

const manifestSchema = z.object({
  createdAt: z.string(),
  filters: z.object({ status: z.string(), apps: z.array(z.string()).default([]), project: z.string().nullable().default(null) }),
  split: z
    .union([
      z.object({ kind: z.literal("none") }),
      z.object({ kind: z.literal("random"), seed: z.string(), ratios: z.array(z.number()), names: z.array(z.string()) }),
      z.object({ kind: z.literal("by-app"), heldOut: z.array(z.string()) }),
    ])
    .default({ kind: "none" }),
  counts: z.object({
    trajectories: z.number(),
    steps: z.number(),
    trainingSteps: z.number(),
    harmfulSteps: z.number(),
    screenshots: z.number(),
    bySplit: z.record(z.string(), z.number()).default({}),
  }),
  trainer: trainerHintsSchema.nullable().optional(),
});

/** A finished export folder, from its manifest; null when it has none or it cannot be read. */
async function readExportFolder(id: string): Promise<ExportItem | null> {
  const outDir = path.join(exportsDir(), id);
  let manifest: z.infer<typeof manifestSchema>;
  try {
    manifest = manifestSchema.parse(JSON.parse(await readFile(path.join(outDir, "manifest.json"), "utf8")));
  } catch {
    return null;
  }
  return {
    id,
    state: "succeeded",
    outDir,
    startedAt: manifest.createdAt,
    finishedAt: manifest.createdAt,
    progress: { trajectories: manifest.counts.trajectories, total: manifest.counts.trajectories },
    filters: { ...manifest.filters, split: splitText(manifest.split) },
    counts: manifest.counts,
    trainer: manifest.trainer ?? null,
    error: null,
  };
}

/** Every recorded job (running, failed, finished, from any process) and every export folder with a manifest, newest first. */
export async function listExports({ actor }: { actor: Caller }, opts: { db?: Db } = {}): Promise<ExportItem[]> {
  authorizeCaller(actor, "export.run");
  const prisma = opts.db ?? defaultDb();
  await recoverExportJobs({ db: prisma });
  const names = existsSync(exportsDir())
    ? (await readdir(exportsDir(), { withFileTypes: true })).filter((e) => e.isDirectory() && ID_PATTERN.test(e.name)).map((e) => e.name)
    : [];
  const byId = new Map<string, ExportItem>();
  for (const item of await Promise.all(names.map(readExportFolder))) if (item) byId.set(item.id, item);
  // A job's own record wins: it knows who is running and why one failed.
  for (const row of await prisma.exportJob.findMany({ orderBy: { startedAt: "desc" }, take: 500 })) byId.set(row.id, view(row));
  return [...byId.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id));
}

/** One export by id: a recorded job, or a finished folder. */
export async function getExport({ actor, id }: { actor: Caller; id: string }, opts: { db?: Db } = {}): Promise<ExportItem> {
  authorizeCaller(actor, "export.run");
  const prisma = opts.db ?? defaultDb();
  await recoverExportJobs({ db: prisma });
  const row = await prisma.exportJob.findUnique({ where: { id } });
  if (row) return view(row);
  const folder = ID_PATTERN.test(id) ? await readExportFolder(id) : null;
  if (!folder) throw appError("not_found", "error.exportMissing", { id });
  return folder;
}
