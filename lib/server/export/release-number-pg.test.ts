// Issue 27 item 1 on PostgreSQL: release numbers are "numbered after the last release". Two admins cutting at
// the same moment (two studio workers, the command line beside the web) each read the last number inside their
// own transaction; under PostgreSQL's read committed both could read the same one and write the same number.
// A real PostgreSQL server (Debian's, as the other *-pg tests use); the suite skips where none is installed.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import type { Db } from "../db";
import { importFile } from "../import";
import { cutRelease, freezeEvalSet, listSnapshots } from "./snapshots";
import { blankPng } from "../testing/fixtures";
import { hasPostgres, startPostgres, type PostgresServer } from "../testing/postgres";

describe.skipIf(!hasPostgres)("release numbers on PostgreSQL", () => {
  let server: PostgresServer | undefined;
  let db: Db;
  let admin: Actor;

  beforeAll(async () => {
    server = startPostgres();
    const fresh = await server.freshDb();
    db = fresh.db;
    await writeFile(path.join(fresh.dir, "s.png"), await blankPng(1080, 2400));
    const file = path.join(fresh.dir, "seed.jsonl");
    const line = (goal: string) =>
      JSON.stringify({
        goal,
        app: "Clock",
        steps: [
          { action_content: { action: "click", coordinate: [100, 200] }, thought: "Tap.", action_description: "Tap", screenshot: "s.png" },
        ],
      });
    await writeFile(file, `${line("Set an alarm")}\n${line("Start a timer")}\n`);
    expect((await importFile({ file, format: "ui-s1", screenshotsDir: fresh.dir, db })).ok).toBe(true);
    const u = await db.user.create({ data: { id: "u-admin", email: "admin@test.local", name: "Admin", role: "admin" } });
    admin = { id: u.id, email: u.email, name: u.name, role: "admin" };
  }, 120_000);
  afterAll(() => server?.stop());

  it("concurrent cuts all succeed with distinct consecutive numbers", async () => {
    const cuts = await Promise.all(
      Array.from({ length: 8 }, (_, i) => cutRelease({ caller: admin, name: `weekly-${i}`, status: "all" }, db)),
    );
    expect(cuts.map((c) => c.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const listed = await listSnapshots({ caller: admin, kind: "release" }, db);
    expect(listed.map((s) => s.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Each number names the release that was cut with it.
    for (const c of cuts) expect(listed.find((s) => s.number === c.number)!.name).toBe(c.name);

    // Another round after the first: numbering continues where it stopped.
    const more = await Promise.all([0, 1].map((i) => cutRelease({ caller: admin, name: `nightly-${i}`, status: "all" }, db)));
    expect(more.map((c) => c.number).sort((a, b) => a - b)).toEqual([9, 10]);
  });

  it("concurrent refreezes of one evaluation set get distinct consecutive versions, none refused", async () => {
    const versions = await Promise.all(Array.from({ length: 4 }, () => freezeEvalSet({ caller: admin, name: "smoke", status: "all" }, db)));
    expect(versions.map((v) => v.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4]);
  });
});
