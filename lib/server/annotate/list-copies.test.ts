// People's copies (overlap and gold, issue 26) in the list and the counts, on a real temporary SQLite
// database and (where PostgreSQL is installed) a private PostgreSQL: a reviewer's or admin's list, its
// total and every count (the list's tiles, the dashboard, the projects page) hold each trajectory once,
// never its copies, and the original says how many copies it has and whether it is gold; an annotator
// still sees the copies given to them, like any other task of theirs, with no mark.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import { TRAJECTORY_SORTS } from "@/lib/domain/views";
import { assignTrajectories } from "./assign";
import { CLI_ACTOR } from "../people/audit";
import { getDashboard } from "./dashboard";
import type { Db } from "../db";
import { listProjectLanes } from "./fast-lane";
import { markGold } from "./gold";
import { importFile } from "../import";
import { overlapTrajectories } from "./overlap";
import { createUser } from "../people";
import { blankPng, freshStudio } from "../testing/fixtures";
import { hasPostgres, startPostgres } from "../testing/postgres";
import { getStats, listTrajectories } from "./trajectory-list";
import { getTrajectoryFor } from "./trajectories";

type Seeded = { admin: Actor; ann: Actor; overlapped: string; gold: string; plain: string; copies: string[] };

/** Three trajectories of 2, 3 and 4 steps in project "drinks": one overlapped two ways (a copy given to ann), one approved and gold. */
async function seed(db: Db, dir: string): Promise<Seeded> {
  const people = {} as Record<"admin" | "ann", Actor>;
  for (const [who, role] of [
    ["admin", "admin"],
    ["ann", "annotator"],
  ] as const) {
    const { person } = await createUser({ actor: CLI_ACTOR, email: `${who}@example.com`, role }, db);
    people[who] = { id: person.id, email: person.email, name: person.name, role, locale: "en" };
  }
  await writeFile(path.join(dir, "s.png"), await blankPng(1080, 2400));
  const line = (goal: string, n: number) =>
    JSON.stringify({
      goal,
      app: "淘宝",
      steps: Array.from({ length: n }, (_, i) => ({
        action_content: { action: "click", coordinate: [100 + i, 200] },
        screenshot: "s.png",
      })),
    });
  const file = path.join(dir, "d.jsonl");
  await writeFile(file, [line("Overlap me", 2), line("Gold me", 3), line("Leave me", 4)].join("\n"));
  expect(await importFile({ file, format: "ui-s1", screenshotsDir: dir, project: "drinks", db })).toMatchObject({ ok: true });
  const id = async (instruction: string) => (await db.trajectory.findFirstOrThrow({ where: { instruction } })).id;
  const [overlapped, gold, plain] = [await id("Overlap me"), await id("Gold me"), await id("Leave me")];
  const made = await overlapTrajectories({ actor: people.admin, trajectoryIds: [overlapped], copies: 2 }, db);
  const copies = made.overlapped[0]!.copies;
  await assignTrajectories({ actor: people.admin, trajectoryIds: [copies[0]!], assignee: "ann@example.com" }, db);
  await db.trajectory.update({ where: { id: gold }, data: { status: "approved", outcome: "success" } });
  await db.step.updateMany({ where: { trajectoryId: gold }, data: { verdict: "good" } });
  await markGold({ actor: people.admin, trajectoryIds: [gold] }, db);
  return { ...people, overlapped, gold, plain, copies };
}

