// The import's reader thread (lib/server/import/reader.ts) against real files, and an import through it
// end to end: what it stores is where the studio looks for it, byte for byte, for PNG and JPEG alike,
// and a store it cannot write stops the import with the file system's error, leaving nothing visible.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { hashHex } from "@/lib/domain/near-duplicates";
import { importFile } from "./import-file";
import { READER_LIMITS } from "./image";
import { ScreenshotReader } from "./reader";
import { dHashOfImage } from "../annotate/near-duplicates";
import { screenshotFile } from "../object-store/screenshots";
import { blankPng, freshStudio } from "../testing/fixtures";
import { undecodablePngs } from "../testing/hostile-uploads";

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#336699" } })
    .jpeg()
    .toBuffer();

describe("the import's screenshot reader thread", () => {
  const reader = new ScreenshotReader(READER_LIMITS);
  afterAll(() => reader.close());

  it("reads, hashes, measures and stores a PNG once; hands back what it cannot measure or store", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "reader-"));
    const png = await blankPng(1080, 2400);
    const jpg = await jpeg(720, 1280);
    await writeFile(path.join(dir, "a.png"), png);
    await writeFile(path.join(dir, "b.jpg"), jpg);
    const store = path.join(dir, "store");
    const files = ["a.png", "b.jpg", "none.png"].map((f) => path.join(dir, f));

    const [a, b, none] = await reader.read({ files, storeDir: store, wantBytes: false });
    // Decoded on the reader thread, from the bytes it read, before it was stored; that decode made its dHash.
    const dhash = hashHex(await dHashOfImage(png));
    expect(a).toEqual({ sha256: sha(png), width: 1080, height: 2400, bytes: png.length, stored: true, decoded: true, dhash });
    const stored = path.join(store, sha(png).slice(0, 2), `${sha(png)}.png`);
    expect(readFileSync(stored).equals(png)).toBe(true);
    expect(readdirSync(path.dirname(stored))).toEqual([path.basename(stored)]);
    // Not a PNG: its bytes come back for sharp on the import's thread, and nothing is stored for it.
    expect(b).toMatchObject({ sha256: sha(jpg), png: null });
    expect(b).not.toHaveProperty("decoded");
    expect(Buffer.isBuffer((b as { data: Buffer }).data) && (b as { data: Buffer }).data.equals(jpg)).toBe(true);
    expect(existsSync(path.join(store, sha(jpg).slice(0, 2)))).toBe(false);
    expect(none).toEqual({ missing: true });

    // Already in the store: left as it is (not rewritten).
    const before = statSync(stored);
    const [again] = await reader.read({ files: files.slice(0, 1), storeDir: store, wantBytes: false });
    expect(again).toMatchObject({ stored: true });
    expect(statSync(stored).ino).toBe(before.ino);
    expect(statSync(stored).mtimeMs).toBe(before.mtimeMs);

    // No local store (a bucket): the PNG's bytes come back measured, for the caller to store.
    const [forBucket] = await reader.read({ files: files.slice(0, 1), storeDir: null, wantBytes: true });
    expect(forBucket).toMatchObject({ sha256: sha(png), png: { width: 1080, height: 2400 }, decoded: true, dhash });
    expect((forBucket as { data: Buffer }).data.equals(png)).toBe(true);
    // Nothing to store (a problem was found): measured only, no bytes.
    const [checkOnly] = await reader.read({ files: files.slice(0, 1), storeDir: null, wantBytes: false });
    expect(checkOnly).toEqual({ sha256: sha(png), width: 1080, height: 2400, bytes: png.length, stored: false, decoded: true, dhash });
  });

  it("decodes each PNG from the bytes it read and stores none that does not decode or is over the limits", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "reader-"));
    const broken = undecodablePngs();
    const good = await blankPng(1080, 2400);
    for (const [name, bytes] of Object.entries(broken)) await writeFile(path.join(dir, name), bytes);
    await writeFile(path.join(dir, "good.png"), good);
    // The same good bytes under a second name.
    await writeFile(path.join(dir, "again.png"), good);
    const store = path.join(dir, "store");
    const names = [...Object.keys(broken), "good.png", "again.png"];
    const out = await reader.read({ files: names.map((n) => path.join(dir, n)), storeDir: store, wantBytes: false });
    const byName = Object.fromEntries(names.map((n, i) => [n, out[i]]));
    // libvips' own words come back for the import to name the file with.
    expect(byName["garbage-pixels.png"]).toMatchObject({ stored: false, undecodable: expect.stringMatching(/\w/) });
    expect(byName["polyglot.png"]).toMatchObject({ stored: false, undecodable: expect.stringMatching(/\w/) });
    // Over the size limits: not decoded (it would not fit), not stored; the import's thread refuses it by its size.
    for (const n of ["header-only.png", "wide.png"]) {
      expect(byName[n]).toMatchObject({ stored: false });
      expect(byName[n]).not.toHaveProperty("decoded");
      expect(byName[n]).not.toHaveProperty("undecodable");
    }
    expect(byName["good.png"]).toMatchObject({ sha256: sha(good), stored: true, decoded: true });
    expect(byName["again.png"]).toMatchObject({ sha256: sha(good), stored: true, decoded: true });
    // Only the good screenshot is in the store.
    const stored = readdirSync(store, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(stored.map((e) => e.name)).toEqual([`${sha(good)}.png`]);
  });

  it("answers a store it cannot write with the file system's error, and goes on reading", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "reader-"));
    const png = await blankPng(100, 200, "#101010");
    await writeFile(path.join(dir, "a.png"), png);
    await writeFile(path.join(dir, "store"), "a file where the store's folder should be");
    const files = [path.join(dir, "a.png")];
    await expect(reader.read({ files, storeDir: path.join(dir, "store"), wantBytes: false })).rejects.toMatchObject({
      code: expect.stringMatching(/^(ENOTDIR|EEXIST)$/),
    });
    expect(await reader.read({ files, storeDir: null, wantBytes: false })).toEqual([
      {
        sha256: sha(png),
        width: 100,
        height: 200,
        bytes: png.length,
        stored: false,
        decoded: true,
        dhash: hashHex(await dHashOfImage(png)),
      },
    ]);
  });

  it("refuses requests once closed", async () => {
    const r = new ScreenshotReader(READER_LIMITS);
    await r.close();
    await expect(r.read({ files: [], storeDir: null, wantBytes: false })).rejects.toThrow(/closed/);
  });
});

