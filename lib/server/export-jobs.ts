import { randomBytes } from "node:crypto";
import { trainerHintsSchema } from "@/lib/domain/trainer-hints";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { exportCountsSchema, type ExportItem, type StartExport } from "@/lib/domain/exports";
import { truncate } from "@/lib/domain/limits";
import { CLI_ACTOR, type AuditActor } from "./audit";
import { dataDir } from "./config";
import { failStoppedJobs, isOtherRunnerGone, newRunnerId } from "./job-runner";
import { db as defaultDb, type Db } from "./db";
import { AppError, diskFullOr } from "./errors";
import { EXPORT_STATUSES, exportDataset, type ExportStatus, type ExportSummary } from "./export";
import { auditActor, authorizeCaller, type Caller } from "./session";
import { parseSplit, type SplitSpec } from "./split";
import { env } from "./env";

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
const PROGRESS_WRITE_MS = 500;

type Running = { id: string; done: Promise<void> };
const globalForJobs = globalThis as unknown as {
  studioExportRunner?: { id: string; running: Map<string, Running>; lastSweep: Map<string, number> };
};
const runner = (globalForJobs.studioExportRunner ??= {
  // host:pid:boot: a restarted server is a new runner even when it gets the same pid.
  id: newRunnerId(),
  running: new Map<string, Running>(),
  lastSweep: new Map<string, number>(),
});

/** This process's runner id (for tests and logs). */
export function runnerId(): string {
  return runner.id;
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

type JobRow = Awaited<ReturnType<Db["exportJob"]["findFirstOrThrow"]>>;

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
    error: row.error,
  };
}

/** Is the process that runs this job gone? */
function isRunnerGone(row: Pick<JobRow, "id" | "runnerId" | "heartbeatAt">, now: number): boolean {
  if (row.runnerId === runner.id) return !runner.running.has(row.id);
  return isOtherRunnerGone(row.runnerId, row.heartbeatAt, STALE_MS, now);
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
  const failed = await failStoppedJobs(
    prisma,
    "export",
    await prisma.exportJob.findMany({ where: { state: "running" } }),
    (row) => isRunnerGone(row, now),
    (row) =>
      `The studio process running this export stopped (last heard from ${row.heartbeatAt.toISOString()}); nothing was published. Start the export again.`,
    async (row, error) =>
      (
        await prisma.exportJob.updateMany({
          where: { id: row.id, state: "running", heartbeatAt: row.heartbeatAt },
          data: { state: "failed", error, finishedAt: new Date(now) },
        })
      ).count,
  );
  const swept: string[] = [];
  for (const dir of opts.dirs ?? [exportsDir()]) {
    // Sweeping reads a folder: at most every few seconds per folder, unless forced or a job was just failed.
    if (!opts.force && failed.length === 0 && now - (runner.lastSweep.get(dir) ?? 0) < HEARTBEAT_MS) continue;
    runner.lastSweep.set(dir, now);
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
      runnerId: runner.id,
      heartbeatAt: new Date(),
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
  let progress = { trajectories: 0, total: 0 };
  let lastWrite = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const beat = (extra: object = {}) =>
    (writing = writing
      .then(() =>
        prisma.exportJob.updateMany({
          where: { id: spec.id, runnerId: runner.id, state: "running" },
          data: { heartbeatAt: new Date(), progressDone: progress.trajectories, progressTotal: progress.total, ...extra },
        }),
      )
      .catch((e: unknown) => console.error(`export ${spec.id}: could not record progress`, e)));
  const timer = setInterval(() => void beat(), HEARTBEAT_MS);
  timer.unref?.();
  const done = exportDataset({
    outDir: spec.outDir,
    status: spec.status,
    apps: spec.apps,
    project: spec.project,
    split: spec.split,
    actor: spec.actor,
    db: prisma,
    onProgress: (p) => {
      progress = p;
      onProgress?.(p);
      if (Date.now() - lastWrite >= PROGRESS_WRITE_MS) {
        lastWrite = Date.now();
        void beat();
      }
    },
  }).then(
    async (summary) => {
      clearInterval(timer);
      await writing;
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
        where: { id: spec.id, runnerId: runner.id },
        data: {
          state: "succeeded",
          countsJson: JSON.stringify(counts),
          progressDone: summary.trajectories,
          progressTotal: summary.trajectories,
          error: null,
          heartbeatAt: new Date(),
          finishedAt: new Date(),
        },
      });
      return summary;
    },
    async (e: unknown) => {
      clearInterval(timer);
      await writing;
      // A full disk is said in words (the operator frees space); anything else unexpected is logged.
      const known = diskFullOr(e);
      const error = known instanceof AppError ? known.message : "The export failed on the server; it has been logged.";
      if (!(e instanceof AppError)) console.error(`export ${spec.id} failed`, e);
      await prisma.exportJob
        .updateMany({
          where: { id: spec.id, runnerId: runner.id },
          data: { state: "failed", error: truncate(error, 2_000), heartbeatAt: new Date(), finishedAt: new Date() },
        })
        .catch((err: unknown) => console.error(`export ${spec.id}: could not record the failure`, err));
      throw e;
    },
  );
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
    throw new AppError("unprocessable", `status must be one of ${EXPORT_STATUSES.join(", ")}`);
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
  if (running) throw new AppError("conflict", `export ${running.id} is still running; wait for it to finish`);
  const now = new Date();
  const id = await newExportId(prisma, input.status, now);
  const outDir = path.join(exportsDir(), id);
  const entry: Running = { id, done: Promise.resolve() };
  runner.running.set(id, entry);
  let launched: Awaited<ReturnType<typeof launch>>;
  try {
    // Two processes may both have seen no running export. Once ours is recorded, any other running
    // one means we give way: whichever of two was recorded later sees the other, so at most one runs.
    const admit = async () => {
      const other = await prisma.exportJob.findFirst({ where: { ...webRunning, id: { not: id } } });
      if (other) throw new AppError("conflict", `export ${other.id} is still running; wait for it to finish`);
    };
    launched = await launch(
      prisma,
      { id, outDir, status: input.status, apps: input.apps, project: input.project, split, actor },
      { admit, onProgress: opts.onProgress },
    );
  } catch (e) {
    runner.running.delete(id);
    throw e;
  }
  entry.done = launched.done.then(
    () => undefined,
    () => undefined,
  );
  void entry.done.finally(() => runner.running.delete(id));
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
  const entry: Running = { id, done: Promise.resolve() };
  runner.running.set(id, entry);
  try {
    const { done } = await launch(
      prisma,
      { id, outDir, status: opts.status, apps: opts.apps ?? [], project: opts.project, split: opts.split, actor: CLI_ACTOR },
      { onProgress: opts.onProgress },
    );
    entry.done = done.then(
      () => undefined,
      () => undefined,
    );
    return await done;
  } finally {
    runner.running.delete(id);
  }
}

/** Resolves when the job has finished (for tests); unknown ids resolve at once. */
export async function waitForExportJob(id: string): Promise<void> {
  await runner.running.get(id)?.done;
}

/** Resolves when every export this process runs has finished (for tests). */
export async function settleExportJobs(): Promise<void> {
  await Promise.all([...runner.running.values()].map((j) => j.done));
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
  if (!folder) throw new AppError("not_found", `no export ${id}`);
  return folder;
}
