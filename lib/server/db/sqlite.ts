// The SQLite driver adapter the studio uses instead of handing Prisma one shared connection.
//
// @prisma/adapter-better-sqlite3 7.10 opens ONE better-sqlite3 connection per client. Its
// startTransaction takes a mutex and runs BEGIN on that connection, but queries made outside a
// transaction do not take the mutex: they run on the same connection, inside whatever transaction
// another request has open. So a request's plain write joins someone else's transaction (and is
// rolled back with it), and plain reads see rows nobody has committed yet.
//
// Here each client has two connections to the database file, in WAL mode with a busy timeout:
//  - a reader, for plain SELECTs (autocommit: each sees only committed data, never blocked by a writer);
//  - a writer, for transactions and for plain writes, one at a time through a FIFO lock shared by every
//    client of the same file in this process. Transactions begin IMMEDIATE, so a transaction never
//    fails half-way by upgrading a stale read snapshot to a write (SQLITE_BUSY_SNAPSHOT).
// The lock is in JavaScript because better-sqlite3 is synchronous: waiting for SQLite's file lock
// blocks the event loop, and if the holder were in this process it could never finish. Another
// process holding the file's write lock (the CLI importing while the server saves) is waited for
// asynchronously: SQLite's own busy wait is kept to a few milliseconds, then the write is retried
// after a pause, so the server keeps answering other requests meanwhile.
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";
import PQueue from "p-queue";

type Inner = Awaited<ReturnType<PrismaBetterSqlite3["connect"]>>;
type Query = Parameters<Inner["queryRaw"]>[0];
type ResultSet = Awaited<ReturnType<Inner["queryRaw"]>>;
type AdapterTransaction = Awaited<ReturnType<Inner["startTransaction"]>>;
type IsolationLevel = Parameters<Inner["startTransaction"]>[0];

/** How long a write waits for another process's write to finish before failing with SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 15_000;
/** SQLite's own (synchronous, event-loop blocking) busy wait on the writer; beyond it, retries are async. */
const SYNC_BUSY_MS = 20;
/** The reader's busy wait: in WAL mode readers are only ever kept waiting by recovery after a crash. */
const READER_BUSY_MS = 5_000;

function isBusy(e: unknown): boolean {
  const code = (e as { cause?: { originalCode?: unknown } } | undefined)?.cause?.originalCode;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

/** Run `fn`, retrying after a pause while another process holds the database's write lock. */
async function retryWhileBusy<T>(fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      if (!isBusy(e) || Date.now() > deadline) throw e;
    }
    // SQLite's own wait (SYNC_BUSY_MS) polls the lock finely; this only lets the event loop turn.
    await new Promise((r) => setTimeout(r, 1));
  }
}

/**
 * A database file's write lock: a p-queue with one slot, so holders run alone and waiters are served in arrival
 * order. `add(fn)` runs fn holding it; a transaction, which spans several calls, holds it with holdLock().
 */
export type FifoLock = PQueue;

/** Wait for `lock` and hold it until the returned release is called (once; later calls do nothing). */
export function holdLock(lock: FifoLock): Promise<() => void> {
  return new Promise((granted) => {
    void lock.add(
      () =>
        new Promise<void>((release) => {
          let isReleased = false;
          granted(() => {
            if (isReleased) return;
            isReleased = true;
            release();
          });
        }),
    );
  });
}

const globalLocks = globalThis as unknown as { studioSqliteWriteLocks?: Map<string, FifoLock> };

/** The write lock of one database file, shared by every client in this process (and across hot reloads). */
export function writeLockFor(file: string): FifoLock {
  const locks = (globalLocks.studioSqliteWriteLocks ??= new Map());
  let lock = locks.get(file);
  if (!lock) locks.set(file, (lock = new PQueue({ concurrency: 1 })));
  return lock;
}

/** Only plain SELECTs go to the reader; anything else (INSERT, UPDATE, DELETE, PRAGMA, WITH ...) is treated as a write. */
function isRead(sql: string): boolean {
  return /^\s*SELECT\b/i.test(sql);
}

const raw = (sql: string): Query => ({ sql, args: [], argTypes: [] });

class StudioSqliteTransaction {
  readonly provider = "sqlite" as const;
  readonly options = { usePhantomQuery: false };
  readonly #writer: Inner;
  readonly #release: () => void;

  constructor(
    writer: Inner,
    release: () => void,
    readonly adapterName: string,
  ) {
    this.#writer = writer;
    this.#release = release;
  }
  queryRaw(q: Query): Promise<ResultSet> {
    return this.#writer.queryRaw(q);
  }
  executeRaw(q: Query): Promise<number> {
    return this.#writer.executeRaw(q);
  }
  // Prisma sends COMMIT / ROLLBACK as queries first (usePhantomQuery: false); these only free the writer.
  commit(): Promise<void> {
    this.#release();
    return Promise.resolve();
  }
  rollback(): Promise<void> {
    this.#release();
    return Promise.resolve();
  }
  async createSavepoint(name: string): Promise<void> {
    await this.#writer.executeRaw(raw(`SAVEPOINT ${name}`));
  }
  async rollbackToSavepoint(name: string): Promise<void> {
    await this.#writer.executeRaw(raw(`ROLLBACK TO ${name}`));
  }
  async releaseSavepoint(name: string): Promise<void> {
    await this.#writer.executeRaw(raw(`RELEASE SAVEPOINT ${name}`));
  }
}

