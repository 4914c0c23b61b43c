import { createHash, randomUUID } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import path from "node:path";
import { buildTrajectory, mapRecord, type BuiltTrajectory, type CoordinateFrame, type ImportFormat } from "@/lib/domain/import-formats";
import type { ImportProblem } from "@/lib/domain/problems";
import type { Size } from "@/lib/domain/geometry";
import { pyJsonDumps } from "@/lib/domain/tool-call";
import { db as defaultDb, type Db } from "./db";
import { Prisma } from "./generated/sqlite/client";
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

export type ImportProgress = { phase: "checking" | "writing" | "committing"; lines: number; trajectories: number; steps: number };

export type ImportResult =
  | { ok: true; batchId: string; project: string; trajectories: number; steps: number; duplicates: number; screenshots: number }
  /** `problems` holds the first MAX_PROBLEMS problems; `problemCount` counts them all. */
  | { ok: false; problems: ImportProblem[]; problemCount: number; trajectories: number; steps: number };

export const DEFAULT_PROJECT = "default";
/** Problems kept in a failed import's answer (the count stays exact): a junk file has millions. */
export const MAX_PROBLEMS = 1000;
/** Longest problem message kept, in characters. */
export const MAX_PROBLEM_CHARS = 500;
/** Longest JSONL line read, in bytes: a longer line is one problem, never held in memory. */
export const MAX_LINE_BYTES = 16 * 1024 ** 2;
/** A running import silent for this long was interrupted (killed, crashed): its batch is failed and its staged rows deleted. */
export const STALE_IMPORT_MS = 10 * 60_000;
const PROGRESS_EVERY = 100;
/**
 * Staged per write: at most this many trajectories or steps, so a save never waits long behind one
 * (measured: 10 trajectories per write gave a save p95 about a quarter of 50's while importing).
 */
const STAGE_TRAJECTORIES = 10;
const STAGE_STEPS = 80;
/** How often a running import renews its batch's heartbeat (far below STALE_IMPORT_MS). */
const HEARTBEAT_MS = 5_000;
const DELETE_CHUNK = 2000;
/** Longest stretch of import work between two turns of the event loop. */
const YIELD_EVERY_MS = 10;

/** The first MAX_PROBLEMS problems, and an exact count of all. */
class ProblemList {
  readonly kept: ImportProblem[] = [];
  count = 0;
  add(problems: ImportProblem[]): void {
    for (const p of problems) {
      this.count += 1;
      if (this.kept.length < MAX_PROBLEMS) {
        this.kept.push(p.message.length > MAX_PROBLEM_CHARS ? { ...p, message: `${p.message.slice(0, MAX_PROBLEM_CHARS)}…` } : p);
      }
    }
  }
}

type Line = { line: number; text: string } | { line: number; tooLong: number };

/**
 * The lines of a file, streamed: at most MAX_LINE_BYTES of one line is ever buffered (a longer
 * line is reported by its length and skipped), so a file with no line breaks cannot fill memory.
 */
async function* readLines(file: string): AsyncGenerator<Line> {
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let line = 0;
  const finish = (): Line => {
    line += 1;
    const out: Line = tooLong ? { line, tooLong: size } : { line, text: Buffer.concat(parts, size).toString("utf8").replace(/\r$/, "") };
    parts = [];
    size = 0;
    tooLong = false;
    return out;
  };
  const take = (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_LINE_BYTES) {
      tooLong = true;
      parts = [];
    } else if (!tooLong && chunk.length > 0) parts.push(chunk);
  };
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, from);
      if (nl === -1) break;
      take(chunk.subarray(from, nl));
      yield finish();
      from = nl + 1;
    }
    // Copy the tail: the stream's chunk buffer is reused.
    if (from < chunk.length) take(Buffer.from(chunk.subarray(from)));
  }
  if (size > 0 || tooLong) yield finish();
}

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
  let lastBreak = performance.now();
  for await (const read of readLines(opts.file)) {
    const line = read.line;
    const at = (p: Omit<ImportProblem, "file" | "line">): ImportProblem => ({ file: fileLabel, line, ...p });
    if ("tooLong" in read) {
      yield {
        problems: [
          at({ message: `the line is ${read.tooLong} bytes long; at most ${MAX_LINE_BYTES / 1024 ** 2} MB per trajectory is read` }),
        ],
      };
      continue;
    }
    // Let the requests this process also serves run (the upload import runs in the server):
    // buffered lines would otherwise be read back to back without a break.
    if (performance.now() - lastBreak > YIELD_EVERY_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      lastBreak = performance.now();
    }
    const text = read.text;
    if (text.trim() === "") continue;
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
 * actions, screenshots, coordinates on screen); any problem aborts with the problems (the first
 * MAX_PROBLEMS, and their exact count) and nothing written. Then the trajectories are staged in short
 * writes, invisible to the studio, and one last transaction makes them all visible at once:
 * readers see the count jump from before to after, annotators' saves wait at most one short
 * write, and a failure (or a kill) leaves no trajectory, step or screenshot row behind. Ones
 * already present (same fingerprint in the project) are counted as duplicates and skipped.
 */
