import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as PgClient } from "./generated/postgresql/client";
import { PrismaClient } from "./generated/sqlite/client";
import { databaseUrl, dialectOf, sqlitePath } from "./config";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** A new client for `url`. Prefer `db()`, which keeps one per process. */
export function createDb(url = databaseUrl()): Db {
  if (dialectOf(url) === "sqlite") {
    return new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: `file:${sqlitePath(url)}`, timeout: 10_000 }) });
  }
  // Both clients come from the same schema, so their APIs are identical; only the SQL dialect differs.
  return new PgClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as Db;
}

const globalForDb = globalThis as unknown as { studioDb?: { url: string; client: Db } };

/** The process-wide client, cached on globalThis so hot reloads do not open new connections. */
export function db(): Db {
  const url = databaseUrl();
  if (globalForDb.studioDb?.url !== url) globalForDb.studioDb = { url, client: createDb(url) };
  return globalForDb.studioDb.client;
}
