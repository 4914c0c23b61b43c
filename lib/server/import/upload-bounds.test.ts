// Hostile uploads are refused within bounded memory and disk (issue 11, finding 6): a zip bomb is
// refused before anything is extracted, a zip that lies about its sizes stops at what it declared,
// and a junk upload keeps only the first problems (counted exactly) in a process whose JS heap is
// capped far below what keeping them all would need.
import { spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_PROBLEMS } from "./import-file";
import { extractZip, ZIP_LIMITS } from "./zip";
import { freshStudio } from "../testing/fixtures";
import { fileContent, junkLineCount, junkLines, writeMultipart, zipBomb } from "../testing/hostile-uploads";

const ROOT = process.cwd();

/** Run the upload import on a multipart body in its own process with the JS heap capped at `heapMB`. */
function uploadInChild(body: string, dataDir: string, heapMB: number) {
  const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "lib/server/testing/upload-file.ts", body], {
    cwd: ROOT,
    // NODE_OPTIONS, not a node flag: tsx runs the script in a child process, which inherits the env.
    env: {
      ...process.env,
      NODE_OPTIONS: `--max-old-space-size=${heapMB}`,
      STUDIO_DATA_DIR: dataDir,
      DATABASE_URL: `file:${path.join(dataDir, "studio.db")}`,
    },
    encoding: "utf8",
    maxBuffer: 16 << 20,
  });
  expect(r.status, r.stderr.slice(-3000)).toBe(0);
  return JSON.parse(r.stdout.trim().split("\n").pop()!) as Record<string, unknown> & { peakRssMB: number; tmpLeft: number };
}

async function filesUnder(dir: string): Promise<{ count: number; bytes: number }> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  let bytes = 0;
  let count = 0;
  for (const e of names) {
    if (!e.isFile()) continue;
    count += 1;
    bytes += (await stat(path.join(e.parentPath, e.name))).size;
  }
  return { count, bytes };
}

describe("zip bombs", () => {
  it("are refused from the zip's directory, before one byte is extracted", async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), "bomb-"));
    const bomb = path.join(work, "bomb.zip");
    await zipBomb(bomb, 60, 100 * 1024 ** 2); // the bomb: about 6 MB expanding to 6 GB
    const zipBytes = (await stat(bomb)).size;
    expect(zipBytes).toBeLessThan(8 * 1024 ** 2);
    const out = path.join(work, "out");
    const t0 = Date.now();
    await expect(extractZip(bomb, out)).rejects.toThrow(
      /^The zip expands to 5\.9 GB \(\d+ times its own size; a zip of \d MB may expand to 256 MB\); nothing was extracted/,
    );
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(await filesUnder(out)).toEqual({ count: 0, bytes: 0 });
  });

  it("over the absolute limit are refused whatever their ratio", async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), "bomb-"));
    const bomb = path.join(work, "bomb.zip");
    await zipBomb(bomb, 2, 8 * 1024 ** 2);
    const out = path.join(work, "out");
    await expect(extractZip(bomb, out, { ...ZIP_LIMITS, totalBytes: 10 * 1024 ** 2, ratio: 1e9 })).rejects.toThrow(
      /expands to 16 MB \(at most 10 MB is accepted\)/,
    );
    expect(await filesUnder(out)).toEqual({ count: 0, bytes: 0 });
    // The same zip within the limits extracts.
    await extractZip(bomb, out, { ...ZIP_LIMITS, ratio: 1e9 });
    expect(await filesUnder(out)).toEqual({ count: 2, bytes: 16 * 1024 ** 2 });
  });

  it("that declare less than they hold stop at what they declared", async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), "liar-"));
    const honest = path.join(work, "honest.zip");
    await zipBomb(honest, 1, 50 * 1024 ** 2);
    // Rewrite the sizes in the local header and the central directory: 50 MB becomes 1,000 bytes.
    const bytes = await readFile(honest);
    const patchSize = (sig: number, offset: number) => {
      for (let i = bytes.indexOf(Buffer.from([sig & 0xff, (sig >> 8) & 0xff, (sig >> 16) & 0xff, sig >>> 24])); i !== -1;) {
        bytes.writeUInt32LE(1000, i + offset);
        i = bytes.indexOf(Buffer.from([sig & 0xff, (sig >> 8) & 0xff, (sig >> 16) & 0xff, sig >>> 24]), i + 4);
      }
    };
    patchSize(0x02014b50, 24); // central directory: uncompressed size
    const liar = path.join(work, "liar.zip");
    await writeFile(liar, bytes);
    const out = path.join(work, "out");
    await expect(extractZip(liar, out)).rejects.toThrow(/damaged or larger than it declares|expands past/);
    expect((await filesUnder(out)).bytes).toBeLessThanOrEqual(1000 + 64 * 1024);
  });

  it("through the upload: refused with a clear error, no files left, bounded memory", async () => {
    const { dir } = await freshStudio();
    const bomb = path.join(dir, "bomb.zip");
    await zipBomb(bomb, 60, 100 * 1024 ** 2);
    const body = path.join(dir, "bomb.body");
    await writeMultipart(body, { format: "mobile-r1" }, "bomb.zip", fileContent(bomb));
    const r = uploadInChild(body, dir, 128);
    expect(r).toMatchObject({ outcome: "refused", code: "payload_too_large", tmpLeft: 0 });
    expect(r.message).toMatch(/The zip expands to 5\.9 GB .*nothing was extracted/);
    expect(r.peakRssMB).toBeLessThan(400);
  });
});

describe("a junk upload", () => {
  it("keeps the first problems and counts them all, in a process whose heap could not hold them all", async () => {
    const { dir } = await freshStudio();
    const bytes = 64 * 1024 ** 2;
    const body = path.join(dir, "junk.body");
    await writeMultipart(body, { format: "mobile-r1" }, "junk.jsonl", junkLines(bytes, 128));
    // 524,288 problems: kept as objects (each with its message) they need more than this heap.
    const r = uploadInChild(body, dir, 96);
    expect(r).toMatchObject({ outcome: "problems", problemCount: junkLineCount(bytes, 128), kept: MAX_PROBLEMS, tmpLeft: 0 });
    expect(r.first).toMatchObject({ file: "junk.jsonl", line: 1 });
    expect(String((r.first as { message: string }).message)).toMatch(/^broken JSON/);
    expect(r.peakRssMB).toBeLessThan(400);
  });

  it("with no line breaks at all is one problem, never read into memory whole", async () => {
    const { dir } = await freshStudio();
    const bytes = 80 * 1024 ** 2;
    const body = path.join(dir, "one-line.body");
    await writeMultipart(body, { format: "mobile-r1" }, "junk.jsonl", junkLines(bytes, bytes + 1));
    const r = uploadInChild(body, dir, 64);
    expect(r).toMatchObject({ outcome: "problems", problemCount: 1, kept: 1, tmpLeft: 0 });
    expect(String((r.first as { message: string }).message)).toMatch(
      /the line is 83886080 bytes long; at most 16 MB per trajectory is read/,
    );
    expect(r.peakRssMB).toBeLessThan(400);
  });

  it("named .zip is refused as not a zip", async () => {
    const { dir } = await freshStudio();
    const body = path.join(dir, "junk-zip.body");
    await writeMultipart(body, { format: "mobile-r1" }, "data.zip", junkLines(8 * 1024 ** 2));
    const r = uploadInChild(body, dir, 96);
    expect(r).toMatchObject({ outcome: "refused", code: "unprocessable", tmpLeft: 0 });
    expect(r.message).toMatch(/not a readable zip file/);
  });
});
