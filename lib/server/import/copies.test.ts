// The same data imported into a second project: the import asks first (nothing written), skips those
// trajectories, or imports them as copies, as the person chose; the list shows each trajectory's
// project and filters by it; the command line refuses without a terminal and says how many are where.
import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { listTrajectoriesInput } from "@/lib/domain/views";
import { CLI_ACTOR } from "../people/audit";
import type { Db } from "../db";
import { importFile } from "./import-file";
import { getImportJob, runImportJob, seededTrajectories } from "./jobs";
import { blankPng, freshStudio } from "../testing/fixtures";
import { getStats, listTrajectories } from "../annotate/trajectory-list";

let db: Db;
let dir: string;
let url: string;

const line = (goal: string, x: number) =>
  JSON.stringify({ goal, steps: [{ action_content: { action: "click", coordinate: [x, 200] }, screenshot: "s.png" }] });

async function file(name: string, goals: [string, number][]): Promise<string> {
  const f = path.join(dir, name);
  await writeFile(f, `${goals.map(([g, x]) => line(g, x)).join("\n")}\n`);
  return f;
}

async function everything() {
  return {
    projects: await db.project.findMany({ orderBy: { id: "asc" } }),
    trajectories: await db.trajectory.findMany({ orderBy: { id: "asc" } }),
    steps: await db.step.count(),
    batches: await db.importBatch.findMany({ orderBy: { id: "asc" } }),
  };
}

beforeAll(async () => {
  ({ db, dir, url } = await freshStudio());
  await writeFile(path.join(dir, "s.png"), await blankPng(1080, 2400));
});

describe("data already in another project", () => {
  it("asks before writing anything, then skips or imports the copies as chosen; the list tells the projects apart", async () => {
    const a = await file("a.jsonl", [
      ["Open the clock", 100],
      ["Set an alarm", 110],
    ]);
    expect(await importFile({ file: a, format: "ui-s1", screenshotsDir: dir, project: "alpha", db })).toMatchObject({
      ok: true,
      trajectories: 2,
    });
    // The same two, and one new, into beta.
    const b = await file("b.jsonl", [
      ["Open the clock", 100],
      ["Set an alarm", 110],
      ["Start a timer", 120],
    ]);
    const before = await everything();
    const asked = await importFile({ file: b, format: "ui-s1", screenshotsDir: dir, project: "beta", onOtherProjects: "ask", db });
    expect(asked).toMatchObject({ ok: false, problemCount: 0, asked: [{ project: "alpha", count: 2 }], trajectories: 3 });
    // Nothing written: no beta project, no batch, no trajectory.
    expect(await everything()).toEqual(before);

    const skipped = await importFile({ file: b, format: "ui-s1", screenshotsDir: dir, project: "beta", onOtherProjects: "skip", db });
    expect(skipped).toMatchObject({
      ok: true,
      trajectories: 1,
      duplicates: 0,
      otherProjects: [{ project: "alpha", count: 2 }],
      onOtherProjects: "skip",
    });
    const copied = await importFile({ file: b, format: "ui-s1", screenshotsDir: dir, project: "gamma", onOtherProjects: "import", db });
    // Counted by the first project found holding each: alpha has the two, beta the timer.
    expect(copied).toMatchObject({ ok: true, trajectories: 3, onOtherProjects: "import" });
    expect(copied.ok && copied.otherProjects.reduce((n, c) => n + c.count, 0)).toBe(3);

    const stats = await getStats({ actor: CLI_ACTOR }, db);
    expect(stats.byProject).toEqual([
      { project: "alpha", trajectories: 2 },
      { project: "beta", trajectories: 1 },
      { project: "gamma", trajectories: 3 },
    ]);
    const page = (project?: string) => listTrajectories({ actor: CLI_ACTOR, project, page: 1, pageSize: 50, sort: "instruction" }, db);
    const all = await page();
    expect(all.rows.map((r) => [r.project, r.instruction])).toEqual([
      ["alpha", "Open the clock"],
      ["gamma", "Open the clock"],
      ["alpha", "Set an alarm"],
      ["gamma", "Set an alarm"],
      ["beta", "Start a timer"],
      ["gamma", "Start a timer"],
    ]);
    const gamma = await page("gamma");
    expect(gamma.total).toBe(3);
    expect(new Set(gamma.rows.map((r) => r.project))).toEqual(new Set(["gamma"]));
    expect((await page("no-such-project")).total).toBe(0);
    // Bounded: a project name longer than a project may have is refused before any query.
    expect(listTrajectoriesInput.safeParse({ project: "x".repeat(101) }).success).toBe(false);
  });

  it("the job records the question and the choice, and the seed's trajectories are told apart from imports", async () => {
    const f = await file("c.jsonl", [["Open the clock", 100]]);
    const asked = await runImportJob({
      file: f,
      format: "ui-s1",
      screenshotsDir: dir,
      project: "delta",
      onOtherProjects: "ask",
      actor: CLI_ACTOR,
      db,
    });
    const job = await getImportJob({ actor: CLI_ACTOR, id: asked.jobId }, { db });
    expect(job).toMatchObject({
      state: "asked",
      project: "delta",
      otherProjects: [{ project: "alpha", count: 1 }],
      onOtherProjects: "ask",
      problems: [],
    });
    const skipped = await runImportJob({
      file: f,
      format: "ui-s1",
      screenshotsDir: dir,
      project: "delta",
      onOtherProjects: "skip",
      actor: CLI_ACTOR,
      db,
    });
    expect(await getImportJob({ actor: CLI_ACTOR, id: skipped.jobId }, { db })).toMatchObject({
      state: "succeeded",
      trajectories: 0,
      otherProjects: [{ project: "alpha", count: 1 }],
      onOtherProjects: "skip",
    });
    // importFile straight (as the demo seed does) made the 6 trajectories above; the jobs made none.
    expect(await seededTrajectories({ actor: CLI_ACTOR }, { db })).toBe(6);
  });

  it("from the command line without a terminal: refuses, naming the count and the project, and imports nothing", async () => {
    const f = await file("d.jsonl", [
      ["Open the clock", 100],
      ["Brand new", 130],
    ]);
    const before = (await getStats({ actor: CLI_ACTOR }, db)).trajectories;
    const cli = (...extra: string[]) =>
      spawnSync(
        process.execPath,
        [
          "node_modules/tsx/dist/cli.mjs",
          "lib/cli/main.ts",
          "import",
          f,
          "--format",
          "ui-s1",
          "--screenshots",
          dir,
          "--project",
          "epsilon",
          ...extra,
        ],
        { encoding: "utf8", env: { ...process.env, DATABASE_URL: url, STUDIO_DATA_DIR: dir }, stdio: ["ignore", "pipe", "pipe"] },
      );
    const refused = cli();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('1 trajectories of d.jsonl are already in other projects (1 in project "alpha")');
    expect(refused.stderr).toContain("--on-duplicate import");
    expect((await getStats({ actor: CLI_ACTOR }, db)).trajectories).toBe(before);
    const skipped = cli("--on-duplicate", "skip");
    expect(skipped.status, skipped.stderr).toBe(0);
    expect(skipped.stdout).toContain("1 already in other projects: skipped");
    expect((await getStats({ actor: CLI_ACTOR }, db)).trajectories).toBe(before + 1);
    expect(cli("--on-duplicate", "maybe").status).not.toBe(0);
  });
});
