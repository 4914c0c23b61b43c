import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { databaseUrl, dialectOf, migrationsDir, sqlitePath, type Dialect } from "../env";

export type MigrationResult = { applied: string[]; alreadyApplied: number };

type Migration = { name: string; sql: string; checksum: string };

/** The committed migrations for a dialect, in order. */
export function loadMigrations(dialect: Dialect, dir = migrationsDir(dialect)): Migration[] {
  if (!existsSync(dir)) throw new Error(`no migrations folder at ${dir}`);
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

// Same shape as Prisma's own table, so `prisma migrate deploy` can take over where its engine exists.
const LEDGER_SQL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMP,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMP,
  "started_at" TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

function plan(migrations: Migration[], applied: Map<string, string>): Migration[] {
  for (const [name, checksum] of applied) {
    const m = migrations.find((x) => x.name === name);
    if (!m) throw new Error(`database has migration ${name}, which is not in this checkout: is the code older than the database?`);
    if (m.checksum !== checksum)
      throw new Error(`migration ${name} was edited after it was applied (checksum differs); add a new migration instead`);
  }
  return migrations.filter((m) => !applied.has(m.name));
}

/**
 * Apply pending SQL migrations to the database at `url` (default: DATABASE_URL), each in its own
 * transaction, recording them in `_prisma_migrations`. Refuses to run if an applied migration changed.
 */
export async function migrate(url = databaseUrl()): Promise<MigrationResult> {
  const dialect = dialectOf(url);
  const migrations = loadMigrations(dialect);
  return dialect === "sqlite" ? migrateSqlite(url, migrations) : migratePostgres(url, migrations);
}

function migrateSqlite(url: string, migrations: Migration[]): MigrationResult {
  const file = sqlitePath(url);
  mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.exec(LEDGER_SQL);
    const rows = db.prepare(`SELECT migration_name, checksum FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`).all() as {
      migration_name: string;
      checksum: string;
    }[];
    const pending = plan(migrations, new Map(rows.map((r) => [r.migration_name, r.checksum])));
    // Prisma's SQLite migrations rebuild tables (create new, copy, DROP old, rename). With foreign
    // keys on, that DROP would cascade and delete every child row, and `PRAGMA foreign_keys` is a
    // no-op inside a transaction, so keys go off around the transaction and are checked before commit.
    db.pragma("foreign_keys = OFF");
    try {
      for (const m of pending) {
        db.transaction(() => {
          db.exec(m.sql);
          const broken = db.pragma("foreign_key_check") as unknown[];
          if (broken.length > 0) throw new Error(`migration ${m.name} leaves ${broken.length} rows with broken foreign keys`);
          db.prepare(
            `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES (?, ?, CURRENT_TIMESTAMP, ?, 1)`,
          ).run(randomUUID(), m.checksum, m.name);
        })();
      }
    } finally {
      db.pragma("foreign_keys = ON");
    }
    return { applied: pending.map((m) => m.name), alreadyApplied: rows.length };
  } finally {
    db.close();
  }
}

async function migratePostgres(url: string, migrations: Migration[]): Promise<MigrationResult> {
  // Loaded here, not at the top: a SQLite studio's commands never load the PostgreSQL driver.
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // One migrator at a time across app instances.
    await client.query("SELECT pg_advisory_lock(727274)");
    await client.query(LEDGER_SQL);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const pending = plan(migrations, new Map(rows.map((r) => [r.migration_name, r.checksum])));
    for (const m of pending) {
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${m.name} failed: ${(e as Error).message}`, { cause: e });
      }
    }
    return { applied: pending.map((m) => m.name), alreadyApplied: rows.length };
  } finally {
    await client.query("SELECT pg_advisory_unlock(727274)").catch(() => {});
    await client.end();
  }
}
