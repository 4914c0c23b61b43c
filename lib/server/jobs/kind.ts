// What a job kind tells the jobs module: its table (through a narrow adapter over the columns every job
// table shares), its audit names, how often its runner says it is alive, and what becomes of a job whose
// runner is gone (failed, or taken over and run again here). The kinds register themselves once, when
// their handler module is loaded; the module knows them only through this shape.
import type { Db, Tx } from "../db";

/** The columns every job table has, whatever else it holds. */
export type JobRowBase = { id: string; state: string; runnerId: string | null; heartbeatAt: Date | null };

/** A conditional update's filter: the row as it was read (so two processes never both change it). */
export type JobWhere = {
  id: string;
  state?: string | { in: string[] };
  runnerId?: string | null;
  heartbeatAt?: Date | null;
};

/** The shared columns the jobs module writes. */
export type JobPatch = {
  state?: string;
  runnerId?: string;
  heartbeatAt?: Date;
  finishedAt?: Date | null;
  error?: string | null;
};

/**
 * A kind's table as the jobs module sees it. `update` is a conditional update of one row, merging the
 * kind's own progress columns (`progress`, written with a heartbeat) under `data`; it answers how many
 * rows it changed (0 or 1).
 */
export type JobTable<Row extends JobRowBase, Progress> = {
  running(): Promise<Row[]>;
  get(id: string): Promise<Row | null>;
  update(where: JobWhere, data: JobPatch, progress?: Progress): Promise<number>;
};

/** What happens to a running job whose runner is gone. */
export type WhenGone<Row> =
  /** Marked failed with these words (stored as the job's error); its audit row is `<prefix>.fail`. */
  | { fail: (row: Row) => string }
  /** Claimed by this process (`<prefix>.takeover`) and run again here by `resume`. */
  | { takeOver: true };

export type JobKind<Row extends JobRowBase = JobRowBase, Progress = never> = {
  /** The kind's name in this process's registry ("import", "export", "model"). */
  name: string;
  /** Audit rows are `<prefix>.<event>` on entity type `entityType`. */
  audit: { prefix: string; entityType: string };
  table: (db: Db | Tx) => JobTable<Row, Progress>;
  /** How often (ms) a running job's row is touched while it runs. */
  heartbeatMs: number;
  /** A running job silent for this long (ms) is taken as gone when its runner is on another machine. */
  staleMs: number;
  /** States in which the runner still owns and may write the job (a paused job finishes its item in flight). */
  liveStates: readonly string[];
  whenGone: WhenGone<Row>;
  /**
   * Run (or go on with) a job this process has claimed: takeover and resume call it. Returns at once;
   * the run is tracked by `runJob`. Kinds whose jobs are not resumable leave it out.
   */
  resume?: (db: Db, id: string) => void;
  /** Pause, resume and cancel, for the kinds that allow them; `beforeResume` runs before the run starts again. */
  commands?: { beforeResume?: (db: Db, id: string) => Promise<void> };
};

/**
 * A JobWhere for a table whose runnerId and heartbeatAt are never null (ImportJob, ExportJob): a null
 * there (only a model job's row can have one) matches any value, as no such row exists.
 */
export function requiredColumnsWhere(where: JobWhere): { id: string; state?: JobWhere["state"]; runnerId?: string; heartbeatAt?: Date } {
  return { ...where, runnerId: where.runnerId ?? undefined, heartbeatAt: where.heartbeatAt ?? undefined };
}
