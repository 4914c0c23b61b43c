import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as PgClient } from "./generated/postgresql/client";
import { PrismaClient } from "./generated/sqlite/client";
import { databaseUrl, dialectOf, sqlitePath } from "./config";
import { studioSqliteAdapter } from "./db-sqlite";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/**
 * How long a transaction may wait to start, and run. Each request's transaction is its own (a pool
 * connection on PostgreSQL, the writer in turn on SQLite: see db-sqlite.ts); a save queued behind
 * an import's last transaction waits for it rather than failing after Prisma's default 2 s.
 */
export const TRANSACTION_OPTIONS = { maxWait: 20_000, timeout: 15_000 };

/** A new client for `url`. Prefer `db()`, which keeps one per process. */
export function createDb(url = databaseUrl()): Db {
  const client =
    dialectOf(url) === "sqlite"
      ? new PrismaClient({ adapter: studioSqliteAdapter(sqlitePath(url)), transactionOptions: TRANSACTION_OPTIONS })
      : // Both clients come from the same schema, so their APIs are identical; only the SQL dialect differs.
        (new PgClient({ adapter: new PrismaPg({ connectionString: url }), transactionOptions: TRANSACTION_OPTIONS }) as unknown as Db);
  urls.set(client, url);
  return client;
}

// On globalThis like the client itself: Next bundles this module more than once (instrumentation, each
// route), and a client made by one copy is used by the others.
const globalForUrls = globalThis as unknown as { studioDbUrls?: WeakMap<Db, string> };
const urls = (globalForUrls.studioDbUrls ??= new WeakMap<Db, string>());

/** The database URL of a client made by createDb(); undefined for anything else (a transaction's client). */
export function urlOfClient(client: Db | Tx): string | undefined {
  return urls.get(client as Db);
}

/** The database URL a client was made for (bulk writers open their own driver connection to it). */
export function urlOf(client: Db): string {
  const url = urlOfClient(client);
  if (!url) throw new Error("this database client was not made by createDb()");
  return url;
}

const globalForDb = globalThis as unknown as { studioDb?: { url: string; client: Db } };

/** The process-wide client, cached on globalThis so hot reloads do not open new connections. */
export function db(): Db {
  const url = databaseUrl();
  if (globalForDb.studioDb?.url !== url) globalForDb.studioDb = { url, client: createDb(url) };
  return globalForDb.studioDb.client;
}
