// Reading a file's trajectories: each line parsed, mapped, its screenshots read (on the reader thread)
// and the trajectory built and fingerprinted, a few lines ahead of the one being staged.
import { createHash, type Hash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { buildTrajectory, mapRecord, type BuiltTrajectory, type DraftTrajectory } from "@/lib/domain/import-formats";
import { LIMITS } from "@/lib/domain/limits";
import { problemOf, type ImportProblem } from "@/lib/domain/problems";
import type { Size } from "@/lib/domain/geometry";
import { pyJsonDumps } from "@/lib/domain/tool-call";
import { AppError, ImageProblem } from "../errors";
import { storeScreenshotBytes, type ImageInfo } from "../object-store";
import { finishImage, type ImportedImage } from "./image";
import type { ScreenshotReader } from "./reader";
import { objectStoreConfig } from "../env";
import type { TaskPool } from "../db";
import { MAX_LINE_BYTES, type ImportOptions } from "./options";
import { nestedDeeperThan, readLines } from "./lines";

/**
 * Lines read ahead of the one being finished (parsed, screenshots being read), so the reader threads
 * always have work. Into a bucket the screenshots' bytes come back to this thread to be uploaded: there
 * none, one line at a time as before the reader threads, so one trajectory's screenshots at most wait in memory.
 */
const LOOKAHEAD = 16;
const LOOKAHEAD_BUCKET = 0;
/** Longest stretch of import work between two turns of the event loop. */
const YIELD_EVERY_MS = 10;

export type Checked = { line: number; trajectory: BuiltTrajectory; images: ImportedImage[]; fingerprint: string };
export type LineResult = { checked?: Checked; problems: ImportProblem[] };
/** A screenshot read (its information), or the problem reading it. */
export type KnownImage = ImportedImage | ImageProblem["problem"] | Promise<ImportedImage | ImageProblem["problem"]>;

/**
 * Read a JSONL file of trajectories line by line, yielding each fully checked trajectory or its
 * problems, in line order. Each screenshot file is read once (by file name), on a reader thread:
 * hashed and measured from the same bytes, and stored while `storing()` says so. Up to LOOKAHEAD more lines
 * are in progress at once, so this thread parses and checks the next lines while the reader reads the
 * screenshots of the earlier ones (into a bucket: no line ahead). Memory: those lines' trajectories, the screenshots the reader holds,
 * and a small record per distinct screenshot.
 */
export async function* readTrajectories(
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
