import { diffSql } from "../../../scripts/prisma-dialects.mjs";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMigrations, migrate } from "./migrate";
import { createDb, loadDialect } from "./client";
import { importFile } from "../import";
import { getStats } from "../annotate/trajectory-list";
import { blankPng } from "../testing/fixtures";
import { hasPostgres, startPostgres, type PostgresServer } from "../testing/postgres";
import { CLI_ACTOR } from "../people/audit";

const ROOT = process.cwd();

function columnsOf(file: string) {
  const db = new Database(file, { readonly: true });
  const tables = (
    db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
      )
      .all() as { name: string }[]
  ).map((t) => t.name);
  const shape = Object.fromEntries(
    tables.map((t) => [
      t,
      (db.prepare(`PRAGMA table_info("${t}")`).all() as { name: string; type: string; notnull: number; pk: number }[])
        .map((c) => `${c.name} ${c.type} ${c.notnull} ${c.pk}`)
        .sort(),
    ]), // ALTER TABLE appends columns, so order is not compared
  );
  const indexes = (
    db.prepare(`SELECT name FROM sqlite_master WHERE type='index' AND sql IS NOT NULL ORDER BY name`).all() as { name: string }[]
  ).map((i) => i.name);
  db.close();
  return { shape, indexes };
}

describe("SQL migrations", () => {
  it("produce exactly the database prisma/schema.prisma describes (no schema change without a migration)", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "schema-check-"));
    // The SQL Prisma would write for the current schema from scratch, applied to a scratch database...
    const { sql } = diffSql("sqlite");
    expect(sql).toMatch(/CREATE TABLE "Trajectory"/);
    const expected = path.join(dir, "expected.db");
    const e = new Database(expected);
    e.exec(sql);
    e.close();
    // ...must match what the committed migrations build.
    const actual = path.join(dir, "actual.db");
    return migrate(`file:${actual}`).then((r) => {
      expect(r.applied.length).toBe(loadMigrations("sqlite").length);
      expect(columnsOf(actual)).toEqual(columnsOf(expected));
    });
  });

  it("apply once, then report nothing to do", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "mig-")), "db.sqlite");
    expect((await migrate(`file:${file}`)).applied.length).toBeGreaterThan(0);
    expect(await migrate(`file:${file}`)).toEqual({ applied: [], alreadyApplied: loadMigrations("sqlite").length });
  });

  it("keep existing rows when a later migration rebuilds a table (SQLite drops and recreates tables)", async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), "mig-data-"));
    const all = loadMigrations("sqlite");
    expect(all.length).toBeGreaterThan(1);
    // A database at the first migration, holding a trajectory with steps...
    cpSync(path.join(ROOT, "prisma"), path.join(work, "prisma"), { recursive: true });
    for (const m of all.slice(1)) rmSync(path.join(work, "prisma/migrations/sqlite", m.name), { recursive: true });
    const file = path.join(work, "db.sqlite");
    const cwd = process.cwd();
    process.chdir(work);
    try {
      await migrate(`file:${file}`);
    } finally {
      process.chdir(cwd);
    }
    const raw = new Database(file);
    raw.exec(`INSERT INTO "Project" (id, name) VALUES ('p', 'p');
      INSERT INTO "Screenshot" (sha256, width, height, bytes, mime) VALUES ('s', 10, 10, 1, 'image/png');
      INSERT INTO "Trajectory" (id, projectId, fingerprint, source, app, instruction, stepCount, updatedAt) VALUES ('t', 'p', 'f', 'demo', 'A', 'I', 2, CURRENT_TIMESTAMP);
      INSERT INTO "Step" (id, trajectoryId, "index", screenshotSha, originalJson, toolCallJson, updatedAt) VALUES
        ('s0', 't', 0, 's', '{}', '{}', CURRENT_TIMESTAMP), ('s1', 't', 1, 's', '{}', '{}', CURRENT_TIMESTAMP);`);
    raw.close();
    // ...then brought up to date with the real migrations.
    const r = await migrate(`file:${file}`);
    expect(r.applied).toEqual(all.slice(1).map((m) => m.name));
    const after = new Database(file, { readonly: true });
    expect(after.prepare(`SELECT COUNT(*) AS n FROM "Step"`).get()).toEqual({ n: 2 });
    expect(after.prepare(`SELECT COUNT(*) AS n FROM "Trajectory"`).get()).toEqual({ n: 1 });
    after.close();
  });

  it("refuse a migration that was edited after it was applied, and change nothing", async () => {
    const work = mkdtempSync(path.join(os.tmpdir(), "mig-edit-"));
    cpSync(path.join(ROOT, "prisma"), path.join(work, "prisma"), { recursive: true });
    const file = path.join(work, "db.sqlite");
    const cwd = process.cwd();
    process.chdir(work);
    try {
      await migrate(`file:${file}`);
      const first = loadMigrations("sqlite")[0]!;
      const sqlFile = path.join(work, "prisma/migrations/sqlite", first.name, "migration.sql");
      writeFileSync(sqlFile, `${readFileSync(sqlFile, "utf8")}\n-- edited\n`);
      await expect(migrate(`file:${file}`)).rejects.toThrow(/was edited after it was applied/);
    } finally {
      process.chdir(cwd);
    }
  });
});

// PostgreSQL: a private server started for this test (Debian's postgresql package). CI machines
// have it; where it is missing the suite says so and skips only this block.
describe.skipIf(!hasPostgres)("PostgreSQL", () => {
  let server: PostgresServer;
  let url = "";
  beforeAll(() => {
    server = startPostgres();
    url = server.url("postgres");
  }, 60_000);
  afterAll(() => server?.stop());

  it("migrates and imports the same way as SQLite", async () => {
    expect((await migrate(url)).applied.length).toBe(loadMigrations("postgresql").length);
    await loadDialect("postgresql");
    const db = createDb(url);
    const src = mkdtempSync(path.join(os.tmpdir(), "pg-src-"));
    writeFileSync(path.join(src, "a.png"), await blankPng(1080, 2400));
    writeFileSync(
      path.join(src, "data.jsonl"),
      `${JSON.stringify({ goal: "在淘宝搜索耳机", is_successful: false, steps: [{ action_content: { action: "click", coordinate: [540, 300], bbox: [400, 250, 700, 350] }, screenshot: "a.png" }] })}\n`,
    );
    process.env.STUDIO_DATA_DIR = mkdtempSync(path.join(os.tmpdir(), "pg-store-"));
    const r = await importFile({ file: path.join(src, "data.jsonl"), format: "ui-s1", db });
    expect(r).toMatchObject({ ok: true, trajectories: 1, steps: 1 });
    expect(await getStats({ actor: CLI_ACTOR }, db)).toMatchObject({ trajectories: 1, steps: 1, apps: 1 });
    expect(
      (await importFile({ file: path.join(src, "data.jsonl"), format: "ui-s1", db })).ok &&
        (await getStats({ actor: CLI_ACTOR }, db)).trajectories,
    ).toBe(1);
    await db.$disconnect();
  });
});
