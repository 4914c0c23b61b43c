// The contract of `studio stats` on SQLite (stats-direct.ts, the raw driver, no Prisma): the same answer as
// getStats, the dashboard's counts through Prisma, on the same database: for the command line (everything)
// and for an annotator (only their assigned trajectories), with statuses, apps, projects, step counts and
// screenshots that differ from one trajectory to the next.
// (scripts/build-cli.test.ts runs the command itself and checks it loads nothing of Prisma.)
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import { CLI_ACTOR } from "../people/audit";
import { sqlitePath } from "../env";
import type { Db } from "../db";
import { importFile } from "../import";
import { makeCopies } from "../annotate/overlap";
import { createUser } from "../people";
import { sqliteStats } from "./stats-direct";
import { blankPng, freshStudio } from "../testing/fixtures";
import { getStats } from "../annotate/trajectory-list";

let db: Db;
let dir: string;
let url: string;
let annotator: Actor;

const GOALS = ["Open the clock", "Set an alarm", "Start a timer", "Call mum", "Read the news", "Play a song", "Pay the bill"];

beforeAll(async () => {
  ({ db, dir, url } = await freshStudio());
  for (const [i, color] of ["#f4f4f4", "#101010", "#a0c0e0"].entries())
    await writeFile(path.join(dir, `s${i}.png`), await blankPng(1080, 2400, color));
  // Trajectories of 1 to 3 steps over three screenshots, in two projects.
  const lines = GOALS.map((goal, g) =>
    JSON.stringify({
      goal,
      steps: Array.from({ length: 1 + (g % 3) }, (_, s) => ({
        action_content: { action: "click", coordinate: [100 + s, 200] },
        screenshot: `s${(g + s) % 3}.png`,
      })),
    }),
  );
  await writeFile(path.join(dir, "a.jsonl"), `${lines.slice(0, 4).join("\n")}\n`);
  await writeFile(path.join(dir, "b.jsonl"), `${lines.slice(4).join("\n")}\n`);
  expect(await importFile({ file: path.join(dir, "a.jsonl"), format: "ui-s1", screenshotsDir: dir, project: "zeta", db })).toMatchObject({
    ok: true,
  });
  expect(await importFile({ file: path.join(dir, "b.jsonl"), format: "ui-s1", screenshotsDir: dir, project: "Alpha", db })).toMatchObject({
    ok: true,
  });
  const { person } = await createUser({ actor: CLI_ACTOR, email: "ann@example.com", role: "annotator", password: "a-long-password-1" });
  annotator = { id: person.id, email: person.email, name: person.name, role: "annotator" };
  const rows = await db.trajectory.findMany({ orderBy: { instruction: "asc" }, select: { id: true } });
  const statuses = ["new", "in_progress", "submitted", "approved", "rejected", "approved", "submitted"];
  // Apps whose binary order differs from a case-insensitive one, and a Chinese name.
  const apps = ["b-app", "Zoo", "微信", "b-app", "Zoo", "a-app", "微信"];
  for (const [i, t] of rows.entries()) {
    await db.trajectory.update({
      where: { id: t.id },
      data: { status: statuses[i]!, app: apps[i]!, assigneeId: i % 2 === 0 ? annotator.id : null },
    });
  }
});

describe("studio stats without Prisma (SQLite)", () => {
  it("answers what getStats answers, for the command line and for an annotator", async () => {
    const everything = await getStats({ actor: CLI_ACTOR }, db);
    // The data is varied enough for the comparison to mean something.
    expect(everything).toMatchObject({ trajectories: 7, apps: 4, screenshots: 3 });
    expect(new Set(Object.values(everything.byStatus)).size).toBeGreaterThan(1);
    expect(everything.byProject.map((p) => p.project)).toEqual(["Alpha", "zeta"]);
    expect(sqliteStats(sqlitePath(url))).toEqual(everything);

    const theirs = await getStats({ actor: annotator }, db);
    expect(theirs.trajectories).toBe(4);
    expect(sqliteStats(sqlitePath(url), { assigneeId: annotator.id })).toEqual(theirs);
    // Nobody assigned: zero everywhere, as getStats says.
    expect(sqliteStats(sqlitePath(url), { assigneeId: "nobody" })).toEqual(await getStats({ actor: { ...annotator, id: "nobody" } }, db));
  });

  it("leaves people's overlap copies out of the command line's counts and keeps them in their holder's", async () => {
    const original = await db.trajectory.findFirstOrThrow({ where: { assigneeId: null }, select: { id: true } });
    const admin: Actor = { id: "boss", email: "boss@example.com", name: "Boss", role: "admin" };
    const [mine] = await db.$transaction((tx) => makeCopies(tx, admin, original.id, 2));
    await db.trajectory.update({ where: { id: mine! }, data: { assigneeId: annotator.id } });
    const everything = await getStats({ actor: CLI_ACTOR }, db);
    expect(everything.trajectories).toBe(await db.trajectory.count({ where: { copyOfId: null } }));
    expect(sqliteStats(sqlitePath(url))).toEqual(everything);
    const theirs = await getStats({ actor: annotator }, db);
    expect(theirs.trajectories).toBe(5);
    expect(sqliteStats(sqlitePath(url), { assigneeId: annotator.id })).toEqual(theirs);
  });
});
