// The trajectory list sorted by every column and filtered, on a real temporary SQLite database and
// (where PostgreSQL is installed) a private PostgreSQL: every sort, both directions, against the
// same rows sorted here; filters combined with sorts; paging without gaps or repeats; and on SQLite
// the page query's plan reads each sort's index (no full scan of the table, no sort per request).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRAJECTORY_SORTS, type TrajectoryRow, type TrajectorySort } from "@/lib/domain/views";
import type { Actor } from "@/lib/domain/permissions";
import type { Db } from "../db";
import { freshStudio } from "../testing/fixtures";
import { hasPostgres, startPostgres } from "../testing/postgres";
import { listSql, listTrajectories } from "./trajectory-list";

const APPS = ["clock", "maps", "notes", "settings"];
const STATUSES = ["new", "in_progress", "submitted", "approved", "rejected"];
const WORDS = ["alarm", "bright", "call", "dial", "email", "find", "gallery", "home", "invite", "join"];
const reviewer: Actor = { id: "r", email: "r@example.com", name: "R", role: "reviewer", locale: "en" };

/** The list's own page query (page 3 of 50) for a sort with no filter, as a reviewer asks for it. */
function pageSql(sort: TrajectorySort | undefined, dir: "asc" | "desc") {
  const sql = listSql(reviewer, { sort, dir, page: 3, pageSize: 50 });
  if (sql.kind !== "one-index") throw new Error(`the ${sort} sort is read in two parts`);
  return sql.page;
}

type Seeded = {
  id: string;
  app: string;
  instruction: string;
  stepCount: number;
  status: string;
  outcome: string | null;
  source: string;
  assignee: string | null;
};

/** 60 trajectories with repeated values in every column (so the id tie-break matters), some without outcome or assignee. */
async function seed(db: Db): Promise<Seeded[]> {
  const project = await db.project.create({ data: { name: "default" } });
  const people = ["ann@example.com", "bob@example.com", "cyd@example.com"];
  for (const email of people) await db.user.create({ data: { id: email.split("@")[0]!, email, name: email, role: "annotator" } });
  const rows: Seeded[] = [];
  for (let i = 0; i < 60; i++) {
    const r: Seeded = {
      id: `t${String((i * 37) % 60).padStart(2, "0")}x${i}`,
      app: APPS[i % APPS.length]!,
      instruction: `${WORDS[(i * 7) % WORDS.length]} ${WORDS[i % 3]}`,
      stepCount: (i * 13) % 9,
      status: STATUSES[i % STATUSES.length]!,
      outcome: i % 3 === 0 ? null : i % 3 === 1 ? "success" : "failure",
      source: i % 4 === 0 ? "ui-s1" : "mobile-r1",
      assignee: i % 4 === 3 ? null : people[i % people.length]!,
    };
    rows.push(r);
    await db.trajectory.create({
      data: {
        id: r.id,
        projectId: project.id,
        fingerprint: `f${i}`,
        source: r.source,
        app: r.app,
        instruction: r.instruction,
        status: r.status,
        outcome: r.outcome,
        stepCount: r.stepCount,
        assigneeId: r.assignee ? r.assignee.split("@")[0]! : null,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 60 - i)),
      },
    });
  }
  return rows;
}

const value = (r: Seeded, sort: TrajectorySort): string | number | null =>
  sort === "steps" ? r.stepCount : sort === "assignee" ? r.assignee : r[sort];

