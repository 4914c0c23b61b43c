// Background jobs (exports, model jobs) are rows claimed by a runner named `host:pid:random`; these
// helpers name this process's runner and tell whether another runner's process is gone.
import { randomBytes } from "node:crypto";
import os from "node:os";

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
