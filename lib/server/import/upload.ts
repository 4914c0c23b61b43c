import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat, statfs } from "node:fs/promises";
import path from "node:path";
import { once } from "node:events";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import busboy, { type Busboy } from "busboy";
import yauzl from "yauzl";
import { z } from "zod";
import { IMPORT_FORMATS, type CoordinateFrame } from "@/lib/domain/import-formats";
import { otherProjectChoiceSchema, type OtherProjectChoice } from "@/lib/domain/imports";
import { QWEN_MAX_PIXELS } from "@/lib/domain/geometry";
import { text } from "@/lib/domain/limits";
import { dataDir } from "../config";
import type { Db } from "../db";
import { AppError, appError } from "../http/errors";
import { DEFAULT_PROJECT, importFile, type ImportProgress, type ImportResult } from "./index";
import { CLI_ACTOR } from "../people/audit";
import { auditActor, authorizeCaller, type Caller } from "../fast/session";

/** Largest request body accepted, in bytes (checked on Content-Length and while streaming). */
export const MAX_UPLOAD_BYTES = 2 * 1024 ** 3;
/** Largest total size a zip may expand to, in bytes (counted while extracting, not trusted from headers). */
export const MAX_EXTRACTED_BYTES = 6 * 1024 ** 3;
export const MAX_ZIP_ENTRIES = 200_000;
const MAX_FIELD_BYTES = 10_000;
const MAX_FIELDS = 50;
const IMAGE_EXT = new Set([".png", ".jpg", ".jpeg", ".webp"]);

export const importUploadFields = z.object({
  format: z.enum(IMPORT_FORMATS),
  project: text("projectName")
    .trim()
    .transform((s) => s || DEFAULT_PROJECT)
    .default(DEFAULT_PROJECT),
  frame: z.enum(["original", "resized", "rel1000"]).default("original"),
  maxPixels: z.coerce.number().int().positive().default(QWEN_MAX_PIXELS),
  /** Data already in another project: the web form asks first unless the person already chose. */
  onOtherProjects: otherProjectChoiceSchema.default("ask"),
});

type ReceivedFile = { name: string; file: string; bytes: number };
type Received = { fields: Record<string, string>; files: ReceivedFile[] };

/** An upload received and laid out for importFile, in its own work folder (remove it when done). */
export type ReceivedUpload = {
  work: string;
  file: string;
  displayName: string;
  format: z.infer<typeof importUploadFields>["format"];
  project: string | undefined;
  frame: CoordinateFrame;
  onOtherProjects: OtherProjectChoice;
  /** Problems name files as the uploader knows them (images/a.png), never by the server's temporary folder. */
  hide: (message: string) => string;
};

/**
 * Receive a multipart upload (fields plus one .zip, or one .jsonl with its images) into a work
 * folder, streamed to disk, never held in memory; nothing is left behind when it is refused.
 */
export async function receiveUpload(req: Request, caller: Caller = CLI_ACTOR): Promise<ReceivedUpload> {
  authorizeCaller(caller, "import.run");
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > MAX_UPLOAD_BYTES) throw tooLarge();
  const work = path.join(dataDir(), "tmp", `upload-${Date.now()}-${randomBytes(4).toString("hex")}`);
  try {
    const received = await receiveMultipart(req, path.join(work, "incoming"));
    const fields = importUploadFields.parse(received.fields);
    const frame: CoordinateFrame = fields.frame === "resized" ? { kind: "resized", maxPixels: fields.maxPixels } : { kind: fields.frame };
    const folder = path.join(work, "data");
    const { file, displayName } = await arrangeFiles(received.files, folder, fields.format);
    const hide = (m: string) => m.replaceAll(`${folder}${path.sep}`, "");
    return {
      work,
      file,
      displayName,
      format: fields.format,
      project: fields.project,
      frame,
      onOtherProjects: fields.onOtherProjects,
      hide,
    };
  } catch (e) {
    await rm(work, { recursive: true, force: true });
    throw e;
  }
}

/** Import a received upload as one batch (in this call), then delete the upload. */
export async function importReceived(
  up: ReceivedUpload,
  caller: Caller = CLI_ACTOR,
  opts: { db?: Db; onProgress?: (p: ImportProgress) => void } = {},
): Promise<ImportResult> {
  try {
    const result = await importFile({
      file: up.file,
      format: up.format,
      project: up.project,
      frame: up.frame,
      onOtherProjects: up.onOtherProjects,
      displayName: up.displayName,
      actor: auditActor(caller),
      db: opts.db,
      onProgress: opts.onProgress,
    });
    if (result.ok) return result;
    return { ...result, problems: result.problems.map((p) => ({ ...p, message: up.hide(p.message) })) };
  } finally {
    await rm(up.work, { recursive: true, force: true });
  }
}

