import { existsSync, readdirSync, readFileSync } from "node:fs";
import { cp, mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { startExportInput } from "@/lib/domain/exports";
import type { Db } from "./db";
import { AppError } from "./errors";
import { exportsDir, getExport, listExports, startExportJob, waitForExportJob } from "./export-jobs";
import { importFile } from "./import";
import { screenshotFile } from "./screenshot-store";
import { UI_S1_TRAIN_JSONL } from "@/fixtures";
import { freshStudio, uiS1ScreenshotDir } from "./testing/fixtures";

// 32 trajectories of UI-S1 data.
const TRAIN = UI_S1_TRAIN_JSONL;
const ACTOR = { id: null, label: "tester@test.local" };

let db: Db;
let dir: string;

beforeAll(async () => {
  ({ db, dir } = await freshStudio());
  const images = await uiS1ScreenshotDir(TRAIN);
  expect(await importFile({ file: TRAIN, format: "ui-s1", screenshotsDir: images, db })).toMatchObject({ ok: true, trajectories: 32 });
  const first = await db.trajectory.findMany({ orderBy: { fingerprint: "asc" }, take: 3 });
  await db.trajectory.updateMany({ where: { id: { in: first.map((t) => t.id) } }, data: { status: "approved" } });
});

describe("export jobs", () => {
  it("says there is nothing yet before the first export", async () => {
    expect(await listExports()).toEqual([]);
    await expect(getExport("20260101T000000Z-all")).rejects.toMatchObject({ code: "not_found" });
  });

  it("runs in the background into the data dir's exports folder, records progress and lists the counts", async () => {
    const seen: number[] = [];
    const job = startExportJob(startExportInput.parse({ status: "all", split: "random:7:0.5,0.5" }), ACTOR, { db });
    expect(job).toMatchObject({ state: "running", counts: null, filters: { status: "all", split: "random:7:0.5,0.5", apps: [], project: null } });
    expect(job.id).toMatch(/^\d{8}T\d{6}Z-all$/);
    expect(job.outDir).toBe(path.join(dir, "exports", job.id));
    // A second export while one runs is refused rather than doubling the load.
    expect(() => startExportJob(startExportInput.parse({}), ACTOR, { db })).toThrow(/still running/);

    const poll = setInterval(() => void getExport(job.id).then((j) => seen.push(j.progress.trajectories)), 1);
    await waitForExportJob(job.id);
    clearInterval(poll);

    const done = await getExport(job.id);
    expect(done).toMatchObject({ state: "succeeded", progress: { trajectories: 32, total: 32 }, error: null });
    expect(done.counts).toMatchObject({ trajectories: 32 });
    expect(done.counts!.steps).toBeGreaterThan(32);
    expect(Object.values(done.counts!.bySplit).reduce((a, b) => a + b, 0)).toBe(32);
    expect(seen.every((n, i) => i === 0 || n >= seen[i - 1]!)).toBe(true); // progress never goes back
    const manifest = JSON.parse(readFileSync(path.join(done.outDir, "manifest.json"), "utf8"));
    expect(manifest.counts.steps).toBe(done.counts!.steps);
    expect(readdirSync(exportsDir())).toEqual([job.id]); // no partial folder left behind

    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "export.run" } });
    expect(audit).toMatchObject({ actorLabel: "tester@test.local", entityId: job.id });
  });

  it("applies the filters and lists finished exports newest first", async () => {
    const job = startExportJob(startExportInput.parse({ status: "approved", project: "  " }), ACTOR, { db });
    await waitForExportJob(job.id);
    const list = await listExports();
    expect(list.map((e) => e.id)).toEqual([job.id, expect.stringMatching(/-all$/)]);
    expect(list[0]).toMatchObject({ state: "succeeded", counts: { trajectories: 3 }, filters: { status: "approved", project: null } });
  });

  it("reads exports from their manifests after a restart (no job in memory) and skips folders that are not exports", async () => {
    const [latest] = await listExports();
    // Simulate a restart: the same folders, seen from a data dir this process has no jobs for.
    const copy = path.join(dir, "restarted");
    await mkdir(path.join(copy, "exports"), { recursive: true });
    await cp(latest!.outDir, path.join(copy, "exports", latest!.id), { recursive: true });
    await mkdir(path.join(copy, "exports", "not-an-export"));
    await mkdir(path.join(copy, "exports", ".20260101T000000Z-all.partial-ab12"));
    await writeFile(path.join(copy, "exports", "stray.txt"), "x");
    const before = process.env.STUDIO_DATA_DIR;
    process.env.STUDIO_DATA_DIR = copy;
    try {
      const list = await listExports();
      expect(list).toEqual([{ ...latest!, outDir: path.join(copy, "exports", latest!.id), startedAt: expect.any(String), finishedAt: expect.any(String) }]);
      expect((await getExport(latest!.id)).counts).toEqual(latest!.counts);
      await expect(getExport("../exports")).rejects.toMatchObject({ code: "not_found" });
    } finally {
      process.env.STUDIO_DATA_DIR = before;
      await rm(copy, { recursive: true, force: true });
    }
  });

  it("refuses a bad split before starting, and reports a failed export without leaking internals", async () => {
    expect(() => startExportJob(startExportInput.parse({ split: "halves" }), ACTOR, { db })).toThrow(AppError);
    expect(() => startExportJob(startExportInput.parse({ split: "random:1:0.5,0.4" }), ACTOR, { db })).toThrow(/add up to 1/);
    expect(() => startExportInput.parse({ status: "rejected" })).toThrow();

    // A screenshot missing from the store makes the background export fail part-way.
    const step = await db.step.findFirstOrThrow({ include: { screenshot: true } });
    const file = screenshotFile(step.screenshotSha, step.screenshot.mime);
    await rename(file, `${file}.away`);
    const job = startExportJob(startExportInput.parse({ status: "all" }), ACTOR, { db });
    try {
      await waitForExportJob(job.id);
    } finally {
      await rename(`${file}.away`, file);
    }
    const failed = await getExport(job.id);
    expect(failed).toMatchObject({ state: "failed", counts: null });
    expect(failed.error).toMatch(/failed on the server/);
    expect(failed.error).not.toContain(dir); // no server paths
    expect(existsSync(failed.outDir)).toBe(false);
    expect((await listExports()).find((e) => e.id === job.id)?.state).toBe("failed");
  });
});
