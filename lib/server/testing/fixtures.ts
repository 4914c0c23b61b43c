// Test fixtures built from real sample data: nothing here is mocked, it only lays files on disk.
import { createReadStream } from "node:fs";
import { copyFile, mkdtemp, writeFile } from "node:fs/promises";
import { crc32 } from "node:zlib";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import sharp from "sharp";
import { UI_S1_EVAL_JSONL } from "@/fixtures";
import { migrate } from "../db/migrate";
import { createDb, type Db } from "../db";

/** This process's migrated SQLite database, migrated once and copied for each fresh studio. */
let template: Promise<string> | undefined;
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), "studio-template-")), "studio.db");
    await migrate(`file:${file}`);
    return file;
  })();
  return template;
}

/**
 * A fresh SQLite database and data dir in a temp folder, migrated (a copy of this process's migrated
 * template: the same bytes a migration writes, without running the migrations again); sets the env
 * the server reads.
 */
export async function freshStudio(): Promise<{ dir: string; url: string; db: Db }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "studio-test-"));
  const file = path.join(dir, "studio.db");
  const url = `file:${file}`;
  process.env.STUDIO_DATA_DIR = dir;
  process.env.DATABASE_URL = url;
  await copyFile(await migratedTemplate(), file);
  return { dir, url, db: createDb(url) };
}

/** A blank phone screenshot of the given size, as PNG bytes. */
export async function blankPng(width: number, height: number, color = "#f4f4f4"): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

/**
 * A folder holding an image for every screenshot file name the UI-S1 file references (AndroidControl
 * images are not redistributable). Each gets the device size its episode's coordinates imply:
 * 1080x2400, or 1440x3120 for the few larger-screen episodes. Every file is a distinct PNG (the
 * same pixels with its own name in a tEXt chunk), so each screenshot has its own sha256 as real ones do.
 */
export async function uiS1ScreenshotDir(file = UI_S1_EVAL_JSONL): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "ui-s1-images-"));
  const small = await blankPng(1080, 2400);
  const large = await blankPng(1440, 3120, "#eeeeee");
  const written = new Set<string>();
  const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const t = JSON.parse(line) as {
      steps: { screenshot: string; action_content: Record<string, unknown>; check_options?: { candidate_bbox?: number[][] } }[];
    };
    // Action points, and the top-left corners of element boxes, must be on screen.
    const points = t.steps.flatMap((s) => [
      ...["coordinate", "coordinate2"].map((k) => s.action_content[k] as number[] | undefined),
      ...(s.check_options?.candidate_bbox ?? []),
    ]);
    const isLarge = points.some((p) => p && (p[0]! > 1080 || p[1]! > 2400));
    for (const s of t.steps) {
      const name = path.basename(s.screenshot);
      if (written.has(name)) continue;
      written.add(name);
      await writeFile(path.join(dir, name), withTextChunk(isLarge ? large : small, "Title", name));
    }
  }
  return dir;
}

/** Insert a PNG tEXt chunk just before IEND: same image, different bytes. */
export function withTextChunk(png: Buffer, key: string, value: string): Buffer {
  const data = Buffer.from(`${key}\0${value}`, "latin1");
  const type = Buffer.from("tEXt", "latin1");
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), len, type, data, crc, png.subarray(iend)]);
}
