// The direct SQLite write path must store what Prisma stores (dates, booleans), be all-or-nothing, and
// wait for a write lock held outside this process's own lock (the command line importing) instead of failing.
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { Prisma } from "../generated/sqlite/client";
import { writeTransaction } from "./sqlite-direct";
import { freshStudio } from "../testing/fixtures";

describe("writeTransaction on SQLite", () => {
  it("stores dates and booleans as Prisma does, so Prisma reads them back as written", async () => {
    const { db } = await freshStudio();
    const at = new Date("2026-11-23T01:02:03.456Z");
    await writeTransaction(db, async (exec) => {
      await exec(Prisma.sql`INSERT INTO "Project" ("id", "name", "createdAt") VALUES (${"d1"}, ${"direct"}, ${at})`);
      return null;
    });
    const viaPrisma = await db.project.create({ data: { id: "p1", name: "prisma", createdAt: at } });
    const direct = await db.project.findUniqueOrThrow({ where: { id: "d1" } });
    expect(direct.createdAt.toISOString()).toBe(at.toISOString());
    const stored = await db.$queryRaw<
      { id: string; createdAt: string }[]
    >`SELECT "id", CAST("createdAt" AS TEXT) AS "createdAt" FROM "Project" WHERE "id" IN ('d1', 'p1') ORDER BY "id"`;
    expect(stored[0]!.createdAt).toBe(stored[1]!.createdAt);
    expect(viaPrisma.createdAt.toISOString()).toBe(at.toISOString());
  });

  it("writes nothing when its body fails, and the next write goes through", async () => {
    const { db } = await freshStudio();
    await expect(
      writeTransaction(db, async (exec) => {
        await exec(Prisma.sql`INSERT INTO "Project" ("id", "name") VALUES (${"x1"}, ${"half"})`);
        throw new Error("the second statement fails");
      }),
    ).rejects.toThrow(/second statement/);
    expect(await db.project.count({ where: { id: "x1" } })).toBe(0);
    const changed = await writeTransaction(db, (exec) =>
      exec(Prisma.sql`INSERT INTO "Project" ("id", "name") VALUES (${"x2"}, ${"whole"})`),
    );
    expect(changed).toBe(1);
    expect(await db.project.count({ where: { id: "x2" } })).toBe(1);
  });

  it("waits for a write lock held by another connection to the file, then writes", async () => {
    const { db, dir } = await freshStudio();
    const other = new Database(path.join(dir, "studio.db"));
    other.exec("BEGIN IMMEDIATE");
    setTimeout(() => other.exec("COMMIT"), 300);
    const started = Date.now();
    await writeTransaction(db, (exec) => exec(Prisma.sql`INSERT INTO "Project" ("id", "name") VALUES (${"w1"}, ${"after the other"})`));
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(await db.project.count({ where: { id: "w1" } })).toBe(1);
    other.close();
  });

  it("keeps this process's order while it waits, and leaves the event loop free", async () => {
    const { db, dir } = await freshStudio();
    const other = new Database(path.join(dir, "studio.db"));
    other.exec("BEGIN IMMEDIATE");
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 5);
    setTimeout(() => other.exec("COMMIT"), 200);
    const insert = (id: string) =>
      writeTransaction(db, (exec) => exec(Prisma.sql`INSERT INTO "Project" ("id", "name") VALUES (${id}, ${id})`));
    await Promise.all([insert("first"), insert("second"), insert("third")]);
    clearInterval(ticking);
    expect(ticks).toBeGreaterThan(10);
    const order = other.prepare(`SELECT "id" FROM "Project" WHERE "id" IN ('first', 'second', 'third') ORDER BY rowid`).all();
    expect(order).toEqual([{ id: "first" }, { id: "second" }, { id: "third" }]);
    other.close();
  });
});
