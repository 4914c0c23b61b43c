import { existsSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { dataDir, env } from "../env";
import { defineJobKind, recoverJobs, requiredColumnsWhere, runnerId as jobRunnerId } from "../jobs";
import { db as defaultDb, type Db } from "../db";
import { storeMessage } from "../errors";

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

export type JobRow = Awaited<ReturnType<Db["exportJob"]["findFirstOrThrow"]>>;

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

/** The hidden folder exportDataset writes into before renaming it: .<name>.partial-<8 hex>. */
const PARTIAL_PATTERN = /^\.(.+)\.partial-[0-9a-f]{8}$/;

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
