// The job kinds are registered by loading their handler modules; recoverAllJobs then goes over every one.
import { db } from "../db";
import { recoverExportJobs } from "../export/job-kind";
import { sweepAbandonedImports } from "../import";
import "../import/jobs";
import { recoverAllJobs } from "./index";
import "../model/jobs";
import "../eval";

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
    changed = await recoverAllJobs(db());
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
