import { createHash, randomBytes } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { copyFile, mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp, { type Metadata } from "sharp";
import { DISPLAY_VARIANT_WIDTH } from "@/lib/domain/geometry";
import { dataDir } from "./config";
import { AppError } from "./errors";

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
    throw new AppError("unprocessable", `screenshot file not found: ${file}`);
  }
  let meta: Metadata;
  try {
    meta = await sharp(file).metadata();
  } catch (e) {
    throw new AppError("unprocessable", `screenshot ${file} is not a readable image (${(e as Error).message})`);
  }
  const mime = meta.format ? MIME_BY_FORMAT[meta.format] : undefined;
  if (!mime || !meta.width || !meta.height) {
    throw new AppError("unprocessable", `screenshot ${file} is a ${meta.format ?? "unknown"} image; PNG, JPEG or WebP expected`);
  }
  return { sha256: await sha256File(file), width: meta.width, height: meta.height, bytes: size, mime };
}

/** Where a stored screenshot lives: <data>/screenshots/<ab>/<sha256>.<ext>. */
export function screenshotFile(sha256: string, mime: string): string {
  return path.join(dataDir(), "screenshots", sha256.slice(0, 2), `${sha256}.${EXT_BY_MIME[mime] ?? "bin"}`);
}

async function writeAtomically(target: string, write: (tmp: string) => Promise<void>): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const tmp = `${target}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await write(tmp);
    await rename(tmp, target);
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
}

/** Copy a file into the content-addressed store (a no-op when the same content is already there). */
export async function storeScreenshot(file: string, info: ImageInfo): Promise<string> {
  const target = screenshotFile(info.sha256, info.mime);
  if (!existsSync(target)) await writeAtomically(target, (tmp) => copyFile(file, tmp));
  return target;
}

/** Write bytes already in memory (and hashed: `info`) into the store; a no-op when that content is there. */
export async function storeScreenshotBytes(bytes: Uint8Array, info: ImageInfo): Promise<string> {
  const target = screenshotFile(info.sha256, info.mime);
  if (!existsSync(target)) await writeAtomically(target, (tmp) => writeFile(tmp, bytes));
  return target;
}

/** A smaller WebP for the viewer, made once with sharp and cached beside the originals. */
export async function displayVariant(sha256: string, mime: string): Promise<string> {
  const target = path.join(dataDir(), "variants", sha256.slice(0, 2), `${sha256}-w${DISPLAY_WIDTH}.webp`);
  if (existsSync(target)) return target;
  const source = screenshotFile(sha256, mime);
  if (!existsSync(source)) throw new AppError("not_found", `screenshot ${sha256} is not in the store`);
  const data = await sharp(source).resize({ width: DISPLAY_WIDTH, withoutEnlargement: true }).webp({ quality: 82 }).toBuffer();
  await writeAtomically(target, (tmp) => writeFile(tmp, data));
  return target;
}

/** A stored screenshot's bytes: the display WebP, or the original as imported. */
export async function readScreenshot(
  sha256: string,
  mime: string,
  variant: "display" | "original",
): Promise<{ bytes: Uint8Array<ArrayBuffer>; contentType: string }> {
  const file = variant === "display" ? await displayVariant(sha256, mime) : screenshotFile(sha256, mime);
  if (!existsSync(file)) throw new AppError("not_found", `screenshot ${sha256} is not in the store`);
  return { bytes: new Uint8Array(await readFile(file)), contentType: variant === "display" ? "image/webp" : mime };
}
