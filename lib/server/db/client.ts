import { databaseUrl, dialectOf, sqlitePath, type Dialect } from "../env";
import type { PrismaClient } from "../generated/sqlite/client";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/**
 * How long a transaction may wait to start, and run. Each request's transaction is its own (a pool
 * connection on PostgreSQL, the writer in turn on SQLite: see db-sqlite.ts); a save queued behind
 * an import's last transaction waits for it rather than failing after Prisma's default 2 s.
 */
export const TRANSACTION_OPTIONS = { maxWait: 20_000, timeout: 15_000 };

type MakeClient = (url: string) => Db;
// On globalThis like the client itself (see below): a dialect loaded by one copy of this module serves all.
const globalForDialects = globalThis as unknown as { studioDbDialects?: Partial<Record<Dialect, MakeClient>> };
const makers = (globalForDialects.studioDbDialects ??= {});

/**
 * Loads one dialect's generated Prisma client and driver adapter, once per process. Each generated client
 * builds its class when evaluated (schema, query compiler settings) and PostgreSQL's pulls in the pg driver:
 * loading only the dialect in use keeps that work out of every command-line start. This module loads the
 * dialect of DATABASE_URL as it is imported; code that opens a database of the other dialect too (tests,
 * the move between databases) awaits this first.
 */
export async function loadDialect(dialect: Dialect): Promise<void> {
  if (makers[dialect]) return;
  if (dialect === "sqlite") {
    const [{ PrismaClient }, { studioSqliteAdapter }] = await Promise.all([import("../generated/sqlite/client"), import("./sqlite")]);
    makers.sqlite ??= (url) => new PrismaClient({ adapter: studioSqliteAdapter(sqlitePath(url)), transactionOptions: TRANSACTION_OPTIONS });
  } else {
    const [{ PrismaClient }, { PrismaPg }] = await Promise.all([import("../generated/postgresql/client"), import("@prisma/adapter-pg")]);
    // Both clients come from the same schema, so their APIs are identical; only the SQL dialect differs.
    makers.postgresql ??= (url) =>
      new PrismaClient({ adapter: new PrismaPg({ connectionString: url }), transactionOptions: TRANSACTION_OPTIONS }) as unknown as Db;
  }
}

// The dialect in use, loaded before any caller can ask for a client. A DATABASE_URL that names no dialect
// loads nothing here: createDb() then says what is wrong with it, as before.
const configured = (() => {
  try {
    return dialectOf(databaseUrl());
  } catch {
    return undefined;
  }
})();
if (configured) await loadDialect(configured);

/** A new client for `url`. Prefer `db()`, which keeps one per process. */
export function createDb(url = databaseUrl()): Db {
  const dialect = dialectOf(url);
  const make = makers[dialect];
  if (!make) throw new Error(`the ${dialect} database client is not loaded: await loadDialect("${dialect}") before createDb()`);
  const client = make(url);
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
