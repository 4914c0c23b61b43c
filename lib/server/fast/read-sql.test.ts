// The hot reads' own SQLite reader must see exactly what Prisma's reader sees: every committed write at
// once, nothing uncommitted; inside a transaction the read goes through the transaction (its own writes).
import { describe, expect, it } from "vitest";
import { Prisma } from "../generated/sqlite/client";
import { readRows } from "./index";
import { freshStudio } from "../testing/fixtures";

const names = async (client: Parameters<typeof readRows>[0]) =>
  (await readRows<{ name: string }>(client, Prisma.sql`SELECT "name" FROM "Project" WHERE "id" LIKE ${"rs-%"} ORDER BY "name"`)).map(
    (r) => r.name,
  );

describe("readRows on SQLite", () => {
  it("sees each committed write at once, never an uncommitted one, and a transaction reads its own", async () => {
    const { db } = await freshStudio();
    expect(await names(db)).toEqual([]);
    await db.project.create({ data: { id: "rs-1", name: "one" } });
    expect(await names(db)).toEqual(["one"]);
    await db.project.update({ where: { id: "rs-1" }, data: { name: "two" } });
    expect(await names(db)).toEqual(["two"]);
    await db.$transaction(async (tx) => {
      await tx.project.create({ data: { id: "rs-2", name: "three" } });
      expect(await names(tx)).toEqual(["three", "two"]);
      expect(await names(db)).toEqual(["two"]);
    });
    expect(await names(db)).toEqual(["three", "two"]);
    // A rolled-back transaction leaves nothing to see.
    await db
      .$transaction(async (tx) => {
        await tx.project.create({ data: { id: "rs-3", name: "four" } });
        throw new Error("roll back");
      })
      .catch(() => undefined);
    expect(await names(db)).toEqual(["three", "two"]);
  });

  it("binds text, numbers and null, and names anything else it is given", async () => {
    const { db } = await freshStudio();
    await db.project.create({ data: { id: "rs-n", name: "numbered" } });
    const rows = await readRows<{ n: number }>(
      db,
      Prisma.sql`SELECT ${41} + 1 AS "n", ${null} AS "nothing" FROM "Project" WHERE "id" = ${"rs-n"}`,
    );
    expect(rows).toEqual([{ n: 42, nothing: null }]);
    await expect(readRows(db, Prisma.sql`SELECT "id" FROM "Project" WHERE "createdAt" > ${new Date()}`)).rejects.toThrow(/got a Date/);
  });
});