export async function importFile(opts: ImportOptions): Promise<ImportResult> {
  const prisma = opts.db ?? defaultDb();
  const fileLabel = opts.displayName ?? path.basename(opts.file);
  if (!existsSync(opts.file)) throw new AppError("not_found", `file not found: ${fileLabel}`);
  const images = new Map<string, ImageInfo | string>();
  const problems = new ProblemList();
  let trajectories = 0;
  let steps = 0;
  let lines = 0;
  for await (const r of readTrajectories(opts, images)) {
    lines += 1;
    problems.add(r.problems);
    if (r.checked) {
      trajectories += 1;
      steps += r.checked.trajectory.steps.length;
    }
    if (lines % PROGRESS_EVERY === 0) opts.onProgress?.({ phase: "checking", lines, trajectories, steps });
  }
  opts.onProgress?.({ phase: "checking", lines, trajectories, steps });
  if (lines === 0) problems.add([{ file: fileLabel, message: "the file holds no trajectories" }]);
  if (problems.count > 0) return { ok: false, problems: problems.kept, problemCount: problems.count, trajectories, steps };

  const dir = opts.screenshotsDir ?? defaultScreenshotsDir(opts.file);
  // Content-addressed files are harmless if the import fails: no row refers to them.
  for (const [name, info] of images) if (typeof info !== "string") await storeScreenshot(path.join(dir, name), info);

  await sweepAbandonedImports(prisma);
  const projectName = opts.project ?? DEFAULT_PROJECT;
  const project = await prisma.project.upsert({ where: { name: projectName }, create: { name: projectName }, update: {} });
  const batch = await prisma.importBatch.create({
    data: {
      projectId: project.id,
      format: opts.format,
      fileName: fileLabel,
      fileSha256: await sha256File(opts.file),
      status: "running",
      heartbeatAt: new Date(),
      createdById: opts.actor?.id ?? null,
    },
  });
  try {
    const staged = await stage(prisma, opts, images, project.id, batch.id);
    opts.onProgress?.({ phase: "committing", lines: staged.seen, trajectories: staged.staged, steps: staged.steps });
    const result = await commitBatch(prisma, opts, batch.id, project.id, staged.duplicates);
    opts.onProgress?.({ phase: "committing", lines: staged.seen, trajectories: result.trajectories, steps: result.steps });
    await deleteStaged(prisma, batch.id);
    return { ok: true, project: projectName, screenshots: staged.screenshots, batchId: batch.id, ...result };
  } catch (e) {
    await failBatch(prisma, batch.id, e).catch(() => {});
    throw e;
  }
}

/**
 * Second pass over the file: write each new trajectory, its steps and screenshots into the staging
 * tables a few at a time, renewing the batch's heartbeat after each write.
 */
