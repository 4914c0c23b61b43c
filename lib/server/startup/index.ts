// What a starting studio process does, above every capability: the table of job kinds it runs, and the tidying
// up after a crash. A new job kind is a handler module (defineJobKind) and a row here; startup/job-kinds.test.ts
// checks the rows against the job tables of prisma/schema.prisma.
import { db } from "../db";
import { EVAL_JOBS } from "../eval";
import { EXPORT_JOBS, recoverExportJobs } from "../export";
import { sweepAbandonedImports, IMPORT_JOBS } from "../import";
import { recoverAllJobs } from "../jobs";
import { MODEL_JOBS } from "../model";

/** Every job kind the studio runs, with the Prisma model of its table (the columns every job table shares). */
export const JOB_KINDS = [
  { kind: IMPORT_JOBS, model: "ImportJob" },
  { kind: EXPORT_JOBS, model: "ExportJob" },
  { kind: MODEL_JOBS, model: "ModelJob" },
  { kind: EVAL_JOBS, model: "EvalRun" },
] as const;

/**
 * What a starting server tidies up: running jobs of every kind whose process is gone are failed (imports,
 * exports) or taken over (model jobs) by the jobs module; the partial export folders no running job
 * writes are removed; staged rows of imports whose process died are removed. A database that is not
 * migrated yet (the server started without `npm run demo` / `studio migrate`) is reported, not fatal.
 */
export async function recoverAtStart(): Promise<void> {
  try {
    // A running import renews its heartbeat every few seconds: one silent for a minute died with its process.
    const { failed } = await sweepAbandonedImports(undefined, 60_000);
    if (failed) console.warn(`studio: marked ${failed} interrupted import(s) failed and removed their staged rows`);
  } catch (e) {
    console.error("studio: could not check for interrupted imports at start-up", e);
  }
  let changed: Record<string, string[]> = {};
  try {
    changed = await recoverAllJobs(
      db(),
      JOB_KINDS.map((k) => k.kind),
    );
  } catch (e) {
    console.error("studio: could not check for interrupted jobs at start-up", e);
  }
  const said = {
    import: "marked %n interrupted import job(s) failed",
    export: "marked %n interrupted export(s) failed",
    model: "resumed %n interrupted model job(s)",
  };
  for (const [kind, ids] of Object.entries(changed)) {
    if (ids.length === 0) continue;
    const words = (said as Record<string, string>)[kind] ?? `recovered %n interrupted ${kind} job(s)`;
    console.warn(`studio: ${words.replace("%n", String(ids.length))}: ${ids.join(", ")}`);
  }
  try {
    // Export jobs were recovered above; this sweeps the partial folders no running export writes.
    const { swept } = await recoverExportJobs({ force: true });
    if (swept.length) console.warn(`studio: removed ${swept.length} partial export folder(s)`);
  } catch (e) {
    console.error("studio: could not check for partial export folders at start-up", e);
  }
}