/** Receive a multipart upload and import it as one batch, in this call (the web route runs it as a job: import-jobs.ts). */
export async function importUpload(
  req: Request,
  caller: Caller = CLI_ACTOR,
  opts: { db?: Db; onProgress?: (p: ImportProgress) => void } = {},
): Promise<ImportResult> {
  return importReceived(await receiveUpload(req, caller), caller, opts);
}

function tooLarge(): AppError {
  return new AppError(
    "payload_too_large",
    `The upload is larger than ${MAX_UPLOAD_BYTES / 1024 ** 3} GB; split the data into smaller files.`,
  );
}

/** Put the uploaded files where importFile looks: the JSONL with an images/ folder beside it. */
async function arrangeFiles(files: ReceivedFile[], dir: string, format: string): Promise<{ file: string; displayName: string }> {
  const zips = files.filter((f) => extOf(f.name) === ".zip");
  if (zips.length > 0) {
    if (files.length !== 1) throw appError("bad_request", "error.uploadOneZip");
    const zip = zips[0]!;
    await extractZip(zip.file, dir);
    const jsonl = await findJsonl(dir, format);
    return { file: jsonl, displayName: `${zip.name}/${path.relative(dir, jsonl).split(path.sep).join("/")}` };
  }
  const jsonls = files.filter((f) => extOf(f.name) === ".jsonl");
  if (jsonls.length !== 1) throw appError("bad_request", "error.uploadOneJsonl", { n: jsonls.length });
  const other = files.find((f) => f !== jsonls[0] && !IMAGE_EXT.has(extOf(f.name)));
  if (other) throw appError("bad_request", "error.uploadNotData", { name: other.name });
  // Screenshots are found by file name: two different images with one name would be a silent mix-up.
  const seen = new Set<string>();
  for (const f of files) {
    if (seen.has(f.name)) throw appError("bad_request", "error.uploadSameName", { name: f.name });
    seen.add(f.name);
  }
  const images = path.join(dir, "images");
  await mkdir(images, { recursive: true });
  for (const f of files) await rename(f.file, f === jsonls[0] ? path.join(dir, f.name) : path.join(images, f.name));
  return { file: path.join(dir, jsonls[0]!.name), displayName: jsonls[0]!.name };
}

function extOf(name: string): string {
  return path.extname(name).toLowerCase();
}

/** A client-supplied file name reduced to a safe base name, or an error. */
function safeName(raw: string): string {
  const name = path.posix.basename(raw.replace(/\\/g, "/"));
  if (!name || name === "." || name === ".." || name.includes("\0")) throw appError("bad_request", "error.uploadBadName", { name: raw });
  return name;
}

/**
 * The JSONL to import from an extracted zip: for the studio format a studio export's
 * trajectories.jsonl, otherwise data.jsonl (shallowest), or else the only *.jsonl.
 */
async function findJsonl(dir: string, format: string): Promise<string> {
  const all = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile() && e.name.toLowerCase().endsWith(".jsonl"))
    .map((e) => path.join(e.parentPath, e.name))
    .filter((p) => !p.includes(`${path.sep}__MACOSX${path.sep}`));
  const depth = (p: string) => path.relative(dir, p).split(path.sep).length;
  const preferred = format === "studio" ? "trajectories.jsonl" : "data.jsonl";
  const data = all.filter((p) => path.basename(p) === preferred).sort((a, b) => depth(a) - depth(b));
  if (data[0]) return data[0];
  if (all.length === 1) return all[0]!;
  if (all.length === 0) throw appError("unprocessable", "error.zipNoJsonl");
  const names = all.map((p) => path.relative(dir, p)).join(", ");
  throw appError("unprocessable", "error.zipManyJsonl", { names });
}

export type ZipLimits = {
  /** Most entries accepted. */
  entries: number;
  /** Most bytes all entries may expand to, whatever the zip's size. */
  totalBytes: number;
  /** Most bytes all entries may expand to per byte of zip, above `floorBytes`: a bomb is small and expands enormously. */
  ratio: number;
  /** Any zip may expand to this much, whatever its ratio. */
  floorBytes: number;
  /** Bytes the disk must keep free after extraction. */
  reserveBytes: number;
};

