// Writes the SQL migration that takes the database from the last migrated schema to
// prisma/schema.prisma, for SQLite and PostgreSQL: `npm run db:diff -- <name>`.
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DIALECTS, ROOT, diffSql } from "./prisma-dialects.mjs";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]/gi, "_");
if (!name) {
  console.error("usage: npm run db:diff -- <migration_name>");
  process.exit(2);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);

for (const dialect of DIALECTS) {
  const dir = path.join(ROOT, "prisma/migrations", dialect);
  mkdirSync(dir, { recursive: true });
  const snapshot = path.join(dir, "schema.snapshot.prisma");
  const { sql, target } = diffSql(dialect, existsSync(snapshot) ? snapshot : null);
  if (!/CREATE|ALTER|DROP|INSERT|PRAGMA/i.test(sql)) {
    console.log(`${dialect}: schema unchanged, no migration written`);
    continue;
  }
  const folder = path.join(dir, `${stamp}_${name}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, "migration.sql"), sql);
  copyFileSync(target, snapshot);
  console.log(`${dialect}: wrote ${path.relative(ROOT, folder)}/migration.sql (${readdirSync(dir).length - 1} migrations)`);
}
