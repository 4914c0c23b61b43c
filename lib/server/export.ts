import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, existsSync, type WriteStream } from "node:fs";
import { copyFile, link, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { once } from "node:events";
import path from "node:path";
import { QWEN_MIN_PIXELS } from "@/lib/domain/geometry";
import { mobileR1Response } from "@/lib/domain/prompt";
import { emptyHints, measureTrajectory, SUGGESTED_MAX_PIXELS, usesAnswer, type TrainerHints } from "@/lib/domain/trainer-hints";
import { formatMobileUseCall } from "@/lib/domain/tool-call";
import { CANONICAL_FORMAT, isTrainingTarget, type CanonicalTrajectory } from "@/lib/domain/trajectory";
import { taskStatusSchema, type TaskStatus } from "@/lib/domain/status";
import { db as defaultDb, type Db } from "./db";
import { EXPORT_STATUS_OPTIONS, exportedStatuses } from "@/lib/domain/exports";
import { CLI_ACTOR, recordAudit, type AuditActor } from "./audit";
import { AppError } from "./errors";
import { fromStore } from "./stored";
import { stepFromRow } from "./trajectories";
import { copyScreenshotTo, screenshotExt } from "./screenshot-store";
import { splitOf, type SplitSpec } from "./split";
import { latestJudgeVerdicts } from "./judge";

export const EXPORT_FORMAT = "trajectory-studio-export/v1";
/** Which work an export takes; the list lives once, in lib/domain/exports. */
export const EXPORT_STATUSES = EXPORT_STATUS_OPTIONS;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export type ExportOptions = {
  outDir: string;
  status?: ExportStatus;
  apps?: string[];
  project?: string;
  split?: SplitSpec;
  onProgress?: (p: { trajectories: number; total: number }) => void;
  actor?: AuditActor;
  db?: Db;
};

export type ExportSummary = {
  outDir: string;
  trajectories: number;
  steps: number;
  trainingSteps: number;
  harmfulSteps: number;
  screenshots: number;
  bySplit: Record<string, number>;
  /** Longest SFT sample at SUGGESTED_MAX_PIXELS, for the trainer settings the export page prints. */
  trainer: TrainerHints;
};

const PAGE = 100;

/** Which statuses an export takes (every status for `all`: no filter at all). */
function statusesFor(s: ExportStatus): TaskStatus[] | undefined {
  return s === "all" ? undefined : [...exportedStatuses(s)];
}

/** A JSONL writer that hashes what it writes and respects back-pressure. */
class HashedWriter {
  private readonly hash = createHash("sha256");
  private readonly out: WriteStream;
  constructor(file: string) {
    this.out = createWriteStream(file);
  }
  async line(value: unknown): Promise<void> {
    const text = `${JSON.stringify(value)}\n`;
    this.hash.update(text);
    if (!this.out.write(text)) await once(this.out, "drain");
  }
  async close(): Promise<string> {
    this.out.end();
    await once(this.out, "finish");
    return this.hash.digest("hex");
  }
}

/**
 * Write a versioned dataset folder: manifest.json, trajectories.jsonl (canonical, original pixels),
 * screenshots/<sha256>.<ext>, and mobile-r1/data.jsonl + images/ in the Mobile-R1 release format.
 * Streams page by page (bounded memory), writes into a hidden sibling folder and renames it at the
 * end, so a half-written export never looks complete. Order follows the content fingerprint, so the
 * same data and options give the same files (apart from manifest.createdAt).
 */
export async function exportDataset(opts: ExportOptions): Promise<ExportSummary> {
  const prisma = opts.db ?? defaultDb();
  const outDir = path.resolve(opts.outDir);
  if (existsSync(outDir)) throw new AppError("conflict", `${outDir} already exists; choose a new folder for each export`);
  const work = path.join(path.dirname(outDir), `.${path.basename(outDir)}.partial-${randomBytes(4).toString("hex")}`);
  await mkdir(path.join(work, "screenshots"), { recursive: true });
  await mkdir(path.join(work, "mobile-r1", "images"), { recursive: true });
  const status = opts.status ?? "approved";
  const statuses = statusesFor(status);
  const where = {
    ...(statuses ? { status: { in: statuses } } : {}),
    ...(opts.apps?.length ? { app: { in: opts.apps } } : {}),
    ...(opts.project ? { project: { name: opts.project } } : {}),
  };
  try {
    const total = await prisma.trajectory.count({ where });
    const canonical = new HashedWriter(path.join(work, "trajectories.jsonl"));
    const mobileR1 = new HashedWriter(path.join(work, "mobile-r1", "data.jsonl"));
    const files: Record<string, string> = {};
    const summary: ExportSummary = {
      outDir,
      trajectories: 0,
      steps: 0,
      trainingSteps: 0,
      harmfulSteps: 0,
      screenshots: 0,
      bySplit: {},
      trainer: emptyHints(SUGGESTED_MAX_PIXELS, QWEN_MIN_PIXELS),
    };
    const byApp: Record<string, number> = {};
    const copied = new Set<string>();
    // Measured both ways: the bridge's prompts declare `answer` for the whole export if any trajectory answers.
    let withAnswer = emptyHints(SUGGESTED_MAX_PIXELS, QWEN_MIN_PIXELS);
    let anyAnswer = false;
    // Keyset paging on (fingerprint, id): the same data in two projects shares a fingerprint.
    let cursor: { fingerprint: string; id: string } | undefined;
    for (;;) {
      const after = cursor
        ? { OR: [{ fingerprint: { gt: cursor.fingerprint } }, { fingerprint: cursor.fingerprint, id: { gt: cursor.id } }] }
        : {};
      const page = await prisma.trajectory.findMany({
        where: { AND: [where, after] },
        orderBy: [{ fingerprint: "asc" }, { id: "asc" }],
        take: PAGE,
        include: { project: { select: { name: true } }, steps: { orderBy: { index: "asc" }, include: { screenshot: true } } },
      });
      if (page.length === 0) break;
      const last = page[page.length - 1]!;
      cursor = { fingerprint: last.fingerprint, id: last.id };
      const judged = await latestJudgeVerdicts(
        prisma,
        page.map((t) => t.id),
      );
      for (const t of page) {
        const split = opts.split ? splitOf(opts.split, t) : undefined;
        const record: CanonicalTrajectory = {
          format: CANONICAL_FORMAT,
          id: t.id,
          project: t.project.name,
          app: t.app,
          instruction: t.instruction,
          source: t.source as CanonicalTrajectory["source"],
          sourceRef: t.sourceRef,
          systemPrompt: t.systemPrompt,
          status: fromStore(taskStatusSchema, t.status, `status of trajectory ${t.id}`),
          outcome: t.outcome as CanonicalTrajectory["outcome"],
          originalOutcome: t.originalOutcome as CanonicalTrajectory["originalOutcome"],
          isDiscarded: t.isDiscarded,
          cutAfter: t.cutAfter,
          ...(split ? { split } : {}),
          steps: [],
          provenance: {
            fingerprint: t.fingerprint,
            importBatch: t.batchId,
            createdAt: t.createdAt.toISOString(),
            updatedAt: t.updatedAt.toISOString(),
          },
          ...(judged.has(t.id) ? { judge: judged.get(t.id) } : {}),
        };
        for (const s of t.steps) {
          const ext = screenshotExt(s.screenshot.mime);
          const rel = `screenshots/${s.screenshotSha}${ext}`;
          if (!copied.has(s.screenshotSha)) {
            copied.add(s.screenshotSha);
            await copyScreenshotTo(s.screenshotSha, s.screenshot.mime, path.join(work, rel));
            await linkOrCopy(path.join(work, rel), path.join(work, "mobile-r1", "images", `${s.screenshotSha}${ext}`));
            files[rel] = s.screenshotSha;
            files[`mobile-r1/images/${s.screenshotSha}${ext}`] = s.screenshotSha;
          }
          const { id: _id, version: _version, screenshot, ...view } = stepFromRow(s);
          record.steps.push({ ...view, screenshot: { ...screenshot, file: rel } });
        }
        await canonical.line(record);
        const r1 = toMobileR1(record);
        if (r1.trajectory.length > 0) await mobileR1.line(r1);
        summary.trajectories += 1;
        summary.steps += record.steps.length;
        summary.trainingSteps += record.steps.filter((s) => isTrainingTarget(record, s)).length;
        summary.harmfulSteps += record.steps.filter((s) => s.verdict === "harmful").length;
        summary.trainer = measureTrajectory(summary.trainer, record, "mobile-use");
        withAnswer = measureTrajectory(withAnswer, record, "ui-s1");
        anyAnswer ||= usesAnswer(record);
        byApp[t.app] = (byApp[t.app] ?? 0) + 1;
        if (split) summary.bySplit[split] = (summary.bySplit[split] ?? 0) + 1;
        opts.onProgress?.({ trajectories: summary.trajectories, total });
      }
    }
    if (anyAnswer) summary.trainer = withAnswer;
    files["trajectories.jsonl"] = await canonical.close();
    files["mobile-r1/data.jsonl"] = await mobileR1.close();
    summary.screenshots = copied.size;
    const pkg = JSON.parse(await readFile(path.join(process.cwd(), "package.json"), "utf8")) as { version: string };
    const manifest = {
      format: EXPORT_FORMAT,
      createdAt: new Date().toISOString(),
      studioVersion: pkg.version,
      coordinateFrame: "original screenshot pixels",
      filters: { status, apps: opts.apps ?? [], project: opts.project ?? null },
      split: opts.split ?? { kind: "none" },
      counts: {
        trajectories: summary.trajectories,
        steps: summary.steps,
        trainingSteps: summary.trainingSteps,
        harmfulSteps: summary.harmfulSteps,
        screenshots: summary.screenshots,
        byApp: Object.fromEntries(Object.entries(byApp).sort(([a], [b]) => a.localeCompare(b))),
        bySplit: summary.bySplit,
      },
      /** Measured at the max_pixels the export page proposes; the bridge measures again at its own. */
      trainer: summary.trainer,
      files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b))),
    };
    await writeFile(path.join(work, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(work, outDir);
    await recordAudit(prisma, {
      actor: opts.actor ?? CLI_ACTOR,
      action: "export.run",
      entityType: "export",
      entityId: path.basename(outDir),
      after: {
        outDir,
        filters: manifest.filters,
        split: manifest.split,
        counts: { trajectories: summary.trajectories, steps: summary.steps },
      },
    });
    return summary;
  } catch (e) {
    await rm(work, { recursive: true, force: true });
    throw e;
  }
}

