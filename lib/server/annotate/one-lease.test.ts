// "Start next task" under presses at once, and the order work is taken in, on a real temporary SQLite
// database and (where PostgreSQL is installed) a private PostgreSQL: one person pressing eight times at
// once holds one task, not eight; overlap copies go out before the backlog, one trajectory's copies to
// different people one after another.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import { CLI_ACTOR } from "../people/audit";
import type { Db } from "../db";
import { importFile } from "../import";
import { createUser } from "../people";
import { overlapTrajectories } from "./overlap";
import { blankPng, freshStudio } from "../testing/fixtures";
import { hasPostgres, startPostgres } from "../testing/postgres";
import { startNextTask } from "./tasks";

/** `n` one-step trajectories "Task 0".."Task n-1" in project "lease", imported in that order (oldest first). */
async function seed(db: Db, dir: string, n: number) {
  await writeFile(path.join(dir, "s.png"), await blankPng(1080, 2400));
  const line = (k: number) =>
    JSON.stringify({ goal: `Task ${k}`, steps: [{ action_content: { action: "click", coordinate: [100, 200] }, screenshot: "s.png" }] });
  const file = path.join(dir, "d.jsonl");
  await writeFile(file, Array.from({ length: n }, (_, k) => line(k)).join("\n"));
  expect(await importFile({ file, format: "ui-s1", screenshotsDir: dir, project: "lease", db })).toMatchObject({ ok: true });
}

async function person(db: Db, name: string, role: "annotator" | "admin" = "annotator"): Promise<Actor> {
  const { person: p } = await createUser({ actor: CLI_ACTOR, email: `${name}@example.com`, role }, db);
  return { id: p.id, email: p.email, name: p.name, role, locale: "en" };
}

function suite(open: () => Promise<{ db: Db; dir: string }>) {
  let db: Db;
  let dir: string;
  beforeAll(async () => {
    ({ db, dir } = await open());
    await seed(db, dir, 12);
  }, 120_000);
  afterAll(async () => {
    await db?.$disconnect();
  });

  it("eight presses of one annotator at once lease exactly one task, and all eight answer it", async () => {
    const ann = await person(db, "presser");
    const got = await Promise.all(Array.from({ length: 8 }, () => startNextTask({ actor: ann }, db)));
    const held = await db.trajectory.findMany({ where: { assigneeId: ann.id }, select: { id: true, leaseUntil: true } });
    expect(held).toHaveLength(1);
    expect(held[0]!.leaseUntil).not.toBeNull();
    expect(new Set(got)).toEqual(new Set([held[0]!.id]));
    expect(await db.auditEvent.count({ where: { action: "trajectory.take", actorLabel: ann.email } })).toBe(1);
    // Two people pressing at once still get one task each, never the same one.
    const [b, c] = [await person(db, "b"), await person(db, "c")];
    const pair = await Promise.all([b, c, b, c, b, c].map((p) => startNextTask({ actor: p }, db)));
    expect(new Set(pair.filter((_, i) => i % 2 === 0)).size).toBe(1);
    expect(new Set(pair.filter((_, i) => i % 2 === 1)).size).toBe(1);
    expect(pair[0]).not.toBe(pair[1]);
    expect(await db.trajectory.count({ where: { assigneeId: { in: [b.id, c.id] } } })).toBe(2);
  });

  it("overlap copies of a new trajectory go out before the older backlog, one to each person", async () => {
    // The newest untouched trajectory (the backlog of older ones is still waiting) given to 2 people.
    const admin = await person(db, "boss", "admin");
    const newest = await db.trajectory.findFirstOrThrow({ where: { instruction: "Task 11" } });
    await overlapTrajectories({ actor: admin, trajectoryIds: [newest.id], copies: 2 }, db);
    const [d, e, f] = [await person(db, "d"), await person(db, "e"), await person(db, "f")];
    const first = (await startNextTask({ actor: d }, db))!;
    const second = (await startNextTask({ actor: e }, db))!;
    const third = (await startNextTask({ actor: f }, db))!;
    const rows = await db.trajectory.findMany({ where: { id: { in: [first, second, third] } } });
    const of = (id: string) => rows.find((r) => r.id === id)!;
    expect([of(first).copyOfId, of(second).copyOfId]).toEqual([newest.id, newest.id]);
    expect(first).not.toBe(second);
    // Then the backlog again, oldest first: the copies are all out.
    expect([of(third).copyOfId, of(third).instruction]).toEqual([null, "Task 3"]);
  });
}

describe("one task per person and copies first, on SQLite", () => {
  suite(() => freshStudio());
});

describe.skipIf(!hasPostgres)("one task per person and copies first, on PostgreSQL", () => {
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
