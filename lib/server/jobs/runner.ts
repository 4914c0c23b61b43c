// This process's job runner: its id (`host:pid:random`, so a restarted server on the same pid is a new
// runner), the jobs it runs now, and the one heartbeat every running job is kept alive by. A job row
// names the runner that owns it and when that runner last said it is alive; whether another runner is
// gone is decided here and nowhere else.
import { randomBytes } from "node:crypto";
import os from "node:os";
import type { Db, Tx } from "../db";
import type { JobKind, JobRowBase } from "./kind";

type Run = { done: Promise<unknown>; abort: AbortController };
type Runner = { id: string; runs: Map<string, Run> };

// One runner per process, kept on globalThis so Next's module copies (and vitest's reloads) share it.
const globalForJobs = globalThis as unknown as { studioJobRunner?: Runner };
const runner = (globalForJobs.studioJobRunner ??= {
  id: `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`,
  runs: new Map(),
});

/** Progress is written at most this often (ms) between heartbeats. */
const PROGRESS_WRITE_MS = 500;

/** Any kind, where only its name matters. */
type Named = { name: string };
const key = (kind: Named, id: string) => `${kind.name}:${id}`;

/** This process's runner id. */
export function runnerId(): string {
  return runner.id;
}

/** The shared columns of a job this process claims as it creates it: owned here, alive now. */
export function claimed(): { runnerId: string; heartbeatAt: Date } {
  return { runnerId: runner.id, heartbeatAt: new Date() };
}

/** The shared columns of a job that has just ended (with its state and error, written by its kind). */
export function ended(): { heartbeatAt: Date; finishedAt: Date } {
  const now = new Date();
  return { heartbeatAt: now, finishedAt: now };
}

/**
 * Is the process behind another runner's job gone? Silent past `staleMs` (or never heard from): yes.
 * On this machine the pid answers directly (the same pid as this process, which does not run the
 * job, is a previous life of the server); on another machine only the heartbeat can tell.
 */
function isOtherRunnerGone(id: string, heartbeatAt: Date | null, staleMs: number, now: number): boolean {
  if (!heartbeatAt || now - heartbeatAt.getTime() > staleMs) return true;
  const [host, pidText] = id.split(":");
  if (host !== os.hostname()) return false;
  const pid = Number(pidText);
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== "EPERM";
  }
}

/** Is the runner of this running job gone (this process's own jobs: when it does not run it)? `now` in ms. */
export function isRunnerGone(kind: Named & { staleMs: number }, row: JobRowBase, now: number): boolean {
  if (!row.runnerId) return true;
  if (row.runnerId === runner.id) return !runner.runs.has(key(kind, row.id));
  return isOtherRunnerGone(row.runnerId, row.heartbeatAt, kind.staleMs, now);
}

/** Does this process run (or is about to run) this job? */
export function isRunningHere(kind: Named, id: string): boolean {
  return runner.runs.has(key(kind, id));
}

/**
 * Mark a job as this process's before its row exists (an export reserves its id, then records it), so
 * no look in between takes it for a job whose runner is gone. Returns the release for a job that never started.
 */
export function reserve(kind: Named, id: string): () => void {
  const k = key(kind, id);
  const run: Run = { done: Promise.resolve(), abort: new AbortController() };
  runner.runs.set(k, run);
  return () => {
    if (runner.runs.get(k) === run) runner.runs.delete(k);
  };
}

/**
 * Touch the job's row only while it is this runner's and in one of its kind's live states, and say whether
 * it was. Called first in a transaction that writes a job's result, it makes that write wait for (on
 * PostgreSQL) or lose to a cancel or takeover of the job, never both land.
 */
export async function stillHeld<Row extends JobRowBase, Progress>(kind: JobKind<Row, Progress>, db: Db | Tx, id: string): Promise<boolean> {
  const where = { id, runnerId: runner.id, state: { in: [...kind.liveStates] } };
  return (await kind.table(db).update(where, { heartbeatAt: new Date() })) === 1;
}

/** Abort the work in flight of a job this process runs (a cancel). */
export function abortHere(kind: Named, id: string): void {
  runner.runs.get(key(kind, id))?.abort.abort();
}

/** What a job's work is given: its abort signal (cancel, or the job lost), and its progress heartbeat. */
export type RunContext<Progress> = {
  runnerId: string;
  signal: AbortSignal;
  /** Say the job moved on: written at once when the last write is older than 500 ms, else with the next. */
  progressed: (p: Progress) => void;
  /** Stop the heartbeat and wait for the writes it started; call before the job writes how it ended. */
  stop: () => Promise<void>;
};

/**
 * Run a claimed job's work here: tracked as this process's (so it is never taken for gone), its row
 * touched every `heartbeatMs` (with its latest progress) while it is in one of the kind's live states
 * and owned by this runner. When the row says otherwise (cancelled, taken over, removed) and
 * `abortWhenLost` is set, the work's signal is aborted. A run already going here is not started twice
 * (null then).
 */
export function runJob<Row extends JobRowBase, Progress, T>(
  kind: JobKind<Row, Progress>,
  db: Db,
  id: string,
  work: (ctx: RunContext<Progress>) => Promise<T>,
  opts: { abortWhenLost?: boolean; replace?: boolean } = {},
): Promise<T> | null {
  const k = key(kind, id);
  const held = runner.runs.get(k);
  if (held && !opts.replace) return null;
  const table = kind.table(db);
  const abort = held?.abort ?? new AbortController();
  let progress: Progress | undefined;
  let lastWrite = 0;
  let writing: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const beat = () =>
    (writing = writing
      .then(async () => {
        const changed = await table.update(
          { id, runnerId: runner.id, state: { in: [...kind.liveStates] } },
          { heartbeatAt: new Date() },
          progress,
        );
        if (changed !== 1 && opts.abortWhenLost) abort.abort();
      })
      .catch((e: unknown) => console.error(`${kind.name} job ${id}: could not record that it is alive`, e)));
  const timer = setInterval(() => void beat(), kind.heartbeatMs);
  timer.unref?.();
  const stop = async () => {
    stopped = true;
    clearInterval(timer);
    await writing;
  };
  const ctx: RunContext<Progress> = {
    runnerId: runner.id,
    signal: abort.signal,
    progressed: (p) => {
      progress = p;
      if (stopped || Date.now() - lastWrite < PROGRESS_WRITE_MS) return;
      lastWrite = Date.now();
      void beat();
    },
    stop,
  };
  const run: Run = { done: Promise.resolve(), abort };
  const done = (async () => {
    try {
      return await work(ctx);
    } finally {
      await stop();
    }
  })();
  run.done = done
    .catch(() => undefined)
    .finally(() => {
      if (runner.runs.get(k) === run) runner.runs.delete(k);
    });
  runner.runs.set(k, run);
  return done;
}

/** Resolves when this process's run of the job has stopped; unknown ids resolve at once. */
export async function waitForJob(kind: Named, id: string): Promise<void> {
  await runner.runs.get(key(kind, id))?.done;
}

/** Resolves when every job of this kind this process runs has stopped. */
export async function settleJobs(kind: Named): Promise<void> {
  const prefix = `${kind.name}:`;
  await Promise.all([...runner.runs].filter(([k]) => k.startsWith(prefix)).map(([, r]) => r.done));
}

/** For the kinds' own bookkeeping: the Db type is re-exported so handlers need not reach into ../db. */
export type { Db };
