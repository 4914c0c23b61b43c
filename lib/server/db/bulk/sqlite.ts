// Staged import rows through better-sqlite3 prepared statements, one IMMEDIATE transaction per chunk.
// The studio's own writes in this process go through the same per-file FIFO lock (db-sqlite.ts), so a
// save waits for at most one chunk (a few milliseconds), never for the whole import. Another process
// holding the file's write lock is waited for asynchronously, as db-sqlite.ts does.
import Database from "better-sqlite3";
import { SQLITE_BUSY_TIMEOUT_MS, writeLockFor } from "../sqlite";
import { columnNames, STAGED_SCREENSHOT, STAGED_STEP, STAGED_TRAJECTORY, type BulkWriter, type StagedChunk, type Table } from "./rows";

/** SQLite's own (event-loop blocking) busy wait; beyond it the chunk is retried after a pause. */
const SYNC_BUSY_MS = 20;

type Bindable = string | number | null;

function insertSql<R>(t: Table<R>, orIgnore = false): string {
  const cols = columnNames(t);
  return `INSERT ${orIgnore ? "OR IGNORE " : ""}INTO "${t.name}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`;
}

/** A row's values in column order; booleans as 0/1, as Prisma stores them in SQLite (columns looked up once per table). */
function valuesOf<R>(t: Table<R>): (row: R) => Bindable[] {
  const cols = columnNames(t);
  const bool = cols.map((c) => t.columns[c] === "bool");
  return (row) => {
    const out: Bindable[] = new Array(cols.length);
    for (let i = 0; i < cols.length; i++) {
      const v = row[cols[i]!] as unknown;
      out[i] = bool[i] ? (v ? 1 : 0) : ((v ?? null) as Bindable);
    }
    return out;
  };
}

function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

export function openSqliteBulkWriter(file: string): BulkWriter {
  const conn = new Database(file, { timeout: SYNC_BUSY_MS });
  const lock = writeLockFor(file);
  const screenshot = conn.prepare(insertSql(STAGED_SCREENSHOT, true));
  const trajectory = conn.prepare(insertSql(STAGED_TRAJECTORY));
  const step = conn.prepare(insertSql(STAGED_STEP));
  const [screenshotValues, trajectoryValues, stepValues] = [
    valuesOf(STAGED_SCREENSHOT),
    valuesOf(STAGED_TRAJECTORY),
    valuesOf(STAGED_STEP),
  ];
  const writeAll = conn.transaction((chunk: StagedChunk) => {
    for (const r of chunk.screenshots) screenshot.run(screenshotValues(r));
    for (const r of chunk.trajectories) trajectory.run(trajectoryValues(r));
    for (const r of chunk.steps) step.run(stepValues(r));
  });
  return {
    async write(chunk) {
      const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
      for (;;) {
        const done = await lock.add(async () => {
          try {
            writeAll.immediate(chunk);
            return true;
          } catch (e) {
            if (!isBusy(e) || Date.now() > deadline) throw e;
            return false;
          }
        });
        if (done) return;
        await new Promise((r) => setTimeout(r, 1));
      }
    },
    async close() {
      conn.close();
    },
  };
}
