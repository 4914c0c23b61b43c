// The schema is written once (prisma/schema.prisma, provider "sqlite"). These helpers derive the
// per-dialect copies the Prisma CLIs need: one generated client per dialect, and SQL migrations
// per dialect. Nothing here talks to a network.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const DIALECTS = ["sqlite", "postgresql"];
const DIFF_URLS = { sqlite: "file:./unused.db", postgresql: "postgresql://unused@127.0.0.1/unused" };

/** Schema text for `dialect`; `url` adds the datasource url line Prisma 6's diff needs; `output` moves the client. */
export function schemaFor(dialect, { url, output } = {}) {
  let text = readFileSync(path.join(ROOT, "prisma/schema.prisma"), "utf8");
  text = text.replace(/provider\s*=\s*"sqlite"/, `provider = "${dialect}"${url ? `\n  url      = "${url}"` : ""}`);
  if (output) text = text.replace(/output\s*=\s*"[^"]*"/, `output       = "${output}"`);
  return text;
}

/**
 * SQL that takes a database from `fromSchemaFile` (or empty) to the current schema, for `dialect`.
 * Prisma 7's schema engine needs a native binary we cannot download; Prisma 6.19's CLI (installed
 * as "prisma6") ships a wasm schema engine that computes the same diff offline. Returns
 * { sql, target } where target is the dialect copy of the current schema the diff was made against.
 */
export function diffSql(dialect, fromSchemaFile) {
  const tmp = path.join(ROOT, ".tmp/prisma-diff");
  mkdirSync(tmp, { recursive: true });
  const target = path.join(tmp, `schema.${dialect}.prisma`);
  writeFileSync(target, schemaFor(dialect, { url: DIFF_URLS[dialect] }));
  // The js engine insists on an adapter even for a file-to-file diff; a throwaway SQLite file serves.
  // The config lives inside the repo so it resolves the repo's node_modules.
  const config = path.join(tmp, `prisma6.${dialect}.config.mjs`);
  writeFileSync(
    config,
    `import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
export default { experimental: { adapter: true }, engine: "js", schema: ${JSON.stringify(target)},
  adapter: async () => new PrismaBetterSqlite3({ url: ${JSON.stringify(`file:${path.join(tmp, "scratch.db")}`)} }) };\n`,
  );
  const from = fromSchemaFile ? ["--from-schema-datamodel", fromSchemaFile] : ["--from-empty"];
  const sql = execFileSync(
    process.execPath,
    [
      path.join(ROOT, "node_modules/prisma6/build/index.js"),
      "migrate",
      "diff",
      "--config",
      config,
      ...from,
      "--to-schema-datamodel",
      target,
      "--script",
    ],
    {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true", PRISMA_QUERY_ENGINE_LIBRARY: "/bin/true", CHECKPOINT_DISABLE: "1" },
    },
  );
  return { sql: sql.trimStart(), target };
}
