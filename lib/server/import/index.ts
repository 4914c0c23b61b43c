import { createHash, type Hash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import {
  buildTrajectory,
  mapRecord,
  type BuiltTrajectory,
  type CoordinateFrame,
  type DraftTrajectory,
  type ImportFormat,
} from "@/lib/domain/import-formats";
import { LIMITS } from "@/lib/domain/limits";
import { problemOf, type ImportProblem, type ProblemParams } from "@/lib/domain/problems";
import type { OtherProjectChoice, OtherProjectCopies } from "@/lib/domain/imports";
import type { Size } from "@/lib/domain/geometry";
import { pyJsonDumps } from "@/lib/domain/tool-call";
import { db as defaultDb, type Db } from "../db";
import { Prisma } from "../db/prisma-namespace";
import { AppError, appError } from "../http/errors";
import { CLI_ACTOR, recordAudit, type AuditActor } from "../people/audit";
import { storeScreenshotBytes, type ImageInfo } from "../object-store/screenshots";
import { openBulkWriter, type BulkWriter, type StagedChunk } from "../db/bulk";
import { finishImage, ImageProblem, READER_LIMITS, type ImportedImage } from "./image";
import { ScreenshotReader } from "./reader";
import { objectStoreConfig } from "../config";
import { TaskPool } from "../db/bulk/pool";
import { timeOrderedId } from "../db/bulk/ids";
import { originalColumn } from "../db/original-column";

export type ImportOptions = {
  file: string;
  format: ImportFormat;
  /** Folder screenshots are looked up in, by file name. Default: <file's folder>/images, else the file's folder. */
  screenshotsDir?: string;
  project?: string;
  frame?: CoordinateFrame;
  /** Trajectories already in another project: ask first (nothing is written), import them anyway, or skip them. Default: import. */
  onOtherProjects?: OtherProjectChoice;
  /** Name recorded on the batch (an upload's original file name). */
  displayName?: string;
  onProgress?: (p: ImportProgress) => void;
  /** Who runs it, for the batch and the audit trail (default: the command line). */
  actor?: AuditActor;
  db?: Db;
};

export type ImportProgress = { phase: "checking" | "writing" | "committing"; lines: number; trajectories: number; steps: number };

export type ImportResult =
  | {
      ok: true;
      batchId: string;
      project: string;
      trajectories: number;
      steps: number;
      duplicates: number;
      screenshots: number;
      /** Trajectories of the file already in other projects, by project: imported as copies or skipped, as `onOtherProjects` says. */
      otherProjects: OtherProjectCopies;
      onOtherProjects: OtherProjectChoice;
    }
  /**
   * `problems` holds the first MAX_PROBLEMS problems; `problemCount` counts them all. With no problem
   * and `asked` set, the import stopped to ask (onOtherProjects "ask"): `asked` says which other
   * projects already hold how many of the file's trajectories. Nothing was written either way.
   */
  | { ok: false; problems: ImportProblem[]; problemCount: number; trajectories: number; steps: number; asked?: OtherProjectCopies };

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
 * Staged per write (one driver transaction): at most this many trajectories or steps, so a save never
 * waits long behind one (a chunk of 256 steps takes a few milliseconds through the driver).
 */
const STAGE_TRAJECTORIES = 40;
const STAGE_STEPS = 256;
/** Screenshots being written into the store at once (each holds its bytes in memory until written). */
const STORE_CONCURRENCY = 8;
/**
 * Lines read ahead of the one being finished (parsed, screenshots being read), so the reader threads
 * always have work. Into a bucket the screenshots' bytes come back to this thread to be uploaded: there
 * none, one line at a time as before the reader threads, so one trajectory's screenshots at most wait in memory.
 */
const LOOKAHEAD = 16;
const LOOKAHEAD_BUCKET = 0;
/** How often a running import renews its batch's heartbeat (far below STALE_IMPORT_MS). */
const HEARTBEAT_MS = 5_000;
const DELETE_CHUNK = 2000;
/** Longest stretch of import work between two turns of the event loop. */
const YIELD_EVERY_MS = 10;

const clipped = (s: string) => (s.length > MAX_PROBLEM_CHARS ? `${s.slice(0, MAX_PROBLEM_CHARS)}…` : s);
/** A problem's parameters as kept: each text as long as a message may be. */
const clipParams = (params: ProblemParams): ProblemParams =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === "string" ? clipped(v) : v]));

