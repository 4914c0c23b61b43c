import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { Metadata } from "sharp";
import { DISPLAY_VARIANT_WIDTH } from "@/lib/domain/geometry";
import { LIMITS } from "@/lib/domain/limits";
import { dataDir } from "../env";
import { appError, ImageProblem } from "../errors";
import { objectStore } from "./store";

export type ImageInfo = { sha256: string; width: number; height: number; bytes: number; mime: string };

const MIME_BY_FORMAT: Record<string, string> = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" };
const EXT_BY_MIME: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };
/** Width of the display variant the viewer loads (lib/domain/geometry, shared with the canvas). */
export const DISPLAY_WIDTH = DISPLAY_VARIANT_WIDTH;

/** sha256 of a file, streamed. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Hash and measure an image file; throws a message naming the file when it is missing or not an image. */
export async function inspectImage(file: string): Promise<ImageInfo> {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    throw new ImageProblem("screenshotMissing", { file });
  }
  // sharp (half a second to load) is loaded by what uses it, not with this module, which every command imports.
  const { default: sharp } = await import("sharp");
  let meta: Metadata;
  try {
    meta = await sharp(file).metadata();
  } catch (e) {
    throw new ImageProblem("screenshotUnreadable", { file, detail: (e as Error).message });
  }
  const mime = meta.format ? MIME_BY_FORMAT[meta.format] : undefined;
  if (!mime || !meta.width || !meta.height) {
    throw new ImageProblem("screenshotFormat", { file, format: meta.format ?? "unknown" });
  }
  return { sha256: await sha256File(file), width: meta.width, height: meta.height, bytes: size, mime };
}

/** A stored original's key in the object store: screenshots/<ab>/<sha256>.<ext>. */
export function screenshotKey(sha256: string, mime: string): string {
  return `screenshots/${sha256.slice(0, 2)}/${sha256}${screenshotExt(mime)}`;
}

/** The extension a stored original has (".png", ".jpg", ".webp"). */
export function screenshotExt(mime: string): string {
  return `.${EXT_BY_MIME[mime] ?? "bin"}`;
}

/** A display variant's key: variants/<ab>/<sha256>-w<width>.webp. */
export function variantKey(sha256: string): string {
  return `variants/${sha256.slice(0, 2)}/${sha256}-w${DISPLAY_WIDTH}.webp`;
}

/** Where a stored original lives when the store is the local folder (the default): <data>/screenshots/<ab>/<sha256>.<ext>. */
export function screenshotFile(sha256: string, mime: string): string {
  return path.join(dataDir(), ...screenshotKey(sha256, mime).split("/"));
}

/** Copy a file into the content-addressed store (a no-op when the same content is already there); returns its key. */
export async function storeScreenshot(file: string, info: ImageInfo): Promise<string> {
  const key = screenshotKey(info.sha256, info.mime);
  const store = objectStore();
  if (!(await store.exists(key))) await store.putFile(key, file, info.mime);
  return key;
}

/** Store an image already in memory (hashed and measured by the caller); returns its key. */
export async function storeScreenshotBytes(bytes: Uint8Array, info: ImageInfo): Promise<string> {
  const key = screenshotKey(info.sha256, info.mime);
  const store = objectStore();
  if (!(await store.exists(key))) await store.putBytes(key, bytes, info.mime);
  return key;
}

const notStored = (sha256: string) => appError("not_found", "error.screenshotMissing", { id: sha256 });

/** A smaller WebP for the viewer, made once with sharp and kept in the store beside the originals; returns its key. */
export async function displayVariant(sha256: string, mime: string): Promise<string> {
  const store = objectStore();
  const key = variantKey(sha256);
  if (await store.exists(key)) return key;
  const source = await store.read(screenshotKey(sha256, mime));
  if (!source) throw notStored(sha256);
  const { default: sharp } = await import("sharp");
  let data: Buffer;
  try {
    data = await sharp(source, { limitInputPixels: LIMITS.screenshotPixels })
      .resize({ width: DISPLAY_WIDTH, withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
  } catch (e) {
    // Stored before imports decoded every screenshot: said in words, not a stack trace on every view.
    console.error(`screenshot ${sha256}: the display variant could not be made`, e);
    throw appError("unprocessable", "error.screenshotUndecodable", { sha: sha256.slice(0, 12) });
  }
  await store.putBytes(key, data, "image/webp");
  return key;
}

/** A stored screenshot, streamed: the display WebP, or the original as imported. */
export async function openScreenshot(
  sha256: string,
  mime: string,
  variant: "display" | "original",
): Promise<{ body: ReadableStream<Uint8Array>; size: number; contentType: string }> {
  const store = objectStore();
  // One request for a variant already made (the usual case), not a check and then a read.
  let found = await store.open(variant === "display" ? variantKey(sha256) : screenshotKey(sha256, mime));
  if (!found && variant === "display") found = await store.open(await displayVariant(sha256, mime));
  if (!found) throw notStored(sha256);
  return { ...found, contentType: variant === "display" ? "image/webp" : mime };
}

/** A stored screenshot's bytes: the display WebP, or the original as imported. */
export async function readScreenshot(
  sha256: string,
  mime: string,
  variant: "display" | "original",
): Promise<{ bytes: Uint8Array<ArrayBuffer>; contentType: string }> {
  const key = variant === "display" ? await displayVariant(sha256, mime) : screenshotKey(sha256, mime);
  const bytes = await objectStore().read(key);
  if (!bytes) throw notStored(sha256);
  return { bytes: new Uint8Array(bytes), contentType: variant === "display" ? "image/webp" : mime };
}

/** Put a stored original at `dest` (an export folder): a hard link on local disk, a download from a bucket. */
export async function copyScreenshotTo(sha256: string, mime: string, dest: string): Promise<boolean> {
  try {
    if (!(await objectStore().copyToFile(screenshotKey(sha256, mime), dest))) throw notStored(sha256);
    return true;
  } catch (e) {
    // Already there (an export places each screenshot once, found by trying): nothing to do.
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
}