/** What the list promises: by the column (missing values smallest), then by id, in the asked direction. */
function expected(rows: Seeded[], sort: TrajectorySort, dir: "asc" | "desc"): string[] {
  const cmp = (a: Seeded, b: Seeded) => {
    const x = value(a, sort);
    const y = value(b, sort);
    if (x !== y) {
      if (x === null) return -1;
      if (y === null) return 1;
      return x < y ? -1 : 1;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
  const sorted = [...rows].sort(cmp);
  return (dir === "asc" ? sorted : sorted.reverse()).map((r) => r.id);
}

async function allPages(
  db: Db,
  input: Partial<Parameters<typeof listTrajectories>[0]>,
): Promise<{ total: number; ids: string[]; rows: TrajectoryRow[] }> {
  const rows: TrajectoryRow[] = [];
  let total = 0;
  for (let page = 1; page < 20; page++) {
    const p = await listTrajectories({ actor: reviewer, page, pageSize: 7, ...input }, db);
    total = p.total;
    rows.push(...p.rows);
    if (p.rows.length < 7) break;
  }
  return { total, ids: rows.map((r) => r.id), rows };
}

function suite(open: () => Promise<Db>) {
  let db: Db;
  let rows: Seeded[];
  beforeAll(async () => {
    db = await open();
    rows = await seed(db);
  }, 120_000);
  afterAll(async () => {
    await db?.$disconnect();
  });

  it.each(TRAJECTORY_SORTS.flatMap((s) => (["asc", "desc"] as const).map((d) => [s, d] as const)))(
    "sorts by %s %s across pages, ties broken by id, nothing repeated or skipped",
    async (sort, dir) => {
      const { total, ids } = await allPages(db, { sort, dir });
      expect(total).toBe(60);
      expect(ids).toEqual(expected(rows, sort, dir));
    },
  );

  it("without a sort lists the oldest first, as before", async () => {
    const { ids } = await allPages(db, {});
    expect(ids).toEqual([...rows].reverse().map((r) => r.id));
  });

  it("filters by app, status and assignee together with a sort, and counts only the matches", async () => {
    const match = rows.filter((r) => r.app === "maps");
    for (const status of STATUSES) {
      const want = match.filter((r) => r.status === status);
      const { total, ids } = await allPages(db, { app: "maps", status: status as "new", sort: "steps", dir: "desc" });
      expect(total).toBe(want.length);
      expect(ids).toEqual(expected(want, "steps", "desc"));
    }
    // The assignee sort under a filter: the unassigned part and the assigned part both filtered, pages joined at their border.
    for (const dir of ["asc", "desc"] as const) {
      const want = rows.filter((r) => r.app === "maps");
      const { total, ids } = await allPages(db, { app: "maps", sort: "assignee", dir });
      expect(total).toBe(want.length);
      expect(ids).toEqual(expected(want, "assignee", dir));
    }
    const unassigned = await allPages(db, { assignee: "none", sort: "app" });
    expect(unassigned.ids).toEqual(
      expected(
        rows.filter((r) => r.assignee === null),
        "app",
        "asc",
      ),
    );
    const bob = await allPages(db, { assignee: "BOB@example.com", sort: "outcome", dir: "desc" });
    expect(bob.ids).toEqual(
      expected(
        rows.filter((r) => r.assignee === "bob@example.com"),
        "outcome",
        "desc",
      ),
    );
    expect(bob.rows.every((r) => r.assignee === "bob@example.com")).toBe(true);
  });

  it("matches instruction text case-insensitively, and a % or _ in it only literally", async () => {
    const { ids } = await allPages(db, { q: "DIAL", sort: "instruction" });
    expect(ids).toEqual(
      expected(
        rows.filter((r) => r.instruction.includes("dial")),
        "instruction",
        "asc",
      ),
    );
    expect((await allPages(db, { q: "%" })).total).toBe(0);
    expect((await allPages(db, { q: "a_arm" })).total).toBe(0);
  });

  it("shows an annotator only their own work, whatever the sort", async () => {
    const ann: Actor = { id: "ann", email: "ann@example.com", name: "Ann", role: "annotator", locale: "en" };
    const p = await listTrajectories({ actor: ann, page: 1, pageSize: 200, sort: "assignee", dir: "desc" }, db);
    expect(p.rows.map((r) => r.id)).toEqual(
      expected(
        rows.filter((r) => r.assignee === "ann@example.com"),
        "assignee",
        "desc",
      ),
    );
    await expect(listTrajectories({ actor: ann, page: 1, pageSize: 10, assignee: "none" }, db)).rejects.toThrow(/Annotators see only/);
  });
}

describe("the trajectory list on SQLite", () => {
  suite(async () => (await freshStudio()).db);

  it("reads every sort but the assignee's straight off an index: no full scan, no sort per request", async () => {
    const { db } = await freshStudio();
    const plan = async (sort: TrajectorySort | undefined, dir: "asc" | "desc") =>
      (await db.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${pageSql(sort, dir).sql}`, ...pageSql(sort, dir).values)).map(
        (r) => r.detail,
      );
    for (const sort of [undefined, ...TRAJECTORY_SORTS.filter((s) => s !== "assignee")]) {
      for (const dir of ["asc", "desc"] as const) {
        const lines = await plan(sort, dir);
        const label = `${sort ?? "default"} ${dir}: ${lines.join(" | ")}`;
        expect(
          lines.some((l) => /^SCAN t USING (COVERING )?INDEX Trajectory_\w+_id_idx$/.test(l)),
          label,
        ).toBe(true);
        expect(
          lines.some((l) => /^SCAN t$/.test(l)),
          label,
        ).toBe(false);
        expect(
          lines.some((l) => /TEMP B-TREE/.test(l)),
          label,
        ).toBe(false);
      }
    }
    await db.$disconnect();
  });

  it("reads every sort off indexes under each filter (status, app, the pool, one person's work), count included", async () => {
    const { db } = await freshStudio();
    const annotator: Actor = { id: "ann-id", email: "ann@example.com", name: "Ann", role: "annotator", locale: "en" };
    const plan = async (q: { sql: string; values: unknown[] }) =>
      (await db.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${q.sql}`, ...q.values)).map((r) => r.detail);
    const cases: [string, Actor, Parameters<typeof listSql>[1]][] = [
      ["no filter", reviewer, {}],
      ["status", reviewer, { status: "submitted" }],
      ["app", reviewer, { app: "maps" }],
      ["the pool", reviewer, { pool: true }],
      ["one person's work", reviewer, { assigneeId: "ann-id" }],
      ["an annotator's own list", annotator, {}],
    ];
    for (const [name, caller, filter] of cases) {
      for (const sort of [undefined, ...TRAJECTORY_SORTS]) {
        for (const dir of ["asc", "desc"] as const) {
          const sql = listSql(caller, { ...filter, sort, dir, page: 3, pageSize: 50 });
          const queries: [string, { sql: string; values: unknown[] }][] =
            sql.kind === "one-index"
              ? [
                  ["page", sql.page],
                  ["count", sql.count],
                ]
              : [
                  ["count", sql.count],
                  ["unassigned count", sql.unassignedCount],
                  ["unassigned", sql.unassigned(100, 50)],
                  ["assigned", sql.assigned(100, 50)],
                ];
          for (const [what, query] of queries) {
            const lines = await plan(query);
            const label = `${name}, ${sort ?? "default"} ${dir}, ${what}: ${lines.join(" | ")}`;
            expect(
              lines.some((l) => /^(SEARCH|SCAN) (t|Trajectory) USING (COVERING )?INDEX Trajectory_\w+_idx\b/.test(l)),
              label,
            ).toBe(true);
            expect(
              lines.some((l) => /^SCAN t$/.test(l) || /TEMP B-TREE/.test(l)),
              label,
            ).toBe(false);
          }
        }
      }
    }
    await db.$disconnect();
  });
});

describe.skipIf(!hasPostgres)("the trajectory list on PostgreSQL", () => {
  let server: ReturnType<typeof startPostgres>;
  beforeAll(() => {
    server = startPostgres();
  }, 120_000);
  afterAll(() => server?.stop());
  suite(async () => (await server.freshDb()).db);

  // Outcome's order (missing values first ascending, as on SQLite) is not the order of PostgreSQL's
  // default index (NULLS LAST), so that one sort, like the assignee's, is sorted per request there.
  it("has an index that yields each other sort's order (EXPLAIN with sequential scans and sorts priced out)", async () => {
    const { db } = await server.freshDb();
    for (const sort of [undefined, ...TRAJECTORY_SORTS.filter((s) => s !== "assignee" && s !== "outcome")]) {
      for (const dir of ["asc", "desc"] as const) {
        const q = pageSql(sort, dir);
        const lines = await db.$transaction(async (tx) => {
          await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
          await tx.$executeRawUnsafe("SET LOCAL enable_sort = off");
          return (await tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN ${q.text}`, ...q.values)).map((r) => r["QUERY PLAN"]);
        });
        const label = `${sort ?? "default"} ${dir}: ${lines.join(" | ")}`;
        expect(
          lines.some((l) => /Index (Only )?Scan (Backward )?using "?Trajectory_\w+_id_idx"? on "?Trajectory"?/.test(l)),
          label,
        ).toBe(true);
        expect(
          lines.some((l) => /^\s*(->\s*)?(Sort|Seq Scan on "?Trajectory)/.test(l)),
          label,
        ).toBe(false);
      }
    }
    await db.$disconnect();
  });
});
