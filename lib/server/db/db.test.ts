// Each request's transaction is its own: on a real SQLite file (and, in import-concurrency.test.ts,
// on PostgreSQL). These reproduce what one shared connection did: a plain write rolled back with
// another request's failed transaction, uncommitted rows seen by other requests, transactions
// failing while they queue, and SQLITE_BUSY while another process writes.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { createDb } from "./client";
import { cacheStatements } from "./sqlite";
import { freshStudio } from "../testing/fixtures";

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe("SQLite: every request's transaction is its own", () => {
  it("a write made outside a transaction survives another request's failed transaction", async () => {
    const { db } = await freshStudio();
    const inside = gate();
    const release = gate();
    const failing = db
      .$transaction(async (tx) => {
        await tx.project.create({ data: { name: "inside-a-failed-transaction" } });
        inside.open();
        await release.opened;
        throw new Error("this request fails");
      })
      .catch((e: Error) => e.message);
    await inside.opened;
    // Another request, no transaction of its own, while the first is still open: it waits its
    // turn (it no longer runs inside the open transaction).
    // (create, createMany and raw SQL: the last two are single statements Prisma sends without a
    // transaction of their own.)
    const outside = Promise.all([
      db.project.create({ data: { name: "written-outside" } }),
      db.project.createMany({ data: [{ name: "written-outside-many" }] }),
      db.$executeRaw`INSERT INTO "Project" ("id", "name") VALUES ('raw', 'written-outside-raw')`,
    ]);
    await new Promise((r) => setTimeout(r, 200));
    release.open();
    expect(await failing).toBe("this request fails");
    await outside;
    const names = (await db.project.findMany({ select: { name: true } })).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["written-outside", "written-outside-many", "written-outside-raw"]));
    expect(names).not.toContain("inside-a-failed-transaction");
    // And a second client of the same file (another module's db()) sees the same.
    const other = createDb(`file:${path.join(process.env.STUDIO_DATA_DIR!, "studio.db")}`);
    expect(await other.project.count({ where: { name: "written-outside" } })).toBe(1);
    await other.$disconnect();
    await db.$disconnect();
  });

  it("rows of an open transaction are invisible to other requests until it commits", async () => {
    const { db } = await freshStudio();
    const inside = gate();
    const release = gate();
    const writing = db.$transaction(async (tx) => {
      await tx.project.createMany({ data: Array.from({ length: 100 }, (_, i) => ({ name: `p${i}` })) });
      inside.open();
      await release.opened;
    });
    await inside.opened;
    expect(await db.project.count()).toBe(0);
    expect(await db.project.findFirst({ where: { name: "p1" } })).toBeNull();
    release.open();
    await writing;
    expect(await db.project.count()).toBe(100);
    await db.$disconnect();
  });

  it("transactions that queue behind a slow one wait their turn instead of failing after 2 s", async () => {
    const { db } = await freshStudio();
    const started = gate();
    const slow = db.$transaction(async (tx) => {
      await tx.project.create({ data: { name: "slow" } });
      started.open();
      await new Promise((r) => setTimeout(r, 2_600));
    });
    await started.opened;
    const t0 = Date.now();
    const quick = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => db.$transaction(async (tx) => tx.project.create({ data: { name: `quick${i}` } }))),
    );
    await slow;
    expect(quick.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason).slice(0, 200))).toEqual([]);
    expect(Date.now() - t0).toBeGreaterThan(2_000);
    expect(await db.project.count()).toBe(21);
    await db.$disconnect();
  });

  it("writes wait for another process's write transaction instead of failing with SQLITE_BUSY", async () => {
    const { db, url } = await freshStudio();
    // Connected and warmed up first, so the writes below land while the other process holds the lock.
    await db.project.create({ data: { name: "warm-up" } });
    await db.$transaction(async (tx) => tx.project.count());
    // Another process (as the command-line import is) holds the database's write lock for 2 s.
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const D = require("better-sqlite3"); const d = new D(${JSON.stringify(url.slice("file:".length))});
         d.exec("BEGIN IMMEDIATE"); d.exec("INSERT INTO \\"Project\\" (id, name) VALUES ('other', 'other-process')");
         console.log("locked"); const until = Date.now() + 2000; while (Date.now() < until) {} d.exec("COMMIT"); d.close();`,
      ],
      { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => holder.stdout!.on("data", (d: Buffer) => d.toString().includes("locked") && resolve()));
    // Meanwhile this process keeps serving: its event loop is not frozen in SQLite's busy wait.
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 10);
    const t0 = performance.now();
    const results = await Promise.allSettled([
      db.project.create({ data: { name: "plain-write" } }),
      db.$transaction(async (tx) => {
        const n = await tx.project.count();
        return tx.project.create({ data: { name: `in-a-transaction-after-${n}` } });
      }),
    ]);
    clearInterval(ticker);
    longestGap = Math.max(longestGap, performance.now() - last);
    expect(results.map((r) => (r.status === "rejected" ? String(r.reason).slice(0, 300) : "ok"))).toEqual(["ok", "ok"]);
    // They waited for the other process (most of its 2 s), without freezing this one.
    expect(performance.now() - t0).toBeGreaterThan(1_000);
    expect(longestGap).toBeLessThan(500);
    await new Promise((r) => holder.on("exit", r));
    expect((await db.project.findMany({ orderBy: { name: "asc" } })).map((p) => p.name)).toEqual(
      expect.arrayContaining(["other-process", "plain-write"]),
    );
    await db.$disconnect();
  });
});

describe("SQLite: prepared statements are kept per connection", () => {
  it("compiles each SQL text once, runs it with each call's own arguments, and keeps within its size", async () => {
    const { dir } = await freshStudio();
    const connection = new Database(path.join(dir, "cache.db"));
    connection.defaultSafeIntegers(true);
    const compile = connection.prepare.bind(connection);
    const compiled: string[] = [];
    connection.prepare = ((sql: string) => {
      compiled.push(sql);
      return compile(sql);
    }) as typeof connection.prepare;
    cacheStatements(connection, 2);
    // What the stock adapter calls: prepare(sql).bind(args), then run() or reader/columns()/raw().all().
    type View = {
      bind(args: unknown[]): { reader: boolean; run(): { changes: number }; columns(): { name: string }[]; raw(): { all(): unknown[][] } };
    };
    const q = (sql: string, args: unknown[] = []) => (connection.prepare(sql) as unknown as View).bind(args);
    q("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)").run();
    const insert = "INSERT INTO t (id, name) VALUES (?, ?)";
    expect(q(insert, [1, "one"]).run().changes).toBe(1);
    expect(q(insert, [2, "two"]).run().changes).toBe(1);
    const select = "SELECT id, name FROM t WHERE id >= ? ORDER BY id";
    const first = q(select, [1]);
    expect(first.reader).toBe(true);
    expect(first.columns().map((c) => c.name)).toEqual(["id", "name"]);
    expect(first.raw().all()).toEqual([
      [1n, "one"],
      [2n, "two"],
    ]);
    expect(q(select, [2]).raw().all()).toEqual([[2n, "two"]]);
    expect(compiled.filter((s) => s === insert)).toHaveLength(1);
    expect(compiled.filter((s) => s === select)).toHaveLength(1);
    // A third text evicts the least recently used (the insert); it is compiled again when needed.
    q("SELECT count(*) FROM t").raw().all();
    expect(q(insert, [3, "three"]).run().changes).toBe(1);
    expect(compiled.filter((s) => s === insert)).toHaveLength(2);
    expect(q(select, [3]).raw().all()).toEqual([[3n, "three"]]);
    connection.close();
  });

  it("a studio client still reads what it wrote, in and out of transactions, with statements reused", async () => {
    const { db } = await freshStudio();
    for (let i = 0; i < 5; i++) {
      await db.$transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO "Project" ("id", "name") VALUES (${`p${i}`}, ${`project ${i}`})`;
      });
      const rows = await db.$queryRaw<{ name: string }[]>`SELECT "name" FROM "Project" WHERE "id" = ${`p${i}`}`;
      expect(rows).toEqual([{ name: `project ${i}` }]);
    }
    expect(await db.project.count({ where: { id: { startsWith: "p" } } })).toBe(5);
  });
});
