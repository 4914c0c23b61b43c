// Extracting an uploaded zip: every entry checked before anything is written, and the bytes counted while writing.
import { createWriteStream } from "node:fs";
import { mkdir, stat, statfs } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import yauzl from "yauzl";
import { env } from "../env";
import { AppError, appError } from "../errors";

/** Largest total size a zip may expand to, in bytes (counted while extracting, not trusted from headers). */
export const MAX_EXTRACTED_BYTES = 6 * 1024 ** 3;
export const MAX_ZIP_ENTRIES = 200_000;

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

/** The reserve when STUDIO_IMPORT_DISK_RESERVE_MB is unset: room for the database and the exports to grow. */
export const DEFAULT_RESERVE_MB = 512;

/** The limits an upload's zip is extracted under; the disk reserve is the operator's (STUDIO_IMPORT_DISK_RESERVE_MB). */
export function zipLimits(): ZipLimits {
  return {
    entries: MAX_ZIP_ENTRIES,
    totalBytes: MAX_EXTRACTED_BYTES,
    // Screenshots are PNG, JPEG or WebP (already compressed) and JSONL compresses about 5-10 times.
    ratio: 20,
    floorBytes: 256 * 1024 ** 2,
    reserveBytes: (env().STUDIO_IMPORT_DISK_RESERVE_MB ?? DEFAULT_RESERVE_MB) * 1024 ** 2,
  };
}

/** A size for people: MB under a GB, else GB with one decimal. */
const size = (n: number) => (n < 1024 ** 3 ? `${Math.ceil(n / 1024 ** 2)} MB` : `${(n / 1024 ** 3).toFixed(1)} GB`);

function openZip(zipPath: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(zipPath, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false }, (err, z) =>
      err || !z ? reject(appError("unprocessable", "error.zipUnreadable", { detail: err?.message ?? "unknown error" })) : resolve(z),
    ),
  );
}

/** Visit every entry of the central directory in order; `visit` may be async. */
function eachEntry(zip: yauzl.ZipFile, visit: (entry: yauzl.Entry) => Promise<void>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    zip.on("error", (e: Error) => reject(e instanceof AppError ? e : appError("unprocessable", "error.zipDamaged", { detail: e.message })));
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
 * `limits.ratio` times the zip's own size (above `limits.floorBytes`), or over the free disk space less
 * `limits.reserveBytes`.
 * While extracting, an entry that expands past its declared size is refused (yauzl checks each
 * entry's size; the total is counted too), so the disk used never exceeds what was checked.
 */
export async function extractZip(zipPath: string, dir: string, limits: ZipLimits = zipLimits()): Promise<void> {
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
          throw appError("unprocessable", "error.zipFileAndFolder", { name, inside });
        }
      }
    } finally {
      zip.close();
    }
  }
  const allowed = Math.min(limits.totalBytes, Math.max(limits.floorBytes, limits.ratio * zipBytes));
  if (declared > allowed) {
    throw declared > limits.totalBytes
      ? appError("payload_too_large", "error.zipTooBig", { size: size(declared), max: size(limits.totalBytes) })
      : appError("payload_too_large", "error.zipExpandsTooMuch", {
          size: size(declared),
          times: Math.round(declared / Math.max(1, zipBytes)),
          zipSize: size(zipBytes),
          allowed: size(allowed),
        });
  }
  await mkdir(root, { recursive: true });
  const free = await statfs(root).then(
    (f) => f.bavail * f.bsize,
    () => Number.POSITIVE_INFINITY,
  );
  if (declared + limits.reserveBytes > free) {
    throw appError("payload_too_large", "error.zipNoSpace", {
      size: size(declared),
      reserve: size(limits.reserveBytes),
      free: size(free),
    });
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
        throw appError("unprocessable", "error.zipEntryDamaged", { name, detail: (e as Error).message });
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
