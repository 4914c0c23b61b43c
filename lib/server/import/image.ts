// One read per screenshot: the import's reader thread (import-reader.ts) reads each file once, hashes
// those bytes and reads a PNG's size from its IHDR; what it cannot measure (JPEG, WebP) is measured here
// through sharp's header parser on the same buffer, which is then stored.
//
// Every screenshot is also decoded once, through sharp (libvips), before the import accepts it: a file
// whose header looks right but whose pixels do not decode (header-only, garbage pixel data, an HTML page
// behind a PNG signature) would otherwise import and then fail on every view. That one decode also makes
// the screenshot's near-duplicate hash (issue 27): the image is shrunk to the dHash's 9x8 grid (every row is
// read to make it, none is kept) by dHashOf (lib/domain/near-duplicates.ts), the function the server's lazy
// pass and `bridge dedupe` call too, so the hash stored at import is the one grouping would have computed.
// A PNG is decoded by the reader thread that read it (import-reader.ts); what that thread did not decode
// is decoded here, in the same way and with the same words.
import { createHash } from "node:crypto";
import type { Metadata, default as Sharp } from "sharp";
import { LIMITS } from "@/lib/domain/limits";
import { dHashOf, hashHex } from "@/lib/domain/near-duplicates";
import { ImageProblem } from "../errors";

// sharp (half a second to load) is loaded on first use, not with this module: commands that never read an
// image never pay for it.
let sharpModule: Promise<typeof Sharp> | undefined;
const loadSharp = (): Promise<typeof Sharp> => (sharpModule ??= import("sharp").then((m) => m.default));
import type { RawImage } from "./reader";
import type { ImageInfo } from "../object-store";
import { pngSize } from "@/lib/domain/png";

/** A screenshot the import accepted: what the store knows of it, and its dHash (16 hex digits) from the decode that proved it. */
export type ImportedImage = ImageInfo & { dhash: string };

const MIME_BY_FORMAT: Record<string, string> = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" };
const fmt = (n: number) => n.toLocaleString("en-US");

/**
 * Refuse a screenshot whose size (pixels, as its header declares) is over LIMITS.screenshotSide or
 * LIMITS.screenshotPixels, before anything decodes it: such a size is either a lie or more memory than
 * one image may take, and a width past 2^31 would not even fit the database's integer column.
 */
export function checkImageSize(file: string, size: { width: number; height: number }): void {
  const { width, height } = size;
  if (width > LIMITS.screenshotSide || height > LIMITS.screenshotSide || width * height > LIMITS.screenshotPixels) {
    throw new ImageProblem("screenshotTooLarge", {
      file,
      width: fmt(width),
      height: fmt(height),
      side: fmt(LIMITS.screenshotSide),
      pixels: fmt(LIMITS.screenshotPixels),
    });
  }
}

/**
 * Decode an image (a file path or its bytes), within LIMITS.screenshotPixels, into its dHash (dHashOf: every
 * row read and shrunk to 9x8): the proof that every row decodes, and the image's near-duplicate hash,
 * returned as 16 hex digits. Throws an AppError naming `file` when it does not decode.
 */
export async function proveDecodes(file: string, source: string | Buffer, size: { width: number; height: number }): Promise<string> {
  checkImageSize(file, size);
  try {
    const sharp = await loadSharp();
    return hashHex(await dHashOf(sharp(source, { limitInputPixels: LIMITS.screenshotPixels, failOn: "error" })));
  } catch (e) {
    throw undecodable(file, (e as Error).message);
  }
}

const undecodable = (file: string, why: string) => new ImageProblem("screenshotUndecodable", { file, detail: why.trim() });

/** The limits the import's reader threads decode within (pixels, as a PNG's header declares them). */
export const READER_LIMITS = { side: LIMITS.screenshotSide, pixels: LIMITS.screenshotPixels } as const;

/** Hash, measure and decode image bytes; `file` names it in messages. Throws when they are not a decodable PNG, JPEG or WebP. */
export async function inspectImageBytes(
  file: string,
  bytes: Buffer,
  sha256 = createHash("sha256").update(bytes).digest("hex"),
): Promise<ImportedImage> {
  const png = pngSize(bytes);
  if (png) {
    const dhash = await proveDecodes(file, bytes, png);
    return { sha256, ...png, bytes: bytes.length, mime: "image/png", dhash };
  }
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: LIMITS.screenshotPixels }).metadata();
  } catch (e) {
    throw new ImageProblem("screenshotUnreadable", { file, detail: (e as Error).message.trim() });
  }
  const mime = meta.format ? MIME_BY_FORMAT[meta.format] : undefined;
  if (!mime || !meta.width || !meta.height) {
    throw new ImageProblem("screenshotFormat", { file, format: meta.format ?? "unknown" });
  }
  const size = { width: meta.width, height: meta.height };
  const dhash = await proveDecodes(file, bytes, size);
  return { sha256, ...size, bytes: bytes.length, mime, dhash };
}

/**
 * What the import's reader thread made of a file (lib/server/import/reader.ts), finished as
 * inspectImageBytes would: the same information, the same decode and the same messages. `bytes` is
 * there when the reader did not store the file (not a PNG, or a store that is not a local folder): the
 * caller stores them. A PNG the reader measured is decoded from `file` (just read, so from the page cache).
 */
export async function finishImage(file: string, raw: RawImage): Promise<{ info: ImportedImage; bytes?: Buffer }> {
  if ("missing" in raw) throw new ImageProblem("screenshotMissing", { file });
  if (raw.undecodable !== undefined) throw undecodable(file, raw.undecodable);
  if (!("data" in raw)) {
    const size = { width: raw.width, height: raw.height };
    const dhash = raw.dhash ?? (await proveDecodes(file, file, size));
    return { info: { sha256: raw.sha256, ...size, bytes: raw.bytes, mime: "image/png", dhash } };
  }
  const info = raw.png
    ? {
        sha256: raw.sha256,
        ...raw.png,
        bytes: raw.data.length,
        mime: "image/png",
        dhash: raw.dhash ?? (await proveDecodes(file, raw.data, raw.png)),
      }
    : await inspectImageBytes(file, raw.data, raw.sha256);
  return { info, bytes: raw.data };
}
