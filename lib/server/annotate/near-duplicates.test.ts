// Issue 27 item 3 over the studio's tables: each screenshot's perceptual hash is computed once and stored on
// its row, and grouping reads those hashes, never the images: it still groups after every stored image file
// is gone.
// A real SQLite studio and a real import of PNGs with structure (a blank screen hashes to 0).
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { hashHex } from "@/lib/domain/near-duplicates";
import type { Db } from "../db";
import { importFile } from "../import";
import type { Actor } from "@/lib/domain/permissions";
import { nearDuplicateGroups, readSignatures, storeScreenshotHashes } from "./near-duplicates";
import { makeCopies } from "./overlap";
import { freshStudio } from "../testing/fixtures";

/** A 540x1200 screen: dark bars at the given rows over a light background, `tag` in a PNG text chunk (its own sha256). */
async function screen(bars: number[], tag: string, shift = 0): Promise<Buffer> {
  const rects = bars.map((y, i) => `<rect x="${40 + shift + i * 30}" y="${y}" width="${200 + i * 40}" height="90" fill="#222"/>`).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="540" height="1200"><rect width="540" height="1200" fill="#eee"/>${rects}</svg>`;
  return sharp(Buffer.from(svg))
    .png()
    .withMetadata()
    .withExif({ IFD0: { ImageDescription: tag } })
    .toBuffer();
}

let db: Db;
let dir: string;
const id: Record<string, string> = {};

beforeAll(async () => {
  const s = await freshStudio();
  db = s.db;
  dir = s.dir;
  // "first" and its re-run "again" (the same screens re-encoded, one moved 2 px); "other": the same task and
  // actions over different screens; "elsewhere": different instruction over the first's screens.
  const files: Record<string, Buffer> = {
    a1: await screen([100, 700], "a1"),
    a2: await screen([300, 900, 1000], "a2"),
    b1: await screen([100, 700], "b1", 2),
    b2: await screen([300, 900, 1000], "b2"),
    c1: await screen([500, 520, 1100], "c1"),
    c2: await screen([50], "c2"),
  };
  for (const [name, bytes] of Object.entries(files)) await writeFile(path.join(dir, `${name}.png`), bytes);
  const line = (goal: string, shots: string[]) =>
    JSON.stringify({
      goal,
      app: "Clock",
      steps: shots.map((shot, i) => ({
        action_content: i === 0 ? { action: "click", coordinate: [100, 200] } : { action: "type", text: "7:00" },
        thought: "Go on.",
        action_description: "Go on",
        screenshot: `${shot}.png`,
      })),
    });
  const file = path.join(dir, "seed.jsonl");
  await writeFile(
    file,
    [
      line("Set an alarm for 7", ["a1", "a2"]),
      line("set an  ALARM for 7", ["b1", "b2"]),
      line("Set an alarm for 7", ["c1", "c2"]),
      line("Start a timer", ["a1", "a2"]),
    ].join("\n") + "\n",
  );
  expect((await importFile({ file, format: "ui-s1", screenshotsDir: dir, db })).ok).toBe(true);
  for (const [k, goal] of [
    ["first", "Set an alarm for 7"],
    ["again", "set an  ALARM for 7"],
    ["elsewhere", "Start a timer"],
  ] as const) {
    id[k] = (await db.trajectory.findFirstOrThrow({ where: { instruction: goal } })).id;
  }
  id.other = (
    await db.trajectory.findFirstOrThrow({ where: { instruction: "Set an alarm for 7", NOT: { id: id.first } }, orderBy: { id: "asc" } })
  ).id;
  if (id.other === id.first) throw new Error("seed");
});

describe("near-duplicate hashes stored per screenshot", () => {
  it("every imported screenshot gets its dHash stored by the import, the one `bridge dedupe` computes from the file", async () => {
    // Made at import, from the decode that proved each screenshot: nothing is left for the lazy pass.
    expect(await storeScreenshotHashes(db)).toBe(0);
    const rows = await db.screenshot.findMany({ select: { sha256: true, dhash: true } });
    expect(rows).toHaveLength(6);
    for (const r of rows) expect(r.dhash).toMatch(/^[0-9a-f]{16}$/);
    const { dHash } = await import("@/lib/bridge/dedupe");
    const shaOf = async (name: string) =>
      (await import("node:crypto"))
        .createHash("sha256")
        .update(await (await import("node:fs/promises")).readFile(path.join(dir, `${name}.png`)))
        .digest("hex");
    for (const name of ["a1", "c2"]) {
      const sha = await shaOf(name);
      expect(rows.find((r) => r.sha256 === sha)!.dhash, name).toBe(hashHex(await dHash(path.join(dir, `${name}.png`))));
    }
  });

  it("groups the re-run with the original from the stored hashes alone, with the images deleted", async () => {
    await rm(path.join(dir, "screenshots"), { recursive: true, force: true });
    const { groups, hashedNow } = await nearDuplicateGroups(db);
    expect(hashedNow).toBe(0);
    expect(groups).toHaveLength(1);
    const members = [groups[0]!.keeper.key, ...groups[0]!.duplicates.map((d) => d.key)].sort();
    expect(members).toEqual([id.first!, id.again!].sort());
    // The same task over other screens, and other words over the same screens, stay apart.
    expect(members).not.toContain(id.other);
    expect(members).not.toContain(id.elsewhere);
  });

  it("never groups an overlap copy with its original (copies repeat it on purpose)", async () => {
    const admin: Actor = { id: "copier", email: "copier@test.local", name: "Copier", role: "admin" };
    await db.$transaction((tx) => makeCopies(tx, admin, id.elsewhere!, 2));
    expect(await db.trajectory.count({ where: { copyOfId: id.elsewhere! } })).toBe(2);
    const { groups } = await nearDuplicateGroups(db);
    expect(groups.map((g) => [g.keeper.key, ...g.duplicates.map((d) => d.key)].sort())).toEqual([[id.first!, id.again!].sort()]);
  });

  it("hashes screenshots that have no stored hash (imported before the import hashed), once, then reads them", async () => {
    const s = await freshStudio();
    const file = path.join(s.dir, "one.jsonl");
    await writeFile(path.join(s.dir, "x.png"), await screen([100, 400], "x"));
    await writeFile(
      file,
      JSON.stringify({
        goal: "Open mail",
        app: "Mail",
        steps: [{ action_content: { action: "click", coordinate: [1, 1] }, thought: "t", action_description: "d", screenshot: "x.png" }],
      }) + "\n",
    );
    expect((await importFile({ file, format: "ui-s1", screenshotsDir: s.dir, db: s.db })).ok).toBe(true);
    const made = (await s.db.screenshot.findFirstOrThrow()).dhash;
    await s.db.screenshot.updateMany({ data: { dhash: null } });
    expect((await readSignatures(s.db)).unhashed).toBe(1);
    expect(await storeScreenshotHashes(s.db)).toBe(1);
    expect(await storeScreenshotHashes(s.db)).toBe(0);
    const read = await readSignatures(s.db);
    expect(read.unhashed).toBe(0);
    expect(read.signatures).toHaveLength(1);
    // The lazy pass and the import agree.
    expect((await s.db.screenshot.findFirstOrThrow()).dhash).toBe(made);
  });
});
