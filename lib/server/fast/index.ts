// The hot reads (session lookup, the editor's trajectory, the list, the dashboard) on the fastest path
// each dialect has. On SQLite, outside a transaction: a read-only better-sqlite3 connection of this
// process to the same file, with its statements kept; in WAL mode it sees exactly what Prisma's own
// reader sees (every committed write, nothing uncommitted). Inside a transaction, and on PostgreSQL:
// Prisma's $queryRaw with the same SQL, so a transaction still reads its own writes.
//
// Why: measured in-process on a trajectory read, Prisma's query engine and its driver adapter's row
// mapping cost more than SQLite's own execution of the query. The rows come back as the driver gives
// them (numbers, text for dates, 0/1 for booleans): callers convert explicitly (Number, Boolean,
// new Date), as they must for PostgreSQL's types anyway.
import Database from "better-sqlite3";
import { dialectOf, sqlitePath } from "../env";
import { urlOfClient, type Db, type Tx, keptStatement, type Statement } from "../db";
import type { Prisma } from "../generated/sqlite/client";
export { type Exec, prismaExec, writeTransaction } from "./sqlite-direct";
export { sqliteStats } from "./stats-direct";

type Connection = { db: Database.Database; statements: Map<string, Statement> };
const STATEMENTS_PER_CONNECTION = 200;

// On globalThis like the clients: the server loads this module more than once (Next's bundle, the API lane).
const globalForReaders = globalThis as unknown as { studioSqlReaders?: Map<string, Connection> };

function readerFor(file: string): Connection {
  const readers = (globalForReaders.studioSqlReaders ??= new Map());
  let reader = readers.get(file);
  if (!reader || !reader.db.open) {
    reader = { db: new Database(file, { readonly: true, fileMustExist: true, timeout: 5_000 }), statements: new Map() };
    readers.set(file, reader);
  }
  return reader;
}

/** The rows of `query`, a SELECT built with Prisma.sql (values: text, numbers, null). */
export async function readRows<T>(client: Db | Tx, query: Prisma.Sql): Promise<T[]> {
  // A transaction's client is not one createDb() made: it reads through the transaction.
  const url = urlOfClient(client);
  if (url === undefined || dialectOf(url) !== "sqlite") return client.$queryRaw<T[]>(query);
  for (const v of query.values) {
    if (v !== null && typeof v !== "string" && typeof v !== "number") {
      throw new Error(
        `readRows binds text, numbers and null; got ${v instanceof Date ? "a Date" : typeof v} in: ${query.sql.slice(0, 120)}`,
      );
    }
  }
  const reader = readerFor(sqlitePath(url));
  return keptStatement(reader.statements, (sql) => reader.db.prepare(sql), query.sql, STATEMENTS_PER_CONNECTION).all(query.values) as T[];
}