export const ZIP_LIMITS: ZipLimits = {
  entries: MAX_ZIP_ENTRIES,
  totalBytes: MAX_EXTRACTED_BYTES,
  // Screenshots are PNG, JPEG or WebP (already compressed) and JSONL compresses about 5-10 times.
  ratio: 20,
  floorBytes: 256 * 1024 ** 2,
  reserveBytes: 512 * 1024 ** 2,
};

/** A size for people: MB under a GB, else GB with one decimal. */
const size = (n: number) => (n < 1024 ** 3 ? `${Math.ceil(n / 1024 ** 2)} MB` : `${(n / 1024 ** 3).toFixed(1)} GB`);

function openZip(zipPath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false }, (err, z) =>
      err || !z
        ? reject(new AppError("unprocessable", `The upload is not a readable zip file (${err?.message ?? "unknown error"}).`))
        : resolve(z),
    ),
  );
}

/** Visit every entry of the central directory in order; `visit` may be async. */
function eachEntry(zip: yauzl.ZipFile, visit: (entry: yauzl.Entry) => Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    zip.on("error", (e: Error) => reject(e instanceof AppError ? e : new AppError("unprocessable", `The zip is damaged: ${e.message}`)));
    zip.on("end", () => resolve());
    zip.on("entry", (entry: yauzl.Entry) => {
      visit(entry).then(() => zip.readEntry(), reject);
    });
    zip.readEntry();
  });
}

/**
 * Extract a zip into `dir`. Before anything is written, every entry of the central directory is
 * checked: names that would escape `dir` (absolute paths, ..), symbolic links, more than
 * `limits.entries` entries, and a declared expanded size over `limits.totalBytes`, over
 * `limits.ratio` times the zip's own size (above `limits.floorBytes`), or over the free disk space.
 * While extracting, an entry that expands past its declared size is refused (yauzl checks each
 * entry's size; the total is counted too), so the disk used never exceeds what was checked.
 */
export async function extractZip(zipPath: string, dir: string, limits: ZipLimits = ZIP_LIMITS): Promise<void> {
  const root = path.resolve(dir);
  const zipBytes = (await stat(zipPath)).size;
  let declared = 0;
  {
    const zip = await openZip(zipPath);
    try {
      if (zip.entryCount > limits.entries) {
        throw appError("payload_too_large", "error.zipTooManyEntries", { n: zip.entryCount, max: limits.entries });
      }
      const files = new Map<string, string>();
      const folders = new Map<string, string>();
      await eachEntry(zip, async (entry) => {
        const target = checkEntryName(entry, root);
        declared += entry.uncompressedSize;
        if (entry.fileName.endsWith("/")) folders.set(target, entry.fileName);
        else files.set(target, entry.fileName);
        for (let dir = path.dirname(target); dir !== root && !folders.has(dir); dir = path.dirname(dir)) folders.set(dir, entry.fileName);
      });
      // A file and a folder of one name (`images` and `images/a.png`) cannot both be extracted.
      for (const [target, name] of files) {
        const inside = folders.get(target);
        if (inside !== undefined) {
          throw new AppError(
            "unprocessable",
            `The zip holds a file "${name}" and also "${inside}" inside a folder of that name; rename one of them. Nothing was extracted.`,
          );
        }
      }
    } finally {
      zip.close();
    }
  }
  const allowed = Math.min(limits.totalBytes, Math.max(limits.floorBytes, limits.ratio * zipBytes));
  if (declared > allowed) {
    const why =
      declared > limits.totalBytes
        ? `at most ${size(limits.totalBytes)} is accepted`
        : `${Math.round(declared / Math.max(1, zipBytes))} times its own size; a zip of ${size(zipBytes)} may expand to ${size(allowed)}`;
    throw new AppError(
      "payload_too_large",
      `The zip expands to ${size(declared)} (${why}); nothing was extracted. Split it, or check it is not damaged.`,
    );
  }
  await mkdir(root, { recursive: true });
  const free = await statfs(root).then(
    (f) => f.bavail * f.bsize,
    () => Number.POSITIVE_INFINITY,
  );
  if (declared + limits.reserveBytes > free) {
    throw new AppError(
      "payload_too_large",
      `The zip expands to ${size(declared)} but the server has ${size(free)} free; nothing was extracted.`,
    );
  }

  let extracted = 0;
  const zip = await openZip(zipPath);
  try {
    await eachEntry(zip, async (entry) => {
      const name = entry.fileName;
      const target = checkEntryName(entry, root);
      if (name.endsWith("/")) {
        await mkdir(target, { recursive: true });
        return;
      }
      await mkdir(path.dirname(target), { recursive: true });
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
        zip.openReadStream(entry, (err, s) =>
          err || !s ? reject(appError("unprocessable", "error.zipEntryUnreadable", { name })) : resolve(s),
        ),
      );
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          extracted += chunk.length;
          if (extracted > declared) {
            cb(appError("payload_too_large", "error.zipExpandsPast", { size: size(declared) }));
            return;
          }
          cb(null, chunk);
        },
      });
      try {
        await pipeline(stream, counter, createWriteStream(target));
      } catch (e) {
        if (e instanceof AppError) throw e;
        // yauzl's own check: more bytes than the entry declares.
        throw new AppError(
          "unprocessable",
          `The zip entry "${name}" is damaged or larger than it declares (${(e as Error).message}); it was refused.`,
        );
      }
    });
  } finally {
    zip.close();
  }
}