function suite(open: () => Promise<{ db: Db; dir: string }>) {
  let db: Db;
  let s: Seeded;
  beforeAll(async () => {
    const opened = await open();
    db = opened.db;
    s = await seed(db, opened.dir);
  }, 120_000);
  afterAll(async () => {
    await db?.$disconnect();
  });

  it("lists and counts each trajectory once for an admin; the original shows its copies and its gold mark", async () => {
    // The copies are there: three originals and two copies in the table.
    expect(await db.trajectory.count()).toBe(5);
    const page = await listTrajectories({ actor: s.admin, page: 1, pageSize: 50 }, db);
    expect(page.total).toBe(3);
    expect(page.rows.map((r) => [r.instruction, r.copies, r.isGold]).sort()).toEqual([
      ["Gold me", 0, true],
      ["Leave me", 0, false],
      ["Overlap me", 2, false],
    ]);
    // Every sort (the assignee's is read in two parts), and the filters that would match the copies.
    for (const sort of TRAJECTORY_SORTS) {
      for (const dir of ["asc", "desc"] as const) {
        const sorted = await listTrajectories({ actor: s.admin, sort, dir, page: 1, pageSize: 50 }, db);
        expect([sorted.total, sorted.rows.length], `${sort} ${dir}`).toEqual([3, 3]);
      }
    }
    const fresh = await listTrajectories({ actor: s.admin, status: "new", page: 1, pageSize: 50 }, db);
    expect([fresh.total, fresh.rows.map((r) => r.id).sort()]).toEqual([2, [s.overlapped, s.plain].sort()]);
    const anns = await listTrajectories({ actor: s.admin, assignee: "ann@example.com", page: 1, pageSize: 50 }, db);
    expect(anns.total).toBe(0);
    const pool = await listTrajectories({ actor: s.admin, assignee: "none", q: "overlap", page: 1, pageSize: 50 }, db);
    expect(pool.rows.map((r) => r.id)).toEqual([s.overlapped]);
  });

  it("shows an annotator the copy given to them, without any mark, and counts it as their work", async () => {
    const page = await listTrajectories({ actor: s.ann, page: 1, pageSize: 50 }, db);
    expect(page.rows.map((r) => [r.id, r.instruction, r.copies, r.isGold, r.copyOf])).toEqual([
      [s.copies[0], "Overlap me", 0, false, null],
    ]);
    expect(page.total).toBe(1);
    expect(await getStats({ actor: s.ann }, db)).toMatchObject({
      trajectories: 1,
      steps: 2,
      byProject: [{ project: "drinks", trajectories: 1 }],
    });
  });

  it("leaves the copies out of the list's tiles, the dashboard and the projects page", async () => {
    const stats = await getStats({ actor: s.admin }, db);
    expect(stats).toMatchObject({
      trajectories: 3,
      steps: 9,
      byStatus: { new: 2, in_progress: 0, submitted: 0, approved: 1, rejected: 0 },
      byApp: [{ app: "淘宝", trajectories: 3, steps: 9 }],
      byProject: [{ project: "drinks", trajectories: 3 }],
    });
    expect((await getStats({ actor: CLI_ACTOR }, db)).trajectories).toBe(3);
    const dash = await getDashboard({ actor: s.admin }, db, new Date());
    expect(dash.byApp).toEqual([{ app: "淘宝", new: 2, in_progress: 0, submitted: 0, approved: 1, rejected: 0 }]);
    // The originals' nine steps: the copies' four are not counted again.
    expect(dash.verdicts).toEqual({ unreviewed: 6, good: 3, corrected: 0, harmful: 0, neutral: 0 });
    // Ann's pipeline counts the copy she holds: it is her work.
    expect(dash.annotators).toEqual([{ email: "ann@example.com", assigned: 1, inProgress: 1, submitted: 0, approved: 0, sentBack: 0 }]);
    expect((await listProjectLanes({ actor: s.admin }, db)).projects.map((p) => [p.name, p.trajectories])).toEqual([["drinks", 3]]);
  });

  it("shows an admin the copies on asking (copies only, all, or one trajectory's), each saying what it copies", async () => {
    const only = await listTrajectories({ actor: s.admin, copies: "only", page: 1, pageSize: 50 }, db);
    expect(only.total).toBe(2);
    expect(only.rows.map((r) => [r.id, r.copyOf, r.assignee]).sort()).toEqual(
      [
        [s.copies[0], { id: s.overlapped, kind: "overlap" }, "ann@example.com"],
        [s.copies[1], { id: s.overlapped, kind: "overlap" }, null],
      ].sort(),
    );
    const all = await listTrajectories({ actor: s.admin, copies: "all", page: 1, pageSize: 50 }, db);
    expect([all.total, all.rows.filter((r) => r.copyOf === null).length]).toEqual([5, 3]);
    for (const sort of TRAJECTORY_SORTS) {
      const sorted = await listTrajectories({ actor: s.admin, copies: "all", sort, dir: "desc", page: 1, pageSize: 50 }, db);
      expect([sorted.total, sorted.rows.length], sort).toEqual([5, 5]);
    }
    const ofOne = await listTrajectories({ actor: s.admin, copyOf: s.overlapped, assignee: "none", page: 1, pageSize: 50 }, db);
    expect(ofOne.rows.map((r) => r.id)).toEqual([s.copies[1]]);
    expect((await listTrajectories({ actor: s.admin, copyOf: s.plain, page: 1, pageSize: 50 }, db)).total).toBe(0);
    // The counts stay over the trajectories themselves.
    expect((await getStats({ actor: s.admin }, db)).trajectories).toBe(3);
  });

  it("shows a reviewer a copy only once its person has started it or handed it in", async () => {
    const { person } = await createUser({ actor: CLI_ACTOR, email: "rev@example.com", role: "reviewer" }, db);
    const rev: Actor = { id: person.id, email: person.email, name: person.name, role: "reviewer", locale: "en" };
    const seen = async () => (await listTrajectories({ actor: rev, copies: "all", page: 1, pageSize: 50 }, db)).rows.map((r) => r.id);
    expect((await seen()).sort()).toEqual([s.overlapped, s.gold, s.plain].sort());
    expect((await listTrajectories({ actor: rev, copyOf: s.overlapped, page: 1, pageSize: 50 }, db)).total).toBe(0);
    // Nor by its id: opening an untouched copy is refused.
    await expect(getTrajectoryFor({ actor: rev, id: s.copies[0]! }, db)).rejects.toMatchObject({ code: "forbidden" });
    await db.trajectory.update({ where: { id: s.copies[0]! }, data: { status: "in_progress" } });
    expect((await getTrajectoryFor({ actor: rev, id: s.copies[0]! }, db)).id).toBe(s.copies[0]);
    expect(await seen()).toContain(s.copies[0]);
    expect(await seen()).not.toContain(s.copies[1]);
    const only = await listTrajectories({ actor: rev, copies: "only", page: 1, pageSize: 50 }, db);
    expect(only.rows.map((r) => [r.id, r.copyOf])).toEqual([[s.copies[0], { id: s.overlapped, kind: "overlap" }]]);
    await db.trajectory.update({ where: { id: s.copies[0]! }, data: { status: "new" } });
  });

  it("refuses an annotator the copies filters: which of their tasks are copies (a gold one above all) stays hidden", async () => {
    for (const filter of [{ copies: "only" as const }, { copies: "all" as const }, { copyOf: s.overlapped }]) {
      await expect(listTrajectories({ actor: s.ann, ...filter, page: 1, pageSize: 50 }, db)).rejects.toMatchObject({
        code: "forbidden",
      });
    }
  });

  it("lets an admin give a listed copy to a person, never a second copy of one trajectory to the same person", async () => {
    await expect(
      assignTrajectories({ actor: s.admin, trajectoryIds: [s.copies[1]!], assignee: "ann@example.com" }, db),
    ).rejects.toMatchObject({ code: "conflict" });
    const { person } = await createUser({ actor: CLI_ACTOR, email: "bo@example.com", role: "annotator" }, db);
    const bo: Actor = { id: person.id, email: person.email, name: person.name, role: "annotator", locale: "en" };
    await assignTrajectories({ actor: s.admin, trajectoryIds: [s.copies[1]!], assignee: "bo@example.com" }, db);
    const only = await listTrajectories({ actor: s.admin, copyOf: s.overlapped, page: 1, pageSize: 50 }, db);
    expect(only.rows.map((r) => r.assignee).sort()).toEqual(["ann@example.com", "bo@example.com"]);
    // Each of them sees their own copy, unmarked, and neither the other's nor the original.
    expect((await listTrajectories({ actor: bo, page: 1, pageSize: 50 }, db)).rows.map((r) => [r.id, r.copyOf])).toEqual([
      [s.copies[1], null],
    ]);
    expect((await listTrajectories({ actor: s.ann, page: 1, pageSize: 50 }, db)).rows.map((r) => r.id)).toEqual([s.copies[0]]);
  });

  it("gives a trajectory to two people in one action: each named person gets one copy, and only theirs", async () => {
    // The same person twice, a reviewer, or fewer people than copies is refused, and nothing is made.
    await createUser({ actor: CLI_ACTOR, email: "rex@example.com", role: "reviewer" }, db);
    const before = await db.trajectory.count();
    const give = (assignees: (string | null)[]) =>
      overlapTrajectories({ actor: s.admin, trajectoryIds: [s.plain], copies: 2, assignees }, db);
    await expect(give(["ann@example.com", "ann@example.com"])).rejects.toMatchObject({ code: "unprocessable" });
    await expect(give(["rex@example.com", null])).rejects.toMatchObject({ code: "unprocessable" });
    await expect(give(["ann@example.com"])).rejects.toThrow();
    expect(await db.trajectory.count()).toBe(before);

    const made = await give(["ann@example.com", "bo@example.com"]);
    const [toAnn, toBo] = made.overlapped[0]!.copies;
    const rows = await listTrajectories({ actor: s.admin, copyOf: s.plain, page: 1, pageSize: 50 }, db);
    expect(rows.rows.map((r) => [r.id, r.assignee]).sort()).toEqual(
      [
        [toAnn, "ann@example.com"],
        [toBo, "bo@example.com"],
      ].sort(),
    );
    const audit = await db.auditEvent.findMany({ where: { action: "trajectory.assign", entityId: { in: [toAnn!, toBo!] } } });
    expect(audit).toHaveLength(2);
    // Ann sees her two copies as plain tasks of hers: not bo's, not the originals.
    const annRows = (await listTrajectories({ actor: s.ann, page: 1, pageSize: 50 }, db)).rows;
    expect(annRows.map((r) => r.id).sort()).toEqual([s.copies[0], toAnn].sort());
    expect(annRows.every((r) => r.copyOf === null && r.copies === 0 && !r.isGold)).toBe(true);
  });
}

describe("people's copies in the list and the counts, on SQLite", () => {
  suite(async () => {
    const { db, dir } = await freshStudio();
    return { db, dir };
  });
});

describe.skipIf(!hasPostgres)("people's copies in the list and the counts, on PostgreSQL", () => {
  let server: ReturnType<typeof startPostgres>;
  beforeAll(() => {
    server = startPostgres();
  }, 120_000);
  afterAll(() => server?.stop());
  suite(async () => {
    const { db, dir } = await server.freshDb();
    return { db, dir };
  });
});
