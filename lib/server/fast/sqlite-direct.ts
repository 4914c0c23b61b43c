// A hot write (the editor's step save) on SQLite without Prisma's engine: a better-sqlite3 connection of
// this process to the same file, behind the same per-file FIFO lock every other write in this process
// takes (db-sqlite.ts), one IMMEDIATE transaction per call. The same SQL runs through a Prisma
// transaction elsewhere (PostgreSQL), so a write body is written once against `Exec` and runs on
// either. Measured under load, Prisma's interactive transaction cost more per statement than SQLite's
// write itself, and the lock was held for all of it: every other save waited that long.
import Database from "better-sqlite3";
import { dialectOf, sqlitePath } from "../env";
import { keptStatement, SQLITE_BUSY_TIMEOUT_MS, writeLockFor, type Statement, urlOfClient, type Db, type Tx } from "../db";
import type { Prisma } from "../generated/sqlite/client";

/** Run one statement built with Prisma.sql; the number of rows it changed. */
export type Exec = (q: Prisma.Sql) => Promise<number>;

/**
 * SQLite's own busy wait blocks the event loop, so this writer has none: when another process (a second
 * studio worker, the command line importing) holds the file's write lock, BEGIN fails at once and is
 * tried again after a pause, with the event loop free meanwhile and this process's turn kept.
 */
const SYNC_BUSY_MS = 0;
const STATEMENTS = 100;

type Writer = { db: Database.Database; statements: Map<string, Statement> };
const globalForWriters = globalThis as unknown as { studioSqlWriters?: Map<string, Writer> };

function writerFor(file: string): Writer {
  const writers = (globalForWriters.studioSqlWriters ??= new Map());
  let w = writers.get(file);
  if (!w || !w.db.open) {
    const db = new Database(file, { fileMustExist: true, timeout: SYNC_BUSY_MS });
    db.pragma("foreign_keys = ON");
    w = { db, statements: new Map() };
    writers.set(file, w);
  }
  return w;
}

/** A value as Prisma stores it in SQLite: dates as ISO text with +00:00, booleans as 0/1. */
function bindable(v: unknown, sql: string): string | number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "string" || typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v instanceof Date) return v.toISOString().replace("Z", "+00:00");
  throw new Error(`cannot bind a ${typeof v} in: ${sql.slice(0, 120)}`);
}

function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

/**
 * Run `body` in one write transaction on `client`'s database: directly on SQLite (client made by
 * createDb), else through `client.$transaction`. `body` must do nothing but its statements: on SQLite
 * it holds the file's write lock while it runs.
 */
export async function writeTransaction<T>(client: Db, body: (exec: Exec) => Promise<T>): Promise<T> {
  const url = urlOfClient(client);
  if (url === undefined || dialectOf(url) !== "sqlite") return client.$transaction((tx) => body(prismaExec(tx)));
  const file = sqlitePath(url);
  const w = writerFor(file);
  const exec: Exec = async (q) => {
    const stmt = keptStatement(w.statements, (sql) => w.db.prepare(sql), q.sql, STATEMENTS);
    return stmt.run(q.values.map((v) => bindable(v, q.sql))).changes;
  };
  return writeLockFor(file).add(async () => {
    const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
    // Another process holds the file's write lock (the other studio workers, the command line importing):
    // wait for it here, keeping this process's turn (its later writes queue behind this one), polling
    // at once for the first millisecond (a save holds the lock for well under one), then every millisecond.
    const spinUntil = Date.now() + 1;
    for (;;) {
      try {
        w.db.exec("BEGIN IMMEDIATE");
        break;
      } catch (e) {
        if (!isBusy(e) || Date.now() > deadline) throw e;
      }
      await new Promise((r) => (Date.now() < spinUntil ? setImmediate(r) : setTimeout(r, 1)));
    }
    try {
      const value = await body(exec);
      w.db.exec("COMMIT");
      return value;
    } catch (e) {
      if (w.db.inTransaction) w.db.exec("ROLLBACK");
      throw e;
    }
  });
}

/** The same statements through a Prisma transaction. */
export function prismaExec(tx: Tx): Exec {
  return (q) => tx.$executeRaw(q);
}
