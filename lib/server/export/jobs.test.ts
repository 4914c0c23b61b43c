// Export jobs are rows in the database. Issue 11, finding 7: a restart lost a running job without a
// trace (404, a stuck progress bar) and left a hidden .partial folder each time; an interrupted CLI
// export left one forever. Here real studio processes are killed mid-export (SIGKILL) and the
// next process to look reports the job failed and sweeps what it left.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rename, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { beforeAll, describe, expect, it } from "vitest";
import { startExportInput } from "@/lib/domain/exports";
import type { Db } from "../db";
import { AppError } from "../errors/errors";
import { exportsDir, recoverExportJobs, runnerId } from "./job-kind";
import { runCliExport, startExportJob, waitForExportJob } from "./jobs";
import { getExport, listExports } from "./listing";
import { importFile } from "../import";
import { screenshotFile } from "../object-store/screenshots";
import { blankPng, freshStudio, withTextChunk } from "../testing/fixtures";
import { CLI_ACTOR } from "../people/audit";
import { localize } from "@/lib/i18n";

const ACTOR = { id: null, label: "tester@test.local" };
const N = 12;

let db: Db;
let dir: string;

beforeAll(async () => {
  ({ db, dir } = await freshStudio());
  const src = await mkdtemp(path.join(os.tmpdir(), "export-jobs-src-"));
  const png = await blankPng(1080, 2400);
  let lines = "";
  for (let i = 0; i < N; i++) {
    await writeFile(path.join(src, `a${i}.png`), withTextChunk(png, "n", `a${i}`));
    await writeFile(path.join(src, `b${i}.png`), withTextChunk(png, "n", `b${i}`));
    const app = ["Gmail", "Maps", "Clock"][i % 3]!;
    lines += `${JSON.stringify({
      goal: `Task ${i}: open ${app}`,
      app,
      steps: [
        { action_content: { action: "open", text: app }, screenshot: `a${i}.png` },
        { action_content: { action: "terminate", status: "success" }, screenshot: `b${i}.png` },
      ],
    })}\n`;
  }
  await writeFile(path.join(src, "d.jsonl"), lines);
  expect(await importFile({ file: path.join(src, "d.jsonl"), format: "ui-s1", db })).toMatchObject({ ok: true, trajectories: N });
  const first = await db.trajectory.findMany({ orderBy: { fingerprint: "asc" }, take: 3 });
  await db.trajectory.updateMany({ where: { id: { in: first.map((t) => t.id) } }, data: { status: "approved" } });
});

