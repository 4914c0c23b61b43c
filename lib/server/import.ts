import { createHash, randomUUID } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import {
  buildTrajectory,
  mapRecord,
  type BuiltTrajectory,
  type CoordinateFrame,
  type ImportFormat,
} from "@/lib/domain/import-formats";
import type { ImportProblem } from "@/lib/domain/problems";
import type { Size } from "@/lib/domain/geometry";
import { pyJsonDumps } from "@/lib/domain/tool-call";
import { db as defaultDb, type Db, type Tx } from "./db";
import type { Prisma } from "./generated/sqlite/client";
import { AppError } from "./errors";
import { CLI_ACTOR, recordAudit, type AuditActor } from "./audit";
import { inspectImage, sha256File, storeScreenshot, type ImageInfo } from "./screenshot-store";

export type ImportOptions = {
  file: string;
  format: ImportFormat;
  /** Folder screenshots are looked up in, by file name. Default: <file's folder>/images, else the file's folder. */
  screenshotsDir?: string;
  project?: string;
  frame?: CoordinateFrame;
  /** Name recorded on the batch (an upload's original file name). */
  displayName?: string;
  onProgress?: (p: ImportProgress) => void;
  /** Who runs it, for the batch and the audit trail (default: the command line). */
  actor?: AuditActor;
  db?: Db;
};

export type ImportProgress = { phase: "checking" | "writing"; lines: number; trajectories: number; steps: number };

export type ImportResult =
  | { ok: true; batchId: string; project: string; trajectories: number; steps: number; duplicates: number; screenshots: number }
  | { ok: false; problems: ImportProblem[]; trajectories: number; steps: number };

export const DEFAULT_PROJECT = "default";
const PROGRESS_EVERY = 100;
const WRITE_CHUNK = 100;

type Checked = { line: number; trajectory: BuiltTrajectory; images: ImageInfo[]; fingerprint: string };

/**
 * Read a JSONL file of trajectories line by line, yielding each fully checked trajectory or its
 * problems. Screenshots are measured once per file name. Memory: one trajectory at a time plus a
 * small record per distinct screenshot.
 */
async function* readTrajectories(
  opts: ImportOptions,
  images: Map<string, ImageInfo | string>,
): AsyncGenerator<{ checked?: Checked; problems: ImportProblem[] }> {
  const fileLabel = opts.displayName ?? path.basename(opts.file);
  const dir = opts.screenshotsDir ?? defaultScreenshotsDir(opts.file);
  const lines = createInterface({ input: createReadStream(opts.file, { encoding: "utf8" }), crlfDelay: Infinity });
  let lineNo = 0;
  for await (const text of lines) {
    lineNo += 1;
    const line = lineNo;
    if (text.trim() === "") continue;
    const at = (p: Omit<ImportProblem, "file" | "line">): ImportProblem => ({ file: fileLabel, line, ...p });
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (e) {
      yield { problems: [at({ message: `broken JSON: ${(e as Error).message}` })] };
      continue;
    }
    const mapped = mapRecord(opts.format, record, `${fileLabel}:${line}`);
    if (!mapped.draft) {
      yield { problems: mapped.problems.map(at) };
      continue;
    }
    const draft = mapped.draft;
    const problems: ImportProblem[] = [];
    const infos = await Promise.all(
      draft.steps.map(async (s, step) => {
        let info = images.get(s.screenshotName);
        if (info === undefined) {
          info = await inspectImage(path.join(dir, s.screenshotName)).catch((e: Error) => e.message);
          images.set(s.screenshotName, info);
        }
        if (typeof info === "string") {
          problems.push(at({ step, field: "screenshot", message: info }));
          return undefined;
        }
        return info;
      }),
    );
    const sizes: (Size | undefined)[] = infos.map((i) => (i ? { width: i.width, height: i.height } : undefined));
    const built = buildTrajectory(draft, sizes, opts.frame ?? { kind: "original" });
    problems.push(...built.problems.map(at));
    if (problems.length > 0 || !built.trajectory) {
      yield { problems };
      continue;
    }
    const imgs = infos as ImageInfo[];
    yield { checked: { line, trajectory: built.trajectory, images: imgs, fingerprint: fingerprint(built.trajectory, imgs) }, problems: [] };
  }
}

