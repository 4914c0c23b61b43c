import { createHash } from "node:crypto";
import { exportFolderManifestSchema, exportManifestSchema } from "@/lib/domain/export-manifest";
import { existsSync, readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalTrajectorySchema } from "@/lib/domain/trajectory";
import { generateDemoDataset } from "@/lib/demo/generate";
import { exportDataset } from "./dataset";
import { importFile } from "../import";
import { parseSplit } from "./split";
import { getTrajectory } from "../annotate/trajectories";
import { listTrajectories } from "../annotate/trajectory-list";
import type { TrajectoryView } from "@/lib/domain/views";
import { UI_S1_TRAIN_JSONL } from "@/fixtures";
import { freshStudio, uiS1ScreenshotDir } from "../testing/fixtures";
import { hasPostgres, startPostgres, type PostgresServer } from "../testing/postgres";
import type { Db } from "../db";
import { CLI_ACTOR } from "../people/audit";

// 32 trajectories (the file has no newline after its last line).
const TRAIN = UI_S1_TRAIN_JSONL;

const sha256Of = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** Everything a trajectory holds apart from database ids and times. */
async function contents(db: Db) {
  const rows = await db.trajectory.findMany({ select: { id: true } });
  const all = [];
  for (const r of rows) all.push(await getTrajectory(r.id, db));
  const strip = ({ id: _id, version: _v, steps, ...t }: TrajectoryView) => ({
    ...t,
    steps: steps.map(({ id: _sid, version: _sv, ...s }) => s),
  });
  return all.map(strip).sort((a, b) => (a.instruction + a.sourceRef).localeCompare(b.instruction + b.sourceRef));
}

