// The studio's one job system, and its public face: import from "@/lib/server/jobs" (or "./jobs"), never
// from the files beside this one.
//
// A job is a row in its kind's table (ImportJob, ExportJob, ModelJob) with the columns every job table
// shares: state, runnerId (the process running it, `host:pid:random`), heartbeatAt, finishedAt, error.
// A kind is one handler module that calls defineJobKind once (lib/server/import/jobs.ts, export/job-kind.ts,
// model/job-runner.ts, eval/runner.ts) and a row in JOB_KINDS (lib/server/startup); its jobs are then claimed, kept alive, recovered and commanded here, the same way for
// every kind:
// - claim: a job is created owned by the process that runs it (`claimed()`), or claimed later by a
//   conditional update (takeover, resume);
// - run: `runJob` tracks it as this process's, touches its row every heartbeatMs with its progress, and
//   aborts its signal when the row says it is no longer this runner's to write;
// - recovery: `recoverJobs` fails or takes over running jobs whose runner is gone (whenGone);
// - commands: pause, resume, cancel for the kinds that declare `commands`;
// - audit: `<prefix>.<event>` rows (fail, takeover, pause, resume, cancel; start and finish by the kind).
import type { Db } from "../db";
import type { JobKind, JobRowBase } from "./kind";
import { recoverJobs } from "./recover";
export { BUILT_BY_NEXT, startWorker } from "./worker-file";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of kinds of every row and progress type
export type AnyJobKind = JobKind<any, any>;

export { requiredColumnsWhere, type JobKind, type JobPatch, type JobRowBase, type JobTable, type JobWhere, type WhenGone } from "./kind";
export { audit, COMMANDS, commandJob, recoverJobs, type JobCommand } from "./recover";
export {
  abortHere,
  claimed,
  ended,
  isRunnerGone,
  isRunningHere,
  reserve,
  runJob,
  runnerId,
  settleJobs,
  stillHeld,
  waitForJob,
  type RunContext,
} from "./runner";

/**
 * A job kind's definition, typed for its handler's calls into this module. Defining a kind registers nothing:
 * the kinds a studio runs are one table, JOB_KINDS in lib/server/startup, which recovery goes over.
 */
export function defineJobKind<Row extends JobRowBase, Progress = never>(kind: JobKind<Row, Progress>): JobKind<Row, Progress> {
  return kind;
}

/**
 * Recover the running jobs of each of `kinds` whose runner is gone (failed or taken over, as each kind
 * says). Answers the ids changed, by kind. One kind's failure does not stop the others; it is logged.
 */
export async function recoverAllJobs(db: Db, kinds: readonly AnyJobKind[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const kind of kinds) {
    try {
      out[kind.name] = await recoverJobs(kind, db);
    } catch (e) {
      console.error(`studio: could not check for interrupted ${kind.name} jobs`, e);
      out[kind.name] = [];
    }
  }
  return out;
}
