// Issue 27: the import makes each screenshot's near-duplicate hash (dHash) from the decode that proves the
// screenshot, and writes it with the screenshot's row, so grouping needs no lazy pass after a fresh import.
// The hash must be the one the lazy pass (dHashOfImage, lib/server/annotate/near-duplicates.ts) computes from the
// stored file: checked here over the fixtures' real screenshots, PNGs decoded on the reader threads and
// JPEG/WebP copies of the cookbook's decoded on the import's own thread. Hashes stored before the definition
// changed (dHashOf: shrunk, then grey) are cleared by a migration, for the lazy pass to make again.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { copyFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COOKBOOK_EN_PNG, COOKBOOK_ZH_PNG, MOBILE_R1_RELEASE_JSONL, MOBILE_R1_RELEASE_TAP_JSONL } from "@/fixtures";
import { hashHex } from "@/lib/domain/near-duplicates";
import type { Db } from "../db";
import { importFile } from "./import-file";
import { loadMigrations, migrate } from "../db/migrate";
import { dHashOfImage, readSignatures, storeScreenshotHashes } from "../annotate/near-duplicates";
import { readScreenshot } from "../object-store/screenshots";
import { freshStudio } from "../testing/fixtures";
import { hasPostgres, startPostgres } from "../testing/postgres";

/** A UI-S1 line of one step per screenshot file name. */
const uiS1Line = (goal: string, shots: string[]) =>
  JSON.stringify({
    goal,
    app: "Settings",
    steps: shots.map((screenshot) => ({
      action_content: { action: "click", coordinate: [10, 20] },
      thought: "Go on.",
      action_description: "Go on",
      screenshot,
    })),
  });

/** Every screenshot row with the lazy pass's hash of its stored file beside the hash the import stored. */
async function storedAndLazy(db: Db) {
  const rows = await db.screenshot.findMany({ select: { sha256: true, mime: true, dhash: true }, orderBy: { sha256: "asc" } });
  return Promise.all(
    rows.map(async (r) => ({
      sha256: r.sha256,
      mime: r.mime,
      stored: r.dhash,
      lazy: hashHex(await dHashOfImage((await readScreenshot(r.sha256, r.mime, "original")).bytes)),
    })),
  );
}

/** An import fills in the hash of a screenshot the studio held without one (imported before hashing at import). */
async function fillsInOldRows({ db, dir }: { db: Db; dir: string }): Promise<void> {
  await copyFile(COOKBOOK_EN_PNG, path.join(dir, "en.png"));
  await copyFile(COOKBOOK_ZH_PNG, path.join(dir, "zh.png"));
  const first = path.join(dir, "first.jsonl");
  await writeFile(first, `${uiS1Line("Open the settings", ["en.png"])}\n${uiS1Line("Open the mail", ["zh.png"])}\n`);
  expect(await importFile({ file: first, format: "ui-s1", screenshotsDir: dir, db })).toMatchObject({ ok: true });
  // As rows imported before the import hashed look.
  await db.screenshot.updateMany({ data: { dhash: null } });
  expect((await readSignatures(db)).unhashed).toBe(2);

  const second = path.join(dir, "second.jsonl");
  await writeFile(second, `${uiS1Line("Open the display settings", ["en.png"])}\n`);
  expect(await importFile({ file: second, format: "ui-s1", screenshotsDir: dir, db })).toMatchObject({ ok: true, trajectories: 1 });
  const rows = await storedAndLazy(db);
  const en = rows.find((r) => r.stored !== null)!;
  expect(rows.filter((r) => r.stored !== null)).toHaveLength(1);
  expect(en.stored).toBe(en.lazy);
  // The screenshot no new trajectory showed is hashed by the lazy pass, to the value the import would have made.
  expect(await storeScreenshotHashes(db)).toBe(1);
  for (const r of await storedAndLazy(db)) expect(r.stored).toBe(r.lazy);
  expect((await readSignatures(db)).unhashed).toBe(0);
  await db.$disconnect();
}