/** The path an entry extracts to, or an error for names that escape the folder and for links. */
function checkEntryName(entry: yauzl.Entry, root: string): string {
  const name = entry.fileName;
  const target = path.resolve(root, name);
  if (path.isAbsolute(name) || /^[a-zA-Z]:/.test(name) || (target !== root && !target.startsWith(root + path.sep))) {
    throw appError("unprocessable", "error.zipOutside", { name });
  }
  const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
  if (mode === 0o120000) throw appError("unprocessable", "error.zipLink", { name });
  return target;
}

/**
 * Stream a multipart/form-data body to disk with busboy: text fields are collected (small), file parts are
 * written to `dir` under their base names. Counts bytes and stops at MAX_UPLOAD_BYTES.
 */
export async function receiveMultipart(req: Request, dir: string): Promise<Received> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type) || !req.body) throw appError("bad_request", "error.uploadMultipart");
  let parser: Busboy;
  try {
    parser = busboy({
      headers: { "content-type": type },
      // Browsers send file names as raw UTF-8 bytes.
      defParamCharset: "utf8",
      limits: { fieldSize: MAX_FIELD_BYTES, fields: MAX_FIELDS, headerPairs: 32 },
    });
  } catch {
    throw appError("bad_request", "error.uploadMultipart");
  }
  await mkdir(dir, { recursive: true });
  const fields: Record<string, string> = {};
  const files: ReceivedFile[] = [];
  const writes: Promise<void>[] = [];
  let failure: AppError | null = null;
  const fail = (e: AppError) => {
    failure ??= e;
  };
  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) fail(new AppError("bad_request", `form field "${name}" is too long`));
    else fields[name] = value;
  });
  parser.on("fieldsLimit", () => fail(new AppError("bad_request", `the form has more than ${MAX_FIELDS} fields`)));
  parser.on("file", (_field, stream, info) => {
    // A file input left empty sends a part with filename="": skip it like a text field nobody reads.
    if (!info.filename) {
      stream.resume();
      return;
    }
    const name = safeName(info.filename);
    const entry: ReceivedFile = { name, file: path.join(dir, `${files.length}-${name}`), bytes: 0 };
    files.push(entry);
    stream.on("data", (chunk: Buffer) => {
      entry.bytes += chunk.length;
    });
    const sink = createWriteStream(entry.file);
    writes.push(pipeline(stream, sink));
  });
  let parseError: unknown = null;
  const finished = new Promise<void>((resolve, reject) => {
    parser.on("close", resolve);
    parser.on("error", (e) => {
      parseError = e;
      reject(e);
    });
  });
  // Until the body is fed, a parse error is only recorded; awaiting `finished` below reports it.
  finished.catch(() => undefined);

  const reader = req.body.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > MAX_UPLOAD_BYTES) throw tooLarge();
      if (failure) throw failure;
      if (!parser.write(value)) await Promise.race([once(parser, "drain"), finished]);
    }
    parser.end();
    await finished;
    await Promise.all(writes);
  } catch (e) {
    await reader.cancel().catch(() => {});
    parser.destroy();
    await Promise.allSettled(writes);
    if (failure) throw failure;
    // Only what busboy found wrong with the body is the sender's fault; a write that failed (a full disk)
    // goes up as it is, to be answered in its own words.
    if (e !== parseError) throw e;
    // busboy's words for a body that stops before its closing boundary.
    if (e instanceof Error && /unexpected end of (form|file)/i.test(e.message)) throw appError("bad_request", "error.uploadEndedEarly");
    throw new AppError("bad_request", "malformed multipart body");
  }
  if (failure) throw failure;
  return { fields, files };
}