/** images/ (Mobile-R1 release) or screenshots/ (a studio export) beside the file, else its own folder. */
function defaultScreenshotsDir(file: string): string {
  for (const name of ["images", "screenshots"]) {
    // A folder beside the imported file, chosen at run time: not part of the build (the comment keeps
    // the bundler from tracing the whole project through this dynamic path).
    const dir = path.join(/*turbopackIgnore: true*/ path.dirname(file), name);
    if (existsSync(/*turbopackIgnore: true*/ dir)) return dir;
  }
  return path.dirname(file);
}

/**
 * Identity of a trajectory's imported content: app, instruction and each step's screenshot and
 * original model output. The same data imported twice (even from another format) matches.
 */
function fingerprint(t: BuiltTrajectory, images: ImageInfo[]): string {
  const content = {
    app: t.app,
    instruction: t.instruction,
    steps: t.steps.map((s, i) => [images[i]!.sha256, s.original.toolCall, s.original.thought ?? "", s.original.response ?? ""]),
  };
  return createHash("sha256").update(pyJsonDumps(content)).digest("hex");
}

/**
 * Import a JSONL file as one all-or-nothing batch. First every line is checked (JSON, schema,
 * actions, screenshots, coordinates on screen); any problem aborts with the full list and nothing
 * written. Then, in one transaction, new trajectories are inserted; ones already present (same
 * fingerprint in the project) are counted as duplicates and skipped.
 */
