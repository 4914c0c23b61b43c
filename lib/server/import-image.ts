// One read per screenshot: the import's reader thread (import-reader.ts) reads each file once, hashes
// those bytes and reads a PNG's size from its IHDR; what it cannot measure (JPEG, WebP) is measured here
// through sharp's header parser on the same buffer, which is then stored. No second read, no decode.
import { createHash } from "node:crypto";
import type { Metadata } from "sharp";
import { AppError } from "./errors";
import type { RawImage } from "./import-reader";
import type { ImageInfo } from "./screenshot-store";

const MIME_BY_FORMAT: Record<string, string> = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk; null when the bytes are not a PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString("latin1", 12, 16) !== "IHDR") return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Hash and measure image bytes; `file` names it in messages. Throws when they are not a PNG, JPEG or WebP. */
export async function inspectImageBytes(
  file: string,
  bytes: Buffer,
  sha256 = createHash("sha256").update(bytes).digest("hex"),
): Promise<ImageInfo> {
  const png = pngSize(bytes);
  if (png && png.width > 0 && png.height > 0) return { sha256, ...png, bytes: bytes.length, mime: "image/png" };
  // Loaded here, not with the module: a PNG-only import (and every other command) never needs it.
  const { default: sharp } = await import("sharp");
  let meta: Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch (e) {
    throw new AppError("unprocessable", `screenshot ${file} is not a readable image (${(e as Error).message})`);
  }
  const mime = meta.format ? MIME_BY_FORMAT[meta.format] : undefined;
  if (!mime || !meta.width || !meta.height) {
    throw new AppError("unprocessable", `screenshot ${file} is a ${meta.format ?? "unknown"} image; PNG, JPEG or WebP expected`);
  }
  return { sha256, width: meta.width, height: meta.height, bytes: bytes.length, mime };
}

/**
 * What the import's reader thread made of a file (lib/server/import-reader.ts), finished as
 * inspectImageBytes would: the same information and the same messages. `bytes` is there when the reader did not store
 * the file (not a PNG, or a store that is not a local folder): the caller stores them.
 */
export async function finishImage(file: string, raw: RawImage): Promise<{ info: ImageInfo; bytes?: Buffer }> {
  if ("missing" in raw) throw new AppError("unprocessable", `screenshot file not found: ${file}`);
  if (!("data" in raw)) return { info: { sha256: raw.sha256, width: raw.width, height: raw.height, bytes: raw.bytes, mime: "image/png" } };
  const info = raw.png
    ? { sha256: raw.sha256, ...raw.png, bytes: raw.data.length, mime: "image/png" }
    : await inspectImageBytes(file, raw.data, raw.sha256);
  return { info, bytes: raw.data };
}
