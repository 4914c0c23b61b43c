import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { ExportItem, StartExport } from "@/lib/domain/exports";
import type { AuditActor } from "./audit";
import { dataDir } from "./config";
import type { Db } from "./db";
import { AppError } from "./errors";
import { EXPORT_STATUSES, exportDataset, type ExportStatus } from "./export";
import { parseSplit, type SplitSpec } from "./split";

/**
 * Exports started from the web run in the background of this server process. Their progress lives
 * in memory (one studio process serves the UI); what they leave behind is a folder in
 * <STUDIO_DATA_DIR>/exports whose manifest.json the list reads, so finished exports outlive a restart.
 */
type Job = ExportItem & { done: Promise<void> };

// Keyed by output folder, so jobs of different data directories (tests) never collide.

const globalForJobs = globalThis as unknown as { studioExportJobs?: Map<string, Job> };
const jobs = (globalForJobs.studioExportJobs ??= new Map<string, Job>());

export function exportsDir(): string {
  return path.join(dataDir(), "exports");
}

const ID_PATTERN = /^[A-Za-z0-9][\w.-]{0,120}$/;

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

/** A folder name that sorts by time: 20261122T101530Z-approved (-2, -3 ... if taken). */
function newExportId(status: ExportStatus, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  const base = `${stamp}-${status}`;
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    const outDir = path.join(exportsDir(), id);
    if (!jobs.has(outDir) && !existsSync(outDir)) return id;
  }
}

function view({ done: _done, ...item }: Job): ExportItem {
  return structuredClone(item);
}

/** This process's jobs that write into the current exports directory. */
function currentJobs(): Job[] {
  return [...jobs.values()].filter((j) => path.dirname(j.outDir) === exportsDir());
}

/**
 * Start an export in the background and return at once; poll getExport(id) for progress. One export
 * runs at a time, so a second request while one runs is refused (409) instead of doubling the load.
 */
export function startExportJob(input: StartExport, actor: AuditActor, opts: { db?: Db } = {}): ExportItem {
  if (!(EXPORT_STATUSES as readonly string[]).includes(input.status)) throw new AppError("unprocessable", `status must be one of ${EXPORT_STATUSES.join(", ")}`);
  let split: SplitSpec;
  try {
    split = parseSplit(input.split);
  } catch (e) {
    throw new AppError("unprocessable", (e as Error).message.replace("--split", "split"));
  }
  const running = currentJobs().find((j) => j.state === "running");
  if (running) throw new AppError("conflict", `export ${running.id} is still running; wait for it to finish`);
  const now = new Date();
  const id = newExportId(input.status, now);
  const outDir = path.join(exportsDir(), id);
  const job: Job = {
    id,
    state: "running",
    outDir,
    startedAt: now.toISOString(),
    finishedAt: null,
    progress: { trajectories: 0, total: 0 },
    filters: { status: input.status, apps: input.apps, project: input.project ?? null, split: splitText(split) },
    counts: null,
    error: null,
    done: Promise.resolve(),
  };
  jobs.set(outDir, job);
  job.done = exportDataset({
    outDir,
    status: input.status,
    apps: input.apps,
    project: input.project,
    split,
    actor,
    db: opts.db,
    onProgress: (p) => {
      job.progress = p;
    },
  }).then(
    (summary) => {
      job.state = "succeeded";
      job.counts = {
        trajectories: summary.trajectories,
        steps: summary.steps,
        trainingSteps: summary.trainingSteps,
        harmfulSteps: summary.harmfulSteps,
        screenshots: summary.screenshots,
        bySplit: summary.bySplit,
      };
      job.progress = { trajectories: summary.trajectories, total: summary.trajectories };
      job.finishedAt = new Date().toISOString();
    },
    (e: unknown) => {
      job.state = "failed";
      job.finishedAt = new Date().toISOString();
      if (e instanceof AppError) job.error = e.message;
      else {
        console.error(`export ${id} failed`, e);
        job.error = "The export failed on the server; it has been logged.";
      }
    },
  );
  return view(job);
}

/** Resolves when the job has finished (for tests); unknown ids resolve at once. */
export async function waitForExportJob(id: string): Promise<void> {
  await currentJobs().find((j) => j.id === id)?.done;
}

/** Resolves when every export of this data directory has finished (for tests). */
export async function settleExportJobs(): Promise<void> {
  await Promise.all(currentJobs().map((j) => j.done));
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
    error: null,
  };
}

/** Jobs of this process (running, failed, finished) and every finished export folder, newest first. */
export async function listExports(): Promise<ExportItem[]> {
  const names = existsSync(exportsDir())
    ? (await readdir(exportsDir(), { withFileTypes: true })).filter((e) => e.isDirectory() && ID_PATTERN.test(e.name)).map((e) => e.name)
    : [];
  const byId = new Map<string, ExportItem>();
  for (const item of await Promise.all(names.map(readExportFolder))) if (item) byId.set(item.id, item);
  // A job's own record wins: it knows who is running and why one failed.
  for (const job of currentJobs()) byId.set(job.id, view(job));
  return [...byId.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id));
}

/** One export by id: a job of this process, or a finished folder. */
export async function getExport(id: string): Promise<ExportItem> {
  const job = currentJobs().find((j) => j.id === id);
  if (job) return view(job);
  const folder = ID_PATTERN.test(id) ? await readExportFolder(id) : null;
  if (!folder) throw new AppError("not_found", `no export ${id}`);
  return folder;
}