export async function importFile(opts: ImportOptions): Promise<ImportResult> {
  const prisma = opts.db ?? defaultDb();
  if (!existsSync(opts.file)) throw new AppError("not_found", `file not found: ${opts.displayName ?? path.basename(opts.file)}`);
  const images = new Map<string, ImageInfo | string>();
  const problems: ImportProblem[] = [];
  let trajectories = 0;
  let steps = 0;
  let lines = 0;
  for await (const r of readTrajectories(opts, images)) {
    lines += 1;
    problems.push(...r.problems);
    if (r.checked) {
      trajectories += 1;
      steps += r.checked.trajectory.steps.length;
    }
    if (lines % PROGRESS_EVERY === 0) opts.onProgress?.({ phase: "checking", lines, trajectories, steps });
  }
  opts.onProgress?.({ phase: "checking", lines, trajectories, steps });
  if (lines === 0) problems.push({ file: opts.displayName ?? path.basename(opts.file), message: "the file holds no trajectories" });
  if (problems.length > 0) return { ok: false, problems, trajectories, steps };

  const stored = [...images.values()].filter((i): i is ImageInfo => typeof i !== "string");
  const unique = new Map(stored.map((i) => [i.sha256, i]));
  const dir = opts.screenshotsDir ?? defaultScreenshotsDir(opts.file);
  // Content-addressed copies are harmless if the transaction below fails: nothing refers to them.
  for (const [name, info] of images) if (typeof info !== "string") await storeScreenshot(path.join(dir, name), info);

  const projectName = opts.project ?? DEFAULT_PROJECT;
  const fileSha = await sha256File(opts.file);
  const result = await prisma.$transaction(
    async (tx) => {
      const project = await tx.project.upsert({ where: { name: projectName }, create: { name: projectName }, update: {} });
      await insertScreenshots(tx, [...unique.values()]);
      const known = new Set(
        (await tx.trajectory.findMany({ where: { projectId: project.id }, select: { fingerprint: true } })).map((t) => t.fingerprint),
      );
      const batch = await tx.importBatch.create({
        data: {
          projectId: project.id,
          format: opts.format,
          fileName: opts.displayName ?? path.basename(opts.file),
          fileSha256: fileSha,
          status: "succeeded",
          createdById: opts.actor?.id ?? null,
        },
      });
      let created = 0;
      let createdSteps = 0;
      let duplicates = 0;
      let seen = 0;
      // Rows are written in chunks: far fewer round trips than one insert per trajectory, and
      // memory stays at one chunk.
      let pendingTrajectories: Prisma.TrajectoryCreateManyInput[] = [];
      let pendingSteps: Prisma.StepCreateManyInput[] = [];
      const flush = async () => {
        if (pendingTrajectories.length === 0) return;
        await tx.trajectory.createMany({ data: pendingTrajectories });
        await tx.step.createMany({ data: pendingSteps });
        pendingTrajectories = [];
        pendingSteps = [];
      };
      for await (const r of readTrajectories(opts, images)) {
        if (!r.checked) throw new AppError("conflict", `${opts.displayName ?? path.basename(opts.file)} changed while it was being imported; nothing was imported`);
        seen += 1;
        const { trajectory: t, images: imgs, fingerprint: fp } = r.checked;
        if (known.has(fp)) {
          duplicates += 1;
          continue;
        }
        known.add(fp);
        const trajectoryId = randomUUID();
        pendingTrajectories.push({
          id: trajectoryId,
          projectId: project.id,
          batchId: batch.id,
          fingerprint: fp,
          source: t.source,
          sourceRef: t.sourceRef,
          app: t.app,
          instruction: t.instruction,
          systemPrompt: t.systemPrompt ?? null,
          status: t.annotated?.status ?? "new",
          outcome: t.annotated?.outcome ?? null,
          originalOutcome: t.originalOutcome,
          isDiscarded: t.annotated?.isDiscarded ?? false,
          cutAfter: t.annotated?.cutAfter ?? null,
          stepCount: t.steps.length,
          metaJson: JSON.stringify(t.meta),
        });
        pendingSteps.push(
          ...t.steps.map((s, i) => ({
            trajectoryId,
            index: s.index,
            screenshotSha: imgs[i]!.sha256,
            originalJson: JSON.stringify(s.original),
            thoughtState: s.thought.state,
            thoughtNext: s.thought.nextAction,
            thoughtPurpose: s.thought.purpose,
            thought: s.thought.text,
            clearAction: s.clearAction,
            toolCallJson: JSON.stringify(s.toolCall),
            boxJson: s.box ? JSON.stringify(s.box) : null,
            candidateBoxJson: JSON.stringify(s.candidateBoxes),
            verdict: s.verdict,
          })),
        );
        created += 1;
        createdSteps += t.steps.length;
        if (pendingTrajectories.length >= WRITE_CHUNK) await flush();
        if (seen % PROGRESS_EVERY === 0) opts.onProgress?.({ phase: "writing", lines: seen, trajectories: created, steps: createdSteps });
      }
      await flush();
      await tx.importBatch.update({
        where: { id: batch.id },
        data: { trajectories: created, steps: createdSteps, duplicates, finishedAt: new Date() },
      });
      opts.onProgress?.({ phase: "writing", lines: seen, trajectories: created, steps: createdSteps });
      await recordAudit(tx, {
        actor: opts.actor ?? CLI_ACTOR,
        action: "import.batch",
        entityType: "import_batch",
        entityId: batch.id,
        after: { project: projectName, format: opts.format, file: opts.displayName ?? path.basename(opts.file), trajectories: created, steps: createdSteps, duplicates },
      });
      return { batchId: batch.id, trajectories: created, steps: createdSteps, duplicates };
    },
    { timeout: 60 * 60 * 1000, maxWait: 60 * 1000 },
  );
  return { ok: true, project: projectName, screenshots: unique.size, ...result };
}

async function insertScreenshots(tx: Tx, infos: ImageInfo[]): Promise<void> {
  const CHUNK = 500;
  for (let i = 0; i < infos.length; i += CHUNK) {
    const chunk = infos.slice(i, i + CHUNK);
    const existing = new Set(
      (await tx.screenshot.findMany({ where: { sha256: { in: chunk.map((c) => c.sha256) } }, select: { sha256: true } })).map((s) => s.sha256),
    );
    const fresh = chunk.filter((c) => !existing.has(c.sha256));
    if (fresh.length > 0) await tx.screenshot.createMany({ data: fresh });
  }
}