async function stage(prisma: Db, opts: ImportOptions, images: Map<string, ImageInfo | string>, projectId: string, batchId: string) {
  const fileLabel = opts.displayName ?? path.basename(opts.file);
  const known = new Set(
    (await prisma.trajectory.findMany({ where: { projectId }, select: { fingerprint: true } })).map((t) => t.fingerprint),
  );
  const shas = new Set<string>();
  /** Every distinct screenshot of the file, new trajectories or not (the count the import reports). */
  const distinct = new Set<string>();
  let staged = 0;
  let stagedSteps = 0;
  let duplicates = 0;
  let seen = 0;
  let pendingTrajectories: Prisma.ImportStagedTrajectoryCreateManyInput[] = [];
  let pendingSteps: Prisma.ImportStagedStepCreateManyInput[] = [];
  let pendingScreenshots: Prisma.ImportStagedScreenshotCreateManyInput[] = [];
  let lastBeat = Date.now();
  const flush = async () => {
    if (pendingTrajectories.length === 0 && pendingScreenshots.length === 0) return;
    const [t, st, sc] = [pendingTrajectories, pendingSteps, pendingScreenshots];
    pendingTrajectories = [];
    pendingSteps = [];
    pendingScreenshots = [];
    // No transaction around these: staged rows are invisible whatever happens, and a batch that
    // stops half-way is swept whole. Each is one short write (a few statements for SQLite's limit
    // on bound values) that Prisma prepares before it takes the database's write lock, so a save
    // waits at most for one of them.
    if (sc.length > 0) await prisma.importStagedScreenshot.createMany({ data: sc });
    if (t.length > 0) await prisma.importStagedTrajectory.createMany({ data: t });
    if (st.length > 0) await prisma.importStagedStep.createMany({ data: st });
    if (Date.now() - lastBeat < HEARTBEAT_MS) return;
    lastBeat = Date.now();
    const alive = await prisma.importBatch.updateMany({ where: { id: batchId, status: "running" }, data: { heartbeatAt: new Date() } });
    // Swept by another process that thought this import dead: stop rather than write on.
    if (alive.count !== 1) throw new AppError("conflict", `the import of ${fileLabel} was stopped; nothing was imported`);
  };
  for await (const r of readTrajectories(opts, images)) {
    if (!r.checked) throw new AppError("conflict", `${fileLabel} changed while it was being imported; nothing was imported`);
    seen += 1;
    const { trajectory: t, images: imgs, fingerprint: fp } = r.checked;
    for (const img of imgs) distinct.add(img.sha256);
    if (known.has(fp)) {
      duplicates += 1;
      continue;
    }
    known.add(fp);
    const trajectoryId = randomUUID();
    pendingTrajectories.push({
      id: trajectoryId,
      batchId,
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
    for (const [i, s] of t.steps.entries()) {
      const img = imgs[i]!;
      if (!shas.has(img.sha256)) {
        shas.add(img.sha256);
        pendingScreenshots.push({ batchId, sha256: img.sha256, width: img.width, height: img.height, bytes: img.bytes, mime: img.mime });
      }
      pendingSteps.push({
        id: randomUUID(),
        batchId,
        trajectoryId,
        index: s.index,
        screenshotSha: img.sha256,
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
      });
    }
    staged += 1;
    stagedSteps += t.steps.length;
    if (pendingTrajectories.length >= STAGE_TRAJECTORIES || pendingSteps.length >= STAGE_STEPS) await flush();
    if (seen % PROGRESS_EVERY === 0) opts.onProgress?.({ phase: "writing", lines: seen, trajectories: staged, steps: stagedSteps });
  }
  await flush();
  opts.onProgress?.({ phase: "writing", lines: seen, trajectories: staged, steps: stagedSteps });
  return { seen, staged, steps: stagedSteps, duplicates, screenshots: distinct.size };
}

const columns = (names: string[], prefix = "") => Prisma.raw(names.map((c) => `${prefix}"${c}"`).join(", "));
const TRAJECTORY_COLUMNS = [
  "fingerprint",
  "source",
  "sourceRef",
  "app",
  "instruction",
  "systemPrompt",
  "status",
  "outcome",
  "originalOutcome",
  "isDiscarded",
  "cutAfter",
  "stepCount",
  "metaJson",
];
const STEP_COLUMNS = [
  "trajectoryId",
  "index",
  "screenshotSha",
  "originalJson",
  "thoughtState",
  "thoughtNext",
  "thoughtPurpose",
  "thought",
  "clearAction",
  "toolCallJson",
  "boxJson",
  "candidateBoxJson",
  "verdict",
];

/**
 * The batch's one short-as-possible last transaction: copy its staged screenshots, trajectories and
 * steps into the studio's tables (set-based, the same SQL on SQLite and PostgreSQL) and mark it
 * succeeded. A trajectory another import added meanwhile (same fingerprint) is skipped as a duplicate.
 */
async function commitBatch(prisma: Db, opts: ImportOptions, batchId: string, projectId: string, duplicatesSeen: number) {
  const fileLabel = opts.displayName ?? path.basename(opts.file);
  return prisma.$transaction(
    async (tx) => {
      const now = new Date();
      await tx.$executeRaw`INSERT INTO "Screenshot" ("sha256", "width", "height", "bytes", "mime", "createdAt")
        SELECT "sha256", "width", "height", "bytes", "mime", ${now} FROM "ImportStagedScreenshot" WHERE "batchId" = ${batchId}
        ON CONFLICT ("sha256") DO NOTHING`;
      const stagedCount = await tx.importStagedTrajectory.count({ where: { batchId } });
      const trajectories =
        await tx.$executeRaw`INSERT INTO "Trajectory" ("id", "projectId", "batchId", ${columns(TRAJECTORY_COLUMNS)}, "createdAt", "updatedAt")
        SELECT "id", ${projectId}, ${batchId}, ${columns(TRAJECTORY_COLUMNS)}, ${now}, ${now} FROM "ImportStagedTrajectory" WHERE "batchId" = ${batchId}
        ON CONFLICT ("projectId", "fingerprint") DO NOTHING`;
      const steps = await tx.$executeRaw`INSERT INTO "Step" ("id", ${columns(STEP_COLUMNS)}, "updatedAt")
        SELECT s."id", ${columns(STEP_COLUMNS, "s.")}, ${now} FROM "ImportStagedStep" s
        WHERE s."batchId" = ${batchId} AND EXISTS (SELECT 1 FROM "Trajectory" t WHERE t."id" = s."trajectoryId" AND t."batchId" = ${batchId})`;
      const duplicates = duplicatesSeen + (stagedCount - trajectories);
      await tx.importBatch.update({
        where: { id: batchId },
        data: { status: "succeeded", trajectories, steps, duplicates, finishedAt: now, heartbeatAt: now },
      });
      await recordAudit(tx, {
        actor: opts.actor ?? CLI_ACTOR,
        action: "import.batch",
        entityType: "import_batch",
        entityId: batchId,
        after: { project: opts.project ?? DEFAULT_PROJECT, format: opts.format, file: fileLabel, trajectories, steps, duplicates },
      });
      return { trajectories, steps, duplicates };
    },
    { timeout: 10 * 60_000, maxWait: 60_000 },
  );
}

/** Delete a batch's staged rows, a few thousand per statement so no write waits long behind it. */
async function deleteStaged(prisma: Db, batchId: string): Promise<void> {
  const deletes = [
    () =>
      prisma.$executeRaw`DELETE FROM "ImportStagedStep" WHERE "id" IN (SELECT "id" FROM "ImportStagedStep" WHERE "batchId" = ${batchId} LIMIT ${Prisma.raw(String(DELETE_CHUNK))})`,
    () =>
      prisma.$executeRaw`DELETE FROM "ImportStagedTrajectory" WHERE "id" IN (SELECT "id" FROM "ImportStagedTrajectory" WHERE "batchId" = ${batchId} LIMIT ${Prisma.raw(String(DELETE_CHUNK))})`,
    () =>
      prisma.$executeRaw`DELETE FROM "ImportStagedScreenshot" WHERE "batchId" = ${batchId} AND "sha256" IN (SELECT "sha256" FROM "ImportStagedScreenshot" WHERE "batchId" = ${batchId} LIMIT ${Prisma.raw(String(DELETE_CHUNK))})`,
  ];
  for (const remove of deletes) while ((await remove()) >= DELETE_CHUNK);
}

async function failBatch(prisma: Db, batchId: string, error: unknown): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_PROBLEM_CHARS);
  await prisma.importBatch.updateMany({
    where: { id: batchId, status: "running" },
    data: { status: "failed", finishedAt: new Date(), problemsJson: JSON.stringify([{ file: "", message }]) },
  });
  await deleteStaged(prisma, batchId);
}