describe("export", () => {
  it("round-trips: importing the canonical JSONL into a fresh studio gives the same trajectories", async () => {
    const a = await freshStudio();
    const images = await uiS1ScreenshotDir(TRAIN);
    expect(await importFile({ file: TRAIN, format: "ui-s1", screenshotsDir: images, db: a.db })).toMatchObject({
      ok: true,
      trajectories: 32,
    });
    // Annotate one trajectory so the round trip carries annotations, not only imported data.
    const first = (await listTrajectories({ page: 1, pageSize: 1, actor: CLI_ACTOR }, a.db)).rows[0]!;
    await a.db.trajectory.update({ where: { id: first.id }, data: { status: "approved", outcome: "success", cutAfter: 1 } });
    await a.db.step.updateMany({
      where: { trajectoryId: first.id, index: 0 },
      data: { verdict: "harmful", thoughtState: "当前在桌面", clearAction: "打开应用" },
    });

    const out = path.join(await mkdtemp(path.join(os.tmpdir(), "export-")), "ds");
    const summary = await exportDataset({ outDir: out, status: "all", db: a.db });
    expect(summary).toMatchObject({ trajectories: 32, harmfulSteps: 1 });
    const lines = readFileSync(path.join(out, "trajectories.jsonl"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(32);
    for (const l of lines) canonicalTrajectorySchema.parse(JSON.parse(l));
    const manifest = JSON.parse(readFileSync(path.join(out, "manifest.json"), "utf8"));
    // The manifest is the one schema's, field for field (lib/domain/export-manifest.ts), and the bridge reads it.
    exportManifestSchema.strict().parse(manifest);
    exportFolderManifestSchema.parse(manifest);
    expect(manifest.counts).toMatchObject({ trajectories: 32, steps: summary.steps });
    expect(Object.keys(manifest.files)).toEqual(expect.arrayContaining(["trajectories.jsonl", "mobile-r1/data.jsonl", "ui-s1/data.jsonl"]));
    // The file list names every file written but the manifest itself, each with its sha256, in the order written.
    const written = readdirSync(out, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name !== "manifest.json")
      .map((e) => path.relative(out, path.join(e.parentPath, e.name)));
    expect(Object.keys(manifest.files).sort()).toEqual(written.sort());
    for (const [rel, sha] of Object.entries(manifest.files)) expect(sha256Of(path.join(out, rel)), rel).toBe(sha);
    const listed = Object.keys(manifest.files);
    expect(listed.slice(-3)).toEqual(["trajectories.jsonl", "mobile-r1/data.jsonl", "ui-s1/data.jsonl"]);
    expect(listed.length).toBe(2 * summary.screenshots + 3);
    // Trainer settings for the export page: every SFT sample measured at the max_pixels the page proposes.
    expect(manifest.trainer).toMatchObject({ maxPixels: 1003520, minPixels: 3136, rows: manifest.counts.trainingSteps });
    expect(manifest.trainer.maxPromptTokens).toBeGreaterThan(manifest.trainer.maxImageTokens);
    expect(manifest.trainer.maxSequenceTokens).toBeGreaterThan(manifest.trainer.maxPromptTokens);

    const b = await freshStudio();
    const back = await importFile({
      file: path.join(out, "trajectories.jsonl"),
      format: "studio",
      screenshotsDir: path.join(out, "screenshots"),
      db: b.db,
    });
    expect(back).toMatchObject({ ok: true, trajectories: 32, steps: summary.steps });
    expect(await contents(b.db)).toEqual(await contents(a.db));
  });

  it("round-trips the demo data (Mobile-R1 format with tagged responses, thoughts and boxes)", async () => {
    const a = await freshStudio();
    const src = path.join(a.dir, "demo-src");
    await generateDemoDataset({ outDir: src, trajectories: 6, seed: 3 });
    expect(await importFile({ file: path.join(src, "data.jsonl"), format: "mobile-r1", db: a.db })).toMatchObject({
      ok: true,
      trajectories: 6,
    });
    const out = path.join(a.dir, "export");
    await exportDataset({ outDir: out, status: "all", db: a.db });
    const b = await freshStudio();
    // No --screenshots: an export's screenshots/ folder is found beside trajectories.jsonl.
    expect(await importFile({ file: path.join(out, "trajectories.jsonl"), format: "studio", db: b.db })).toMatchObject({
      ok: true,
      trajectories: 6,
    });
    const [ca, cb] = [await contents(a.db), await contents(b.db)];
    expect(cb).toEqual(ca);
    expect(ca.flatMap((t) => t.steps).filter((s) => s.box !== null).length).toBeGreaterThan(0);
    expect(ca.flatMap((t) => t.steps).every((s) => s.original.response?.startsWith("<think>"))).toBe(true);
  });

  it("is reproducible, filters by status, and leaves out harmful and cut steps from the Mobile-R1 file", async () => {
    const { db } = await freshStudio();
    const images = await uiS1ScreenshotDir(TRAIN);
    await importFile({ file: TRAIN, format: "ui-s1", screenshotsDir: images, db });
    // A trajectory long enough for the cut to matter (the list's first row may be a two-step one).
    const t = (await db.trajectory.findMany({ orderBy: { fingerprint: "asc" }, include: { _count: { select: { steps: true } } } })).find(
      (x) => x._count.steps >= 4,
    )!;
    await db.trajectory.update({ where: { id: t.id }, data: { status: "approved", cutAfter: 2 } });
    await db.step.updateMany({ where: { trajectoryId: t.id, index: 1 }, data: { verdict: "harmful" } });
    const dir = await mkdtemp(path.join(os.tmpdir(), "export-repro-"));

    const one = await exportDataset({ outDir: path.join(dir, "one"), db, split: parseSplit("random:7:0.5,0.5") });
    await exportDataset({ outDir: path.join(dir, "two"), db, split: parseSplit("random:7:0.5,0.5") });
    expect(one.trajectories).toBe(1); // only the approved one by default
    const read = (d: string, f: string) => readFileSync(path.join(dir, d, f), "utf8");
    expect(read("one", "trajectories.jsonl")).toBe(read("two", "trajectories.jsonl"));
    expect(read("one", "mobile-r1/data.jsonl")).toBe(read("two", "mobile-r1/data.jsonl"));
    const m1 = JSON.parse(read("one", "manifest.json"));
    const m2 = JSON.parse(read("two", "manifest.json"));
    expect({ ...m1, createdAt: 0 }).toEqual({ ...m2, createdAt: 0 });

    const r1 = JSON.parse(read("one", "mobile-r1/data.jsonl").trim());
    expect(r1.trajectory.map((s: { image: string }) => s.image)).toHaveLength(2); // steps 0 and 2: 1 is harmful, 3+ cut
    expect(r1.trajectory[0].response).toMatch(
      /^<think>\n[\s\S]*<\/think>\n<action>\n[\s\S]*<\/action>\n<tool_call>\n\{"name": "mobile_use"/,
    );
    for (const s of r1.trajectory) expect(readdirSync(path.join(dir, "one", "mobile-r1", "images"))).toContain(s.image);

    await expect(exportDataset({ outDir: path.join(dir, "one"), db })).rejects.toThrow(/already exists/);
    expect(readdirSync(dir).sort()).toEqual(["one", "two"]); // no partial folders left behind
  });

  // /dev/shm is a separate (memory) file system where there is one: a hard link across cannot be made.
  const otherFs = existsSync("/dev/shm") && statSync("/dev/shm").dev !== statSync(os.tmpdir()).dev;
  it.skipIf(!otherFs)("copies the screenshots when the export folder is on another file system than the store", async () => {
    const studio = await freshStudio();
    const images = await uiS1ScreenshotDir(TRAIN);
    await importFile({ file: TRAIN, format: "ui-s1", screenshotsDir: images, db: studio.db });
    const dir = await mkdtemp("/dev/shm/export-copy-");
    try {
      const out = path.join(dir, "ds");
      const summary = await exportDataset({ outDir: out, status: "all", db: studio.db });
      const manifest = JSON.parse(readFileSync(path.join(out, "manifest.json"), "utf8"));
      expect(Object.keys(manifest.files)).toHaveLength(2 * summary.screenshots + 3);
      for (const [rel, sha] of Object.entries(manifest.files)) {
        expect(sha256Of(path.join(out, rel)), rel).toBe(sha);
        if (rel.startsWith("screenshots/")) expect(statSync(path.join(out, rel)).nlink, rel).toBe(2); // itself and its mobile-r1 twin
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("fails naming a screenshot missing from the store, and leaves no folder behind", async () => {
    const studio = await freshStudio();
    const images = await uiS1ScreenshotDir(TRAIN);
    await importFile({ file: TRAIN, format: "ui-s1", screenshotsDir: images, db: studio.db });
    // The last trajectory's last screenshot: the export has linked many files when it meets the gap.
    const t = await studio.db.trajectory.findFirstOrThrow({ orderBy: [{ fingerprint: "desc" }, { id: "desc" }] });
    const step = await studio.db.step.findFirstOrThrow({ where: { trajectoryId: t.id }, orderBy: { index: "desc" } });
    const sha = step.screenshotSha;
    const stored = path.join(studio.dir, "screenshots", sha.slice(0, 2), `${sha}.png`);
    expect(existsSync(stored)).toBe(true);
    unlinkSync(stored);
    const dir = await mkdtemp(path.join(os.tmpdir(), "export-missing-"));
    await expect(exportDataset({ outDir: path.join(dir, "ds"), status: "all", db: studio.db })).rejects.toMatchObject({
      code: "not_found",
      message: `Screenshot ${sha} is not in the store.`,
    });
    expect(readdirSync(dir)).toEqual([]);
  });
});

/** An export of the UI-S1 fixture with one trajectory annotated (a cut, a harmful step, new text). */
async function annotatedExport(db: Db, images: string): Promise<string> {
  await importFile({ file: TRAIN, format: "ui-s1", screenshotsDir: images, db });
  const t = (
    await db.trajectory.findMany({ orderBy: [{ fingerprint: "asc" }, { id: "asc" }], include: { _count: { select: { steps: true } } } })
  ).find((x) => x._count.steps >= 4)!;
  await db.trajectory.update({ where: { id: t.id }, data: { status: "approved", outcome: "success", cutAfter: 2 } });
  await db.step.updateMany({
    where: { trajectoryId: t.id, index: 1 },
    data: { verdict: "harmful", thought: "点击“设置”<image>", clearAction: "打开设置" },
  });
  const out = path.join(await mkdtemp(path.join(os.tmpdir(), "export-dialect-")), "ds");
  await exportDataset({ outDir: out, status: "all", db });
  return out;
}

let server: PostgresServer | undefined;
describe.skipIf(!hasPostgres)("export on PostgreSQL", () => {
  beforeAll(() => {
    server = startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());

  it("writes what the same data gives on SQLite (ids and times aside)", async () => {
    const images = await uiS1ScreenshotDir(TRAIN);
    const onSqlite = await annotatedExport((await freshStudio()).db, images);
    const onPg = await annotatedExport((await server!.freshDb()).db, images);
    const read = (dir: string, f: string) => readFileSync(path.join(dir, f), "utf8");
    const canonical = (dir: string) =>
      read(dir, "trajectories.jsonl")
        .trim()
        .split("\n")
        .map((l) => {
          const { id: _id, provenance: _p, ...t } = JSON.parse(l);
          return t;
        });
    expect(canonical(onPg)).toEqual(canonical(onSqlite));
    expect(canonical(onPg).flatMap((t) => t.steps).length).toBeGreaterThan(100);
    expect(read(onPg, "mobile-r1/data.jsonl")).toBe(read(onSqlite, "mobile-r1/data.jsonl"));
    const manifest = (dir: string) => JSON.parse(read(dir, "manifest.json"));
    const { files: pgFiles, createdAt: _a, ...pg } = manifest(onPg);
    const { files: sqliteFiles, createdAt: _b, ...sqlite } = manifest(onSqlite);
    expect(pg).toEqual(sqlite);
    const shots = (files: Record<string, string>) => Object.entries(files).filter(([f]) => !f.endsWith(".jsonl"));
    expect(shots(pgFiles)).toEqual(shots(sqliteFiles));
  }, 60_000);
});
