// Starting exports: from the web (one at a time across the studio's processes) or from the command
// line, each recorded as a job (./job-kind) that runs exportDataset.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ExportItem, StartExport } from "@/lib/domain/exports";
import { truncate } from "@/lib/domain/limits";
import { CLI_ACTOR, type AuditActor, auditActor, authorizeCaller, type Caller } from "../people";
import { claimed, ended, reserve, runJob, settleJobs, waitForJob } from "../jobs";
import { db as defaultDb, type Db } from "../db";
import { AppError, appError, diskFullOr, storedMessageOf, storeMessage } from "../errors";
import { EXPORT_STATUSES, exportDataset, type ExportStatus, type ExportSummary } from "./dataset";
import { parseSplit, SplitError, type SplitSpec } from "./split";
import { EXPORT_JOBS, exportsDir, recoverExportJobs, type JobRow } from "./job-kind";
import { splitText, view } from "./listing";

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
        const known = diskFullOr(e, { key: "error.diskFullExport" });
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
    throw diskFullOr(e, { key: "error.diskFullExport" });
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
    if (!(e instanceof SplitError)) throw e;
    throw appError("unprocessable", e.problem === "ratios" ? "error.exportSplitRatios" : "error.exportSplitForm", { got: e.got });
  }
  await proveRoom(exportsDir());
  await recoverExportJobs({ db: prisma });
  const webRunning = { state: "running", createdByLabel: { not: CLI_ACTOR.label } };
  const running = await prisma.exportJob.findFirst({ where: webRunning, orderBy: [{ startedAt: "asc" }, { id: "asc" }] });
  if (running) throw appError("conflict", "error.exportRunning", { id: running.id });
  const now = new Date();
  const id = await newExportId(prisma, input.status, now);
  const outDir = path.join(/*turbopackIgnore: true*/ exportsDir(), id);
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