/** A studio process (tsx) running an export of `kind`; resolves once it is mid-export, with a kill switch. */
async function childMidExport(kind: "web" | "cli", outDir = "") {
  // One node process (tsx as a loader, not its CLI, which would run the script in a grandchild).
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("lib/server/testing/export-child.ts"), kind, outDir], {
    env: { ...process.env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve, reject) => {
    lines.on("line", (l) => l === "exporting" && resolve());
    child.on("exit", (code) => reject(new Error(`export child exited (${code}) before exporting`)));
  });
  return {
    pid: child.pid!,
    kill: () =>
      new Promise<void>((resolve) => {
        child.on("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

const partials = (d: string) => (existsSync(d) ? readdirSync(d).filter((n) => n.includes(".partial-")) : []);

describe("export jobs", () => {
  it("says there is nothing yet before the first export", async () => {
    expect(await listExports({ actor: CLI_ACTOR })).toEqual([]);
    await expect(getExport({ actor: CLI_ACTOR, id: "20260101T000000Z-all" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("runs in the background into the data dir's exports folder, records progress in the database and lists the counts", async () => {
    const seen: number[] = [];
    const job = await startExportJob({ ...startExportInput.parse({ status: "all", split: "random:7:0.5,0.5" }), actor: ACTOR }, { db });
    expect(job).toMatchObject({
      state: "running",
      counts: null,
      filters: { status: "all", split: "random:7:0.5,0.5", apps: [], project: null },
    });
    expect(job.id).toMatch(/^\d{8}T\d{6}Z-all$/);
    expect(job.outDir).toBe(path.join(dir, "exports", job.id));
    expect(await db.exportJob.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      state: "running",
      runnerId: runnerId(),
      createdByLabel: "tester@test.local",
    });
    // A second export while one runs is refused rather than doubling the load.
    await expect(startExportJob({ ...startExportInput.parse({}), actor: ACTOR }, { db })).rejects.toThrow(/still running/);

    const poll = setInterval(() => void getExport({ actor: CLI_ACTOR, id: job.id }).then((j) => seen.push(j.progress.trajectories)), 1);
    await waitForExportJob(job.id);
    clearInterval(poll);

    const done = await getExport({ actor: CLI_ACTOR, id: job.id });
    expect(done).toMatchObject({ state: "succeeded", progress: { trajectories: N, total: N }, error: null });
    expect(done.counts).toMatchObject({ trajectories: N, steps: 2 * N });
    expect(Object.values(done.counts!.bySplit).reduce((a, b) => a + b, 0)).toBe(N);
    expect(seen.every((n, i) => i === 0 || n >= seen[i - 1]!)).toBe(true); // progress never goes back
    const manifest = JSON.parse(readFileSync(path.join(done.outDir, "manifest.json"), "utf8"));
    expect(manifest.counts.steps).toBe(done.counts!.steps);
    expect(readdirSync(exportsDir())).toEqual([job.id]); // no partial folder left behind
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "export.run" } });
    expect(audit).toMatchObject({ actorLabel: "tester@test.local", entityId: job.id });
  });

  it("applies the filters and lists exports newest first", async () => {
    const job = await startExportJob({ ...startExportInput.parse({ status: "approved", project: "  " }), actor: ACTOR }, { db });
    await waitForExportJob(job.id);
    const list = await listExports({ actor: CLI_ACTOR });
    expect(list.map((e) => e.id)).toEqual([job.id, expect.stringMatching(/-all$/)]);
    expect(list[0]).toMatchObject({ state: "succeeded", counts: { trajectories: 3 }, filters: { status: "approved", project: null } });
  });

  it("still lists an export folder that has a manifest but no job row (made before jobs were recorded)", async () => {
    const [latest] = await listExports({ actor: CLI_ACTOR });
    await db.exportJob.delete({ where: { id: latest!.id } });
    const again = (await listExports({ actor: CLI_ACTOR })).find((e) => e.id === latest!.id);
    expect(again).toMatchObject({ state: "succeeded", counts: latest!.counts, filters: latest!.filters });
    await mkdir(path.join(exportsDir(), "not-an-export"));
    expect((await listExports({ actor: CLI_ACTOR })).map((e) => e.id)).not.toContain("not-an-export");
    await expect(getExport({ actor: CLI_ACTOR, id: "../exports" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses a bad split before starting, and reports a failed export without leaking internals", async () => {
    await expect(startExportJob({ ...startExportInput.parse({ split: "halves" }), actor: ACTOR }, { db })).rejects.toThrow(AppError);
    await expect(startExportJob({ ...startExportInput.parse({ split: "random:1:0.5,0.4" }), actor: ACTOR }, { db })).rejects.toThrow(
      /add up to 1/,
    );
    expect(() => startExportInput.parse({ status: "rejected" })).toThrow();

    // A screenshot missing from the store makes the background export fail part-way.
    const step = await db.step.findFirstOrThrow({ include: { screenshot: true } });
    const file = screenshotFile(step.screenshotSha, step.screenshot.mime);
    await rename(file, `${file}.away`);
    const job = await startExportJob({ ...startExportInput.parse({ status: "all" }), actor: ACTOR }, { db });
    try {
      await waitForExportJob(job.id);
    } finally {
      await rename(`${file}.away`, file);
    }
    const failed = await getExport({ actor: CLI_ACTOR, id: job.id });
    expect(failed).toMatchObject({ state: "failed", counts: null });
    // The store says which screenshot is missing (by hash, never by server path).
    expect(failed.error).toBe(`Screenshot ${step.screenshotSha} is not in the store.`);
    // Stored as the catalogue's key and values, so a Chinese reader is told in Chinese.
    expect(failed.errorMessage).toEqual({ key: "error.screenshotMissing", vars: { id: step.screenshotSha } });
    expect(localize({ key: "error.screenshotMissing", vars: failed.errorMessage!.vars }, "zh")).toBe(
      `截图 ${step.screenshotSha} 不在存储中。`,
    );
    expect(failed.error).not.toContain(dir); // no server paths
    expect(existsSync(failed.outDir)).toBe(false);
    expect((await listExports({ actor: CLI_ACTOR })).find((e) => e.id === job.id)?.state).toBe("failed");
  });

  it("shows a job as failed once the server running it is killed mid-export, and sweeps its partial folder", async () => {
    const child = await childMidExport("web");
    const row = await db.exportJob.findFirstOrThrow({ where: { state: "running" } });
    expect(row.runnerId).toContain(`:${child.pid}:`);
    expect(partials(exportsDir())).toHaveLength(1);
    // While it runs, another process reports it as running and refuses a second export.
    expect((await getExport({ actor: CLI_ACTOR, id: row.id })).state).toBe("running");
    await expect(startExportJob({ ...startExportInput.parse({}), actor: ACTOR }, { db })).rejects.toThrow(/still running/);

    await child.kill();
    // The next process to look (here: this one, as a restarted server would at start-up) reports what happened.
    const { failed, swept } = await recoverExportJobs({ db, force: true });
    expect(failed).toEqual([row.id]);
    expect(swept).toHaveLength(1);
    expect(partials(exportsDir())).toEqual([]);
    const after = await getExport({ actor: CLI_ACTOR, id: row.id });
    expect(after).toMatchObject({ state: "failed", counts: null });
    expect(after.error).toMatch(/stopped.*Start the export again/);
    // Worded when read: the Chinese reader's sentence, the time it was last heard from kept as an instant for their clock.
    expect(after.errorMessage).toEqual({ key: "job.exportStopped", vars: { heardAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) } });
    expect(localize({ key: "job.exportStopped", vars: after.errorMessage!.vars }, "zh")).toMatch(/^运行此导出的工作室进程已停止/);
    expect(existsSync(after.outDir)).toBe(false);
    expect(await db.auditEvent.count({ where: { action: "export.fail", entityId: row.id } })).toBe(1);
    // And a new export can start.
    const next = await startExportJob({ ...startExportInput.parse({ status: "approved" }), actor: ACTOR }, { db });
    await waitForExportJob(next.id);
    expect((await getExport({ actor: CLI_ACTOR, id: next.id })).state).toBe("succeeded");
  });

  it("sweeps what a killed CLI export left when the CLI exports again, and reports the killed run", async () => {
    const target = await mkdtemp(path.join(os.tmpdir(), "cli-export-"));
    const child = await childMidExport("cli", path.join(target, "first"));
    expect(partials(target)).toHaveLength(1);
    await child.kill();
    const summary = await runCliExport({ outDir: path.join(target, "second"), status: "approved", split: { kind: "none" }, db });
    expect(summary.trajectories).toBe(3);
    expect(readdirSync(target).sort()).toEqual(["second"]);
    const cliJobs = await db.exportJob.findMany({ where: { createdByLabel: "cli" }, orderBy: { startedAt: "asc" } });
    expect(cliJobs.map((j) => [j.outDir, j.state])).toEqual([
      [path.join(target, "first"), "failed"],
      [path.join(target, "second"), "succeeded"],
    ]);
    const listed = await listExports({ actor: CLI_ACTOR });
    expect(listed.find((e) => e.outDir === path.join(target, "first"))?.state).toBe("failed");
  });

  it("leaves another machine's running job alone until its heartbeat goes stale", async () => {
    const fresh = { runnerId: "other-host:4242:abcd1234", heartbeatAt: new Date() };
    const outDir = path.join(exportsDir(), "20300101T000000Z-all");
    await db.exportJob.create({
      data: {
        id: "20300101T000000Z-all",
        state: "running",
        outDir,
        filtersJson: JSON.stringify({ status: "all", apps: [], project: null, split: null }),
        createdByLabel: "x@test.local",
        ...fresh,
      },
    });
    await mkdir(path.join(exportsDir(), ".20300101T000000Z-all.partial-0a1b2c3d"));
    await mkdir(path.join(exportsDir(), ".20290101T000000Z-all.partial-deadbeef"));
    const first = await recoverExportJobs({ db, force: true });
    expect(first.failed).toEqual([]);
    expect(partials(exportsDir())).toEqual([".20300101T000000Z-all.partial-0a1b2c3d"]); // the orphan went, the live one stays
    await db.exportJob.update({ where: { id: "20300101T000000Z-all" }, data: { heartbeatAt: new Date(Date.now() - 10 * 60_000) } });
    const second = await recoverExportJobs({ db, force: true });
    expect(second.failed).toEqual(["20300101T000000Z-all"]);
    expect(partials(exportsDir())).toEqual([]);
  });
});
