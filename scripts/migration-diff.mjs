// Writes the SQL migration that takes the database from the last migrated schema to
// prisma/schema.prisma, for SQLite and PostgreSQL: `npm run db:diff -- <name>`.
// Prisma 7's schema engine needs a native binary we cannot download; Prisma 6.19's CLI
// (installed as "prisma6") ships a wasm schema engine that computes the same diff offline.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync, copyFileSync } from "node:fs";
import path from "node:path";
import { DIALECTS, ROOT, schemaFor } from "./prisma-dialects.mjs";

const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]/gi, "_");
if (!name) {
  console.error("usage: npm run db:diff -- <migration_name>");
  process.exit(2);
}
const tmp = path.join(ROOT, ".tmp/prisma-diff");
mkdirSync(tmp, { recursive: true });
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const URLS = { sqlite: "file:./unused.db", postgresql: "postgresql://unused@127.0.0.1/unused" };

for (const dialect of DIALECTS) {
  const dir = path.join(ROOT, "prisma/migrations", dialect);
  mkdirSync(dir, { recursive: true });
  const snapshot = path.join(dir, "schema.snapshot.prisma");
  const target = path.join(tmp, `schema.${dialect}.prisma`);
  writeFileSync(target, schemaFor(dialect, { url: URLS[dialect] }));
  const config = path.join(tmp, `prisma6.${dialect}.config.mjs`);
  // The js engine insists on an adapter even for a file-to-file diff; a throwaway SQLite file serves.
  writeFileSync(config, `import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
export default { experimental: { adapter: true }, engine: "js", schema: ${JSON.stringify(target)},
  adapter: async () => new PrismaBetterSqlite3({ url: "file:${path.join(tmp, "scratch.db")}" }) };\n`);
  const from = existsSync(snapshot) ? ["--from-schema-datamodel", snapshot] : ["--from-empty"];
  const sql = execFileSync(
    process.execPath,
    [path.join(ROOT, "node_modules/prisma6/build/index.js"), "migrate", "diff", "--config", config, ...from, "--to-schema-datamodel", target, "--script"],
    { cwd: ROOT, encoding: "utf8", env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true", PRISMA_QUERY_ENGINE_LIBRARY: "/bin/true", CHECKPOINT_DISABLE: "1" } },
  );
  if (!/CREATE|ALTER|DROP|INSERT|PRAGMA/i.test(sql)) {
    console.log(`${dialect}: schema unchanged, no migration written`);
    continue;
  }
  const folder = path.join(dir, `${stamp}_${name}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, "migration.sql"), sql.trimStart());
  copyFileSync(target, snapshot);
  console.log(`${dialect}: wrote ${path.relative(ROOT, folder)}/migration.sql (${readdirSync(dir).length - 1} migrations)`);
}