class StudioSqliteAdapter {
  readonly provider = "sqlite" as const;
  readonly #reader: Inner;
  readonly #writer: Inner;
  readonly #lock: FifoLock;

  constructor(
    reader: Inner,
    writer: Inner,
    lock: FifoLock,
    readonly adapterName: string,
  ) {
    this.#reader = reader;
    this.#writer = writer;
    this.#lock = lock;
  }
  queryRaw(q: Query): Promise<ResultSet> {
    return isRead(q.sql) ? this.#reader.queryRaw(q) : this.#lock.add(() => retryWhileBusy(() => this.#writer.queryRaw(q)));
  }
  executeRaw(q: Query): Promise<number> {
    return isRead(q.sql) ? this.#reader.executeRaw(q) : this.#lock.add(() => retryWhileBusy(() => this.#writer.executeRaw(q)));
  }
  executeScript(script: string): Promise<void> {
    return this.#lock.add(() => retryWhileBusy(() => this.#writer.executeScript(script)));
  }
  async startTransaction(isolationLevel?: IsolationLevel): Promise<AdapterTransaction> {
    if (isolationLevel && isolationLevel !== "SERIALIZABLE") {
      // The same refusal the stock adapter gives: SQLite transactions are always serializable.
      return this.#writer.startTransaction(isolationLevel);
    }
    const release = await holdLock(this.#lock);
    try {
      await retryWhileBusy(() => this.#writer.executeRaw(raw("BEGIN IMMEDIATE")));
    } catch (e) {
      release();
      throw e;
    }
    return new StudioSqliteTransaction(this.#writer, release, this.adapterName) as unknown as AdapterTransaction;
  }
  async dispose(): Promise<void> {
    await this.#lock.add(async () => {
      await this.#writer.dispose();
    });
    await this.#reader.dispose();
  }
}

/** How many prepared statements each connection keeps (the studio's distinct SQL texts number in the low hundreds). */
const STATEMENT_CACHE_SIZE = 500;

export type Statement = ReturnType<BetterSqlite3.Database["prepare"]>;

/**
 * Keep each connection's prepared statements instead of compiling the SQL again on every query: the stock
 * adapter calls `prepare(sql).bind(args)` per query, and better-sqlite3 allows one bind per statement, so
 * it can never reuse one. Measured under load, preparing was about half of the time queries spent in
 * SQLite. Here `prepare` hands back a view of a cached statement whose `bind(args)` passes `args` at each
 * run instead; it offers exactly what the adapter uses (reader, run, columns, raw().all), so an adapter
 * that starts using more fails loudly in the tests rather than quietly.
 */
export function cacheStatements(connection: BetterSqlite3.Database, size = STATEMENT_CACHE_SIZE): void {
  const prepare = connection.prepare.bind(connection);
  const cache = new Map<string, Statement>();
  const bound = (stmt: Statement, args: unknown[]) => ({
    reader: stmt.reader,
    run: () => stmt.run(args),
    columns: () => stmt.columns(),
    raw: () => ({ all: () => stmt.raw(true).all(args) }),
  });
  (connection as unknown as { prepare: (sql: string) => unknown }).prepare = (sql: string) => {
    const stmt = keptStatement(cache, prepare, sql, size);
    return { bind: (args: unknown[]) => bound(stmt, args), run: () => stmt.run([]) };
  };
}

/** `sql`'s statement from `cache` (the least recently used one goes when `size` are kept), prepared when missing. */
export function keptStatement(cache: Map<string, Statement>, prepare: (sql: string) => Statement, sql: string, size: number): Statement {
  let stmt = cache.get(sql);
  if (stmt) {
    cache.delete(sql);
  } else {
    stmt = prepare(sql);
    if (cache.size >= size) cache.delete(cache.keys().next().value!);
  }
  cache.set(sql, stmt);
  return stmt;
}

/** The better-sqlite3 connection inside a stock adapter (its `client`, set in its constructor). */
function connectionOf(adapter: Inner): BetterSqlite3.Database {
  const connection = (adapter as unknown as { client?: BetterSqlite3.Database }).client;
  if (!connection || typeof connection.prepare !== "function")
    throw new Error("@prisma/adapter-better-sqlite3 no longer keeps its connection as `client`");
  return connection;
}

/**
 * A Prisma driver adapter factory for the SQLite file at `file`: a reader and a writer connection,
 * WAL, busy timeout, writes serialised per file in this process (see the top of this file).
 */
export function studioSqliteAdapter(file: string): PrismaBetterSqlite3 {
  const stock = new PrismaBetterSqlite3({ url: `file:${file}`, timeout: SYNC_BUSY_MS });
  const stockReader = new PrismaBetterSqlite3({ url: `file:${file}`, timeout: READER_BUSY_MS });
  const lock = writeLockFor(file);
  const factory = {
    provider: "sqlite" as const,
    adapterName: stock.adapterName,
    async connect() {
      const writer = await stock.connect();
      cacheStatements(connectionOf(writer));
      // WAL: readers never wait for the writer and the writer never waits for readers. It is a
      // property of the file (migrate sets it too); setting it again is a no-op.
      await retryWhileBusy(() => writer.executeScript("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;"));
      const reader = await stockReader.connect();
      cacheStatements(connectionOf(reader));
      await reader.executeScript("PRAGMA foreign_keys = ON;");
      return new StudioSqliteAdapter(reader, writer, lock, stock.adapterName) as unknown as Inner;
    },
    connectToShadowDb() {
      return stock.connectToShadowDb();
    },
  };
  return factory as unknown as PrismaBetterSqlite3;
}