/** The first MAX_PROBLEMS problems, and an exact count of all. */
class ProblemList {
  readonly kept: ImportProblem[] = [];
  count = 0;
  add(problems: ImportProblem[]): void {
    for (const p of problems) {
      this.count += 1;
      if (this.kept.length < MAX_PROBLEMS) {
        this.kept.push({ ...p, message: clipped(p.message), ...(p.params ? { params: clipParams(p.params) } : {}) });
      }
    }
  }
}

type Line = { line: number; text: string } | { line: number; tooLong: number };

/**
 * The lines of the first `size` bytes of a file, streamed: at most MAX_LINE_BYTES of one line is ever
 * buffered (a longer line is reported by its length and skipped), so a file with no line breaks
 * cannot fill memory. `hash` sees every byte read.
 */
async function* readLines(file: string, size: number, hash?: Hash): AsyncGenerator<Line> {
  let parts: Buffer[] = [];
  let length = 0;
  let tooLong = false;
  let line = 0;
  const finish = (): Line => {
    line += 1;
    const out: Line = tooLong
      ? { line, tooLong: length }
      : { line, text: Buffer.concat(parts, length).toString("utf8").replace(/\r$/, "") };
    // A byte-order mark before the first line (Windows editors write one) is not part of the JSON.
    if (line === 1 && "text" in out && out.text.charCodeAt(0) === 0xfeff) out.text = out.text.slice(1);
    parts = [];
    length = 0;
    tooLong = false;
    return out;
  };
  const take = (chunk: Buffer) => {
    length += chunk.length;
    if (length > MAX_LINE_BYTES) {
      tooLong = true;
      parts = [];
    } else if (!tooLong && chunk.length > 0) parts.push(chunk);
  };
  if (size === 0) return;
  for await (const chunk of createReadStream(file, { end: size - 1, highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash?.update(chunk);
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
  if (length > 0 || tooLong) yield finish();
}

type Checked = { line: number; trajectory: BuiltTrajectory; images: ImportedImage[]; fingerprint: string };
type LineResult = { checked?: Checked; problems: ImportProblem[] };
/** A screenshot read (its information), or the problem reading it. */
type KnownImage = ImportedImage | ImageProblem["problem"] | Promise<ImportedImage | ImageProblem["problem"]>;

/**
 * Read a JSONL file of trajectories line by line, yielding each fully checked trajectory or its
 * problems, in line order. Each screenshot file is read once (by file name), on a reader thread:
 * hashed and measured from the same bytes, and stored while `storing()` says so. Up to LOOKAHEAD more lines
 * are in progress at once, so this thread parses and checks the next lines while the reader reads the
 * screenshots of the earlier ones (into a bucket: no line ahead). Memory: those lines' trajectories, the screenshots the reader holds,
 * and a small record per distinct screenshot.
 */
async function* readTrajectories(
  opts: ImportOptions,
  size: number,
  hash: Hash,
  images: Map<string, KnownImage>,
  reader: ScreenshotReader,
  store: TaskPool,
  storing: () => boolean,
): AsyncGenerator<LineResult> {
  const fileLabel = opts.displayName ?? path.basename(opts.file);
  const dir = opts.screenshotsDir ?? defaultScreenshotsDir(opts.file);
  const storeConfig = objectStoreConfig();
  const storeDir = storeConfig.kind === "local" ? path.join(storeConfig.root, "screenshots") : null;
  let lastBreak = performance.now();
  const inProgress: Promise<LineResult>[] = [];

  /** Check one parsed line: its screenshots (asked of the reader now, in line order), then the trajectory. */
  const check = async (line: number, draft: DraftTrajectory): Promise<LineResult> => {
    const at = (p: Omit<ImportProblem, "file" | "line">): ImportProblem => ({ file: fileLabel, line, ...p });
    const storeNow = storing();
    const ask = [...new Set(draft.steps.map((s) => s.screenshotName).filter((name) => !images.has(name)))];
    const fresh: { bytes: Buffer; info: ImportedImage }[] = [];
    if (ask.length > 0) {
      const files = ask.map((name) => path.join(dir, name));
      const raw = reader.read({ files, storeDir: storeNow ? storeDir : null, wantBytes: storeNow && !storeDir });
      ask.forEach((name, i) => {
        // Kept as a promise while read: later lines naming the same file wait for this read.
        const known = raw
          .then((r) => finishImage(files[i]!, r[i]!))
          .then(
            (r) => {
              if (r.bytes) fresh.push({ bytes: r.bytes, info: r.info });
              images.set(name, r.info);
              return r.info;
            },
            (e: Error) => {
              // The reader itself failing (a store that cannot be written) stops the import.
              if (!(e instanceof AppError)) throw e;
              const problem = e instanceof ImageProblem ? e.problem : problemOf("other", { detail: e.message });
              images.set(name, problem);
              return problem;
            },
          );
        known.catch(() => {});
        images.set(name, known);
      });
    }
    const problems: ImportProblem[] = [];
    const infos: (ImportedImage | undefined)[] = [];
    for (const [step, s] of draft.steps.entries()) {
      const info = await images.get(s.screenshotName)!;
      if ("code" in info) {
        problems.push(at({ step, field: "screenshot", ...info }));
        infos.push(undefined);
      } else infos.push(info);
    }
    // Content-addressed files are harmless if the import fails: no row refers to them.
    if (storeNow) for (const f of fresh) await store.add(() => storeScreenshotBytes(f.bytes, f.info));
    const sizes: (Size | undefined)[] = infos.map((i) => (i ? { width: i.width, height: i.height } : undefined));
    const built = buildTrajectory(draft, sizes, opts.frame ?? { kind: "original" });
    problems.push(...built.problems.map(at));
    if (problems.length > 0 || !built.trajectory) return { problems };
    const imgs = infos as ImportedImage[];
    return {
      checked: { line, trajectory: built.trajectory, images: imgs, fingerprint: fingerprint(built.trajectory, imgs) },
      problems: [],
    };
  };
  const queue = (result: LineResult | Promise<LineResult>) => {
    const p = Promise.resolve(result);
    // Awaited in turn below; a failure meanwhile is not an unhandled one.
    p.catch(() => {});
    inProgress.push(p);
  };

  for await (const read of readLines(opts.file, size, hash)) {
    const line = read.line;
    const at = (p: Omit<ImportProblem, "file" | "line">): ImportProblem => ({ file: fileLabel, line, ...p });
    if ("tooLong" in read) {
      queue({
        problems: [at(problemOf("lineTooLong", { bytes: read.tooLong, max: MAX_LINE_BYTES / 1024 ** 2 }))],
      });
    } else if (read.text.trim() !== "") {
      let record: unknown;
      let broken: string | undefined;
      try {
        record = JSON.parse(read.text);
      } catch (e) {
        broken = (e as Error).message;
      }
      if (broken !== undefined) queue({ problems: [at(problemOf("brokenJson", { detail: broken }))] });
      else if (nestedDeeperThan(read.text, LIMITS.jsonDepth)) {
        queue({ problems: [at(problemOf("tooDeep", { depth: LIMITS.jsonDepth }))] });
      } else {
        const mapped = mapRecord(opts.format, record, `${fileLabel}:${line}`);
        queue(mapped.draft ? check(line, mapped.draft) : { problems: mapped.problems.map(at) });
      }
    }
    while (inProgress.length > (storeDir ? LOOKAHEAD : LOOKAHEAD_BUCKET)) yield await inProgress.shift()!;
    // Let the requests this process also serves run (the upload import runs in the server):
    // buffered lines would otherwise be read back to back without a break.
    if (performance.now() - lastBreak > YIELD_EVERY_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      lastBreak = performance.now();
    }
  }
  while (inProgress.length > 0) yield await inProgress.shift()!;
}

/**
 * True when JSON text nests arrays and objects more than `max` deep. Checked on the text before the
 * record is walked: every later step (the schema, the fingerprint, the stored copy) recurses into it,
 * and 20,000 levels would overflow the stack there, failing the whole job instead of naming the line.
 */
export function nestedDeeperThan(json: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
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
 * Import a JSONL file as one all-or-nothing batch, in one pass over the file. Every line is checked
 * (JSON, schema, actions, screenshots, coordinates on screen) and, while no problem has been found,
 * its trajectory staged: written in short chunks through the database driver into staging tables the
 * studio never reads (annotators' saves wait at most one chunk). Any problem stops the staging; the
 * import goes on checking, then answers with the problems (the first MAX_PROBLEMS, and their exact
 * count) and removes what it staged and its batch, leaving the database as it was. Otherwise one last
 * transaction makes everything visible at once: readers see the count jump from before to after, and
 * a failure (or a kill) leaves no trajectory, step or screenshot row behind. Ones already present
 * (same fingerprint in the project) are counted as duplicates and skipped. Only the bytes the file
 * held when the import began are read; a file changed before the end is refused.
 */
export async function importFile(opts: ImportOptions): Promise<ImportResult> {
  const prisma = opts.db ?? defaultDb();
  const fileLabel = opts.displayName ?? path.basename(opts.file);
  const onOtherProjects = opts.onOtherProjects ?? "import";
  if (!existsSync(opts.file)) throw appError("not_found", "error.importFileMissing", { file: fileLabel });
  const before = await stat(opts.file);

  await sweepAbandonedImports(prisma);
  const projectName = opts.project ?? DEFAULT_PROJECT;
  let project = await prisma.project.findUnique({ where: { name: projectName } });
  let createdProject = false;
  if (!project) {
    project = await prisma.project.upsert({ where: { name: projectName }, create: { name: projectName }, update: {} });
    createdProject = true;
  }
  const batch = await prisma.importBatch.create({
    data: {
      projectId: project.id,
      format: opts.format,
      fileName: fileLabel,
      // Known at the end of the pass (the file is hashed as it is read).
      fileSha256: "",
      status: "running",
      heartbeatAt: new Date(),
      createdById: opts.actor?.id ?? null,
    },
  });
  const writer = await openBulkWriter(prisma);
  try {
    const staged = await stage(prisma, writer, opts, before.size, project.id, batch.id);
    if (staged.problems.count > 0 || staged.lines === 0) {
      if (staged.lines === 0) staged.problems.add([{ file: fileLabel, ...problemOf("emptyFile") }]);
      // Nothing happened: no batch, no staged row (and no project, if this import made it).
      await deleteStaged(prisma, batch.id);
      await prisma.importBatch.deleteMany({ where: { id: batch.id } });
      if (createdProject) {
        await prisma.project.deleteMany({ where: { id: project.id, trajectories: { none: {} }, batches: { none: {} } } });
      }
      const { problems } = staged;
      return { ok: false, problems: problems.kept, problemCount: problems.count, trajectories: staged.checked, steps: staged.checkedSteps };
    }
    if (onOtherProjects === "ask" && staged.otherProjects.length > 0) {
      // The person decides first: nothing of this import stays (as with problems).
      await deleteStaged(prisma, batch.id);
      await prisma.importBatch.deleteMany({ where: { id: batch.id } });
      if (createdProject) {
        await prisma.project.deleteMany({ where: { id: project.id, trajectories: { none: {} }, batches: { none: {} } } });
      }
      return {
        ok: false,
        problems: [],
        problemCount: 0,
        trajectories: staged.checked,
        steps: staged.checkedSteps,
        asked: staged.otherProjects,
      };
    }
    const after = await stat(opts.file);
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
      throw appError("conflict", "error.importFileChanged", { file: fileLabel });
    }
    await prisma.importBatch.update({ where: { id: batch.id }, data: { fileSha256: staged.fileSha256 } });
    opts.onProgress?.({ phase: "committing", lines: staged.lines, trajectories: staged.staged, steps: staged.steps });
    const result = await commitBatch(prisma, opts, batch.id, project.id, staged.duplicates);
    opts.onProgress?.({ phase: "committing", lines: staged.lines, trajectories: result.trajectories, steps: result.steps });
    await deleteStaged(prisma, batch.id);
    return {
      ok: true,
      project: projectName,
      screenshots: staged.screenshots,
      batchId: batch.id,
      otherProjects: staged.otherProjects,
      onOtherProjects,
      ...result,
    };
  } catch (e) {
    await failBatch(prisma, batch.id, e).catch(() => {});
    throw e;
  } finally {
    await writer.close();
  }
}

/**
 * The one pass over the file: check each line, store its new screenshots and stage its trajectory
 * (while no problem has been found), renewing the batch's heartbeat as it goes.
 */
async function stage(prisma: Db, writer: BulkWriter, opts: ImportOptions, size: number, projectId: string, batchId: string) {
  const fileLabel = opts.displayName ?? path.basename(opts.file);
  const known = new Set<string>();
  /** Content already in another project: fingerprint -> that project's id (the first one found). */
  const elsewhere = new Map<string, string>();
  for (const t of await prisma.trajectory.findMany({ select: { fingerprint: true, projectId: true } })) {
    if (t.projectId === projectId) known.add(t.fingerprint);
    else if (!elsewhere.has(t.fingerprint)) elsewhere.set(t.fingerprint, t.projectId);
  }
  const mode = opts.onOtherProjects ?? "import";
  /** Trajectories of this file already in other projects, per project id. */
  const copies = new Map<string, number>();
  // Asked: nothing more is staged (the import ends without writing), but every line is still read and counted.
  const isAsking = () => mode === "ask" && copies.size > 0;
  const images = new Map<string, KnownImage>();
  const problems = new ProblemList();
  const store = new TaskPool(STORE_CONCURRENCY);
  const fileHash = createHash("sha256");
  /** Screenshots staged (of new trajectories). */
  const shas = new Set<string>();
  /** Every distinct screenshot of the file, new trajectories or not (the count the import reports). */
  const distinct = new Set<string>();
  let lines = 0;
  let checked = 0;
  let checkedSteps = 0;
  let staged = 0;
  let stagedSteps = 0;
  let duplicates = 0;
  let chunk: StagedChunk = { screenshots: [], trajectories: [], steps: [] };
  let lastBeat = Date.now();
  const flush = async () => {
    if (chunk.trajectories.length === 0 && chunk.screenshots.length === 0) return;
    const full = chunk;
    chunk = { screenshots: [], trajectories: [], steps: [] };
    // No transaction spans chunks: staged rows are invisible whatever happens, and a batch that stops
    // half-way is swept whole. Each chunk is one short transaction, so a save waits at most for one.
    await writer.write(full);
    if (Date.now() - lastBeat < HEARTBEAT_MS) return;
    lastBeat = Date.now();
    const alive = await prisma.importBatch.updateMany({ where: { id: batchId, status: "running" }, data: { heartbeatAt: new Date() } });
    // Swept by another process that thought this import dead: stop rather than write on.
    if (alive.count !== 1) throw appError("conflict", "error.importStopped", { file: fileLabel });
  };
  const report = (phase: ImportProgress["phase"]) =>
    opts.onProgress?.(
      problems.count > 0
        ? { phase: "checking", lines, trajectories: checked, steps: checkedSteps }
        : { phase, lines, trajectories: staged, steps: stagedSteps },
    );
  const reader = new ScreenshotReader(READER_LIMITS);
  try {
    for await (const r of readTrajectories(opts, size, fileHash, images, reader, store, () => problems.count === 0 && !isAsking())) {
      lines += 1;
      problems.add(r.problems);
      if (r.checked) {
        checked += 1;
        checkedSteps += r.checked.trajectory.steps.length;
      }
      if (problems.count === 0 && r.checked) {
        const { trajectory: t, images: imgs, fingerprint: fp } = r.checked;
        for (const img of imgs) distinct.add(img.sha256);
        const other = known.has(fp) ? undefined : elsewhere.get(fp);
        if (other !== undefined) copies.set(other, (copies.get(other) ?? 0) + 1);
        if (known.has(fp)) duplicates += 1;
        else if (other !== undefined && mode !== "import") known.add(fp);
        else if (isAsking()) known.add(fp);
        else {
          known.add(fp);
          addRows(chunk, batchId, t, imgs, fp, shas);
          staged += 1;
          stagedSteps += t.steps.length;
          if (chunk.trajectories.length >= STAGE_TRAJECTORIES || chunk.steps.length >= STAGE_STEPS) await flush();
        }
      }
      if (lines % PROGRESS_EVERY === 0) report("writing");
    }
    if (problems.count === 0 && !isAsking()) {
      await flush();
      await store.drain();
    } else await store.drain().catch(() => {});
  } finally {
    await reader.close();
  }
  report("writing");
  const names = new Map(
    (await prisma.project.findMany({ where: { id: { in: [...copies.keys()] } }, select: { id: true, name: true } })).map((p) => [
      p.id,
      p.name,
    ]),
  );
  const otherProjects: OtherProjectCopies = [...copies]
    .map(([id, count]) => ({ project: names.get(id) ?? id, count }))
    .sort((a, b) => b.count - a.count || a.project.localeCompare(b.project));
  return {
    otherProjects,
    lines,
    checked,
    checkedSteps,
    staged,
    steps: stagedSteps,
    duplicates,
    screenshots: distinct.size,
    problems,
    fileSha256: fileHash.digest("hex"),
  };
}

/** The staged rows of one new trajectory (and of its screenshots not staged yet). */
function addRows(chunk: StagedChunk, batchId: string, t: BuiltTrajectory, imgs: ImportedImage[], fp: string, shas: Set<string>) {
  const trajectoryId = timeOrderedId();
  chunk.trajectories.push({
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
      chunk.screenshots.push({
        batchId,
        sha256: img.sha256,
        width: img.width,
        height: img.height,
        bytes: img.bytes,
        mime: img.mime,
        dhash: img.dhash,
      });
    }
    chunk.steps.push({
      id: timeOrderedId(),
      batchId,
      trajectoryId,
      index: s.index,
      screenshotSha: img.sha256,
      originalJson: originalColumn(s.original, s.elements),
      thoughtState: s.thought.state,
      thoughtNext: s.thought.nextAction,
      thoughtPurpose: s.thought.purpose,
      thought: s.thought.text,
      clearAction: s.clearAction,
      toolCallJson: JSON.stringify(s.toolCall),
      boxJson: s.box ? JSON.stringify(s.box) : null,
      candidateBoxJson: JSON.stringify(s.candidateBoxes),
      verdict: s.verdict,
      // A studio-format step keeps who wrote each field and its version, so a moved step is still a person's work.
      provenanceJson: s.provenance ? JSON.stringify(s.provenance) : null,
      version: s.version ?? 1,
    });
  }
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
  "provenanceJson",
  "version",
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
      // Each screenshot with the dHash its decode made (near-duplicate grouping reads it, never the image);
      // one the studio already holds without a hash (imported before hashing at import) gets it now.
      await tx.$executeRaw`INSERT INTO "Screenshot" ("sha256", "width", "height", "bytes", "mime", "dhash", "createdAt")
        SELECT "sha256", "width", "height", "bytes", "mime", "dhash", ${now} FROM "ImportStagedScreenshot" WHERE "batchId" = ${batchId}
        ON CONFLICT ("sha256") DO UPDATE SET "dhash" = excluded."dhash" WHERE "Screenshot"."dhash" IS NULL`;
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
    data: {
      status: "failed",
      finishedAt: new Date(),
      problemsJson: JSON.stringify([{ file: "", ...problemOf("other", { detail: message }) }]),
    },
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
        problemsJson: JSON.stringify([{ file: "", ...problemOf("interrupted") }]),
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
