// What the export page lists: recorded export jobs and finished export folders (read from their manifests).
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { exportManifestSchema } from "@/lib/domain/export-manifest";
import { trainerHintsSchema } from "@/lib/domain/trainer-hints";
import { exportCountsSchema, type ExportItem } from "@/lib/domain/exports";
import { db as defaultDb, type Db } from "../db";
import { appError, readStoredError } from "../errors";
import { authorizeCaller, type Caller } from "../people";
import { exportsDir, recoverExportJobs, type JobRow } from "./job-kind";
import type { SplitSpec } from "./split";

const ID_PATTERN = /^[A-Za-z0-9][\w.-]{0,120}$/;

export function splitText(spec: SplitSpec): string | null {
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

export function view(row: JobRow): ExportItem {
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

/** A finished export folder, from its manifest; null when it has none or it cannot be read. */
async function readExportFolder(id: string): Promise<ExportItem | null> {
  const outDir = path.join(exportsDir(), id);
  let manifest: z.infer<typeof exportManifestSchema>;
  try {
    manifest = exportManifestSchema.parse(JSON.parse(await readFile(path.join(outDir, "manifest.json"), "utf8")));
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
    filters: {
      status: manifest.filters.status,
      apps: manifest.filters.apps,
      project: manifest.filters.project,
      split: splitText(manifest.split),
    },
    counts: exportCountsSchema.parse(manifest.counts),
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