describe("an import through the reader thread", () => {
  async function dataset() {
    const dir = await mkdtemp(path.join(os.tmpdir(), "reader-import-"));
    await mkdir(path.join(dir, "images"));
    const shots = {
      "home.png": await blankPng(1080, 2400),
      "mail.jpg": await jpeg(1080, 2400),
      "list.png": await blankPng(1080, 2400, "#222222"),
    };
    for (const [name, bytes] of Object.entries(shots)) await writeFile(path.join(dir, "images", name), bytes);
    const step = (image: string, action: object) => ({
      image,
      thought: "t",
      subtask: "s",
      action: JSON.stringify({ name: "mobile_use", arguments: action }),
      bbox: null,
    });
    const trajectories = [
      [step("home.png", { action: "open", text: "Gmail" }), step("mail.jpg", { action: "click", coordinate: [540, 1200] })],
      // The same screenshot again, in another trajectory: read and stored once.
      [step("home.png", { action: "open", text: "Files" }), step("list.png", { action: "wait", time: 1 })],
    ];
    const lines = trajectories.map((t, i) =>
      JSON.stringify({
        app_name: `app ${i}`,
        instruction: `task ${i}`,
        image_width: 1080,
        image_height: 2400,
        trajectory_length: t.length,
        trajectory: t,
      }),
    );
    await writeFile(path.join(dir, "data.jsonl"), `${lines.join("\n")}\n`);
    return { file: path.join(dir, "data.jsonl"), shots };
  }

  it("stores every screenshot, PNG or not, where the studio reads it, byte for byte", async () => {
    const { db } = await freshStudio();
    const { file, shots } = await dataset();
    const r = await importFile({ file, format: "mobile-r1", db });
    expect(r).toMatchObject({ ok: true, trajectories: 2, steps: 4, screenshots: 3 });
    const rows = await db.screenshot.findMany({ orderBy: { sha256: "asc" } });
    expect(rows.map((s) => [s.sha256, s.mime, s.width, s.height, s.bytes]).sort()).toEqual(
      [
        [sha(shots["home.png"]), "image/png", 1080, 2400, shots["home.png"].length],
        [sha(shots["mail.jpg"]), "image/jpeg", 1080, 2400, shots["mail.jpg"].length],
        [sha(shots["list.png"]), "image/png", 1080, 2400, shots["list.png"].length],
      ].sort(),
    );
    for (const s of rows) expect(sha(readFileSync(screenshotFile(s.sha256, s.mime)))).toBe(s.sha256);
    await db.$disconnect();
  });

  it("a store it cannot write stops the import with the error; nothing is imported", async () => {
    const { db, dir } = await freshStudio();
    await writeFile(path.join(dir, "screenshots"), "a file where the store's folder should be");
    const { file } = await dataset();
    await expect(importFile({ file, format: "mobile-r1", db })).rejects.toMatchObject({
      code: expect.stringMatching(/^(ENOTDIR|EEXIST)$/),
    });
    expect(await db.trajectory.count()).toBe(0);
    expect(await db.step.count()).toBe(0);
    expect(await db.screenshot.count()).toBe(0);
    expect(await db.importStagedStep.count()).toBe(0);
    expect(await db.importBatch.findMany({ select: { status: true } })).toEqual([{ status: "failed" }]);
    await db.$disconnect();
  });
});
