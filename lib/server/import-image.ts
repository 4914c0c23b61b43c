// One read per screenshot: the import reads each file once into memory, hashes those bytes and reads
// the size from the same buffer (PNG's IHDR directly; other formats through sharp's header parser on
// the buffer), then stores the same buffer. No second read, no decode.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import sharp, { type Metadata } from "sharp";
import { AppError } from "./errors";
import type { ImageInfo } from "./screenshot-store";

const MIME_BY_FORMAT: Record<string, string> = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk; null when the bytes are not a PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString("latin1", 12, 16) !== "IHDR") return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Hash and measure image bytes; `file` names it in messages. Throws when they are not a PNG, JPEG or WebP. */
export async function inspectImageBytes(file: string, bytes: Buffer): Promise<ImageInfo> {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const png = pngSize(bytes);
  if (png && png.width > 0 && png.height > 0) return { sha256, ...png, bytes: bytes.length, mime: "image/png" };
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

/** Read a screenshot once: its bytes and what inspectImageBytes says of them. */
export async function readImage(file: string): Promise<{ info: ImageInfo; bytes: Buffer }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    throw new AppError("unprocessable", `screenshot file not found: ${file}`);
  }
  return { info: await inspectImageBytes(file, bytes), bytes };
}
