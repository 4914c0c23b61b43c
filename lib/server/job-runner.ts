// Background jobs (exports, model jobs) are rows claimed by a runner named `host:pid:random`; these
// helpers name this process's runner and tell whether another runner's process is gone.
import { randomBytes } from "node:crypto";
import os from "node:os";
import { recordAudit, SYSTEM_ACTOR } from "./audit";
import type { Db } from "./db";

/** A runner id for this process: `host:pid:random`, so a restarted server on the same pid is a new runner. */
export function newRunnerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

/**
 * Is the process behind another runner's job gone? Silent past `staleMs` (or never heard from): yes.
 * On this machine the pid answers directly (the same pid as this process, which does not run the
 * job, is a previous life of the server); on another machine only the heartbeat can tell.
 */
export function isOtherRunnerGone(runnerId: string, heartbeatAt: Date | null, staleMs: number, now: number): boolean {
  if (!heartbeatAt || now - heartbeatAt.getTime() > staleMs) return true;
  const [host, pidText] = runnerId.split(":");
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

type RunningRow = { id: string; runnerId: string; heartbeatAt: Date };

/**
 * Fail the running jobs whose process is gone, each once, with an audit row (`<kind>.fail`, by the
 * system). `fail` is the conditional update: it must match the row only while it is still running
 * with the heartbeat it was judged by (so a job that just said it is alive is left alone), and return
 * how many rows it changed. Returns the ids failed here.
 */
export async function failStoppedJobs<R extends RunningRow>(
  prisma: Db,
  kind: "export" | "import",
  rows: R[],
  isGone: (row: R) => boolean,
  why: (row: R) => string,
  fail: (row: R, error: string) => Promise<number>,
): Promise<string[]> {
  const failed: string[] = [];
  for (const row of rows) {
    if (!isGone(row)) continue;
    const error = why(row);
    if ((await fail(row, error)) !== 1) continue;
    failed.push(row.id);
    await recordAudit(prisma, {
      actor: SYSTEM_ACTOR,
      action: `${kind}.fail`,
      entityType: kind,
      entityId: row.id,
      before: { state: "running", runnerId: row.runnerId },
      after: { state: "failed", error },
    });
  }
  return failed;
}