/**
 * Store files are immutable and named by their content, so an export hard-links them (no bytes
 * copied) when it is on the same file system, and copies them otherwise.
 */
async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch {
    await copyFile(from, to);
  }
}

/**
 * One line of the Mobile-R1 release format (FORMATS.md §1.2). Coordinates stay in original pixels
 * (image_width/height say which). Only training targets appear: a reader of that format trains on
 * every step it finds, so harmful steps and steps after the cut are left out (and a trajectory
 * with no step left, e.g. a discarded one, gets no line).
 */
function toMobileR1(t: CanonicalTrajectory) {
  const steps = t.steps.filter((s) => isTrainingTarget(t, s));
  const first = t.steps[0]!;
  return {
    app_name: t.app,
    trajectory_length: steps.length,
    instruction: t.instruction,
    system: t.systemPrompt ?? "",
    image_width: first.screenshot.width,
    image_height: first.screenshot.height,
    trajectory: steps.map((s) => ({
      image: path.basename(s.screenshot.file ?? `${s.screenshot.sha256}.png`),
      thought: s.thought.text,
      subtask: s.clearAction,
      action: formatMobileUseCall(s.toolCall),
      response: mobileR1Response(s.thought.text, s.clearAction, s.toolCall),
      bbox: s.box,
    })),
  };
}