/**
 * Imports that stopped without finishing (the process was killed, the machine went down): batches
 * still "running" whose heartbeat is older than `staleMs` are marked failed and their staged rows
 * deleted, as are staged rows of any batch that is not running. Runs before every import.
 */
export async function sweepAbandonedImports(prisma: Db = defaultDb(), staleMs = STALE_IMPORT_MS): Promise<{ failed: number }> {
  const cutoff = new Date(Date.now() - staleMs);
  const stale = await prisma.importBatch.findMany({
    where: { status: "running", OR: [{ heartbeatAt: null }, { heartbeatAt: { lt: cutoff } }] },
    select: { id: true },
  });
  for (const b of stale) {
    await prisma.importBatch.updateMany({
      where: { id: b.id, status: "running" },
      data: {
        status: "failed",
        finishedAt: new Date(),
        problemsJson: JSON.stringify([{ file: "", message: "the import was interrupted; nothing was imported" }]),
      },
    });
  }
  const leftovers = new Set<string>();
  for (const model of [prisma.importStagedTrajectory, prisma.importStagedStep, prisma.importStagedScreenshot] as unknown as {
    findMany(a: object): Promise<{ batchId: string }[]>;
  }[]) {
    for (const r of await model.findMany({ distinct: ["batchId"], select: { batchId: true } })) leftovers.add(r.batchId);
  }
  const running = new Set(
    (await prisma.importBatch.findMany({ where: { id: { in: [...leftovers] }, status: "running" }, select: { id: true } })).map(
      (b) => b.id,
    ),
  );
  for (const id of leftovers) if (!running.has(id)) await deleteStaged(prisma, id);
  return { failed: stale.length };
}