describe("the dHash made at import", () => {
  it("is stored for every screenshot and equals the lazy pass's hash of the same file, bit for bit", async () => {
    const { db, dir } = await freshStudio();
    // The Mobile-R1 fixture's 25 screenshots (1080x2400, 1440x3200 and scaled ones), decoded on the reader threads.
    for (const file of [MOBILE_R1_RELEASE_JSONL, MOBILE_R1_RELEASE_TAP_JSONL]) {
      expect(await importFile({ file, format: "mobile-r1", db })).toMatchObject({ ok: true });
    }
    // The cookbook's two real screenshots as PNG, JPEG and WebP (the last two are decoded on the import's thread).
    const shots: string[] = [];
    for (const [name, png] of [
      ["en", COOKBOOK_EN_PNG],
      ["zh", COOKBOOK_ZH_PNG],
    ] as const) {
      await copyFile(png, path.join(dir, `${name}.png`));
      await sharp(png)
        .jpeg({ quality: 85 })
        .toFile(path.join(dir, `${name}.jpg`));
      await sharp(png)
        .webp({ quality: 80 })
        .toFile(path.join(dir, `${name}.webp`));
      shots.push(`${name}.png`, `${name}.jpg`, `${name}.webp`);
    }
    const file = path.join(dir, "cookbook.jsonl");
    await writeFile(file, `${uiS1Line("Open the settings", shots)}\n`);
    expect(await importFile({ file, format: "ui-s1", screenshotsDir: dir, db })).toMatchObject({ ok: true, steps: 6 });

    const rows = await storedAndLazy(db);
    expect(rows).toHaveLength(25 + 6);
    expect(new Set(rows.map((r) => r.mime))).toEqual(new Set(["image/png", "image/jpeg", "image/webp"]));
    for (const r of rows) expect(r.stored, `${r.sha256} (${r.mime})`).toBe(r.lazy);
    // Distinct screens, distinct hashes: the stored values are real hashes, not one constant.
    expect(new Set(rows.map((r) => r.stored)).size).toBeGreaterThan(20);
    // Nothing is left for the lazy pass, and grouping reads every trajectory.
    expect(await storeScreenshotHashes(db)).toBe(0);
    expect((await readSignatures(db)).unhashed).toBe(0);
    await db.$disconnect();
  });

  it("made the older way (greyed before the shrink), is cleared by the migration that changed the definition", async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), "mig-dhash-"));
    const all = loadMigrations("sqlite");
    const at = all.findIndex((m) => m.name.endsWith("_dhash_shrink_first"));
    expect(at).toBeGreaterThan(0);
    // A database migrated to just before it, holding a screenshot hashed the older way...
    cpSync(path.resolve("prisma"), path.join(work, "prisma"), { recursive: true });
    for (const m of all.slice(at)) rmSync(path.join(work, "prisma/migrations/sqlite", m.name), { recursive: true });
    const file = path.join(work, "db.sqlite");
    const cwd = process.cwd();
    process.chdir(work);
    try {
      await migrate(`file:${file}`);
    } finally {
      process.chdir(cwd);
    }
    const raw = new Database(file);
    raw.exec(
      `INSERT INTO "Screenshot" (sha256, width, height, bytes, mime, dhash) VALUES ('s', 10, 10, 1, 'image/png', '8c8811711729e8c2')`,
    );
    raw.close();
    // ...brought up to date: the row stays, its hash is gone (the lazy pass makes it again).
    expect((await migrate(`file:${file}`)).applied).toEqual(all.slice(at).map((m) => m.name));
    const after = new Database(file, { readonly: true });
    expect(after.prepare(`SELECT sha256, dhash FROM "Screenshot"`).all()).toEqual([{ sha256: "s", dhash: null }]);
    after.close();
  });
});

describe("an old screenshot row without a hash", () => {
  it("SQLite: is given its hash when a new trajectory shows it; the lazy pass makes the rest, to the same values", async () => {
    await fillsInOldRows(await freshStudio());
  });
});

describe.skipIf(!hasPostgres)("an old screenshot row without a hash on PostgreSQL", () => {
  let server: ReturnType<typeof startPostgres>;
  beforeAll(() => {
    server = startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());

  it("is given its hash when a new trajectory shows it; the lazy pass makes the rest, to the same values", async () => {
    await fillsInOldRows(await server.freshDb());
  });
});
