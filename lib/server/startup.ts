import { recoverExportJobs } from "./export-jobs";
import { sweepAbandonedImports } from "./import";
import { recoverImportJobs } from "./import-jobs";
import { recoverModelJobs } from "./model-jobs";

/**
 * What a starting server tidies up: export jobs whose process is gone are marked failed, and the
 * partial folders no running job writes are removed; imports whose process died are marked failed
 * and their staged rows removed; interrupted model jobs are taken over. A database that is not migrated yet (the
 * server started without `npm run demo` / `studio migrate`) is reported, not fatal.
 */
export async function recoverAtStart(): Promise<void> {
  try {
    const { failed, swept } = await recoverExportJobs({ force: true });
    if (failed.length) console.warn(`studio: marked ${failed.length} interrupted export(s) failed: ${failed.join(", ")}`);
    if (swept.length) console.warn(`studio: removed ${swept.length} partial export folder(s)`);
  } catch (e) {
    console.error("studio: could not check for interrupted exports at start-up", e);
  }
  try {
    // A running import renews its heartbeat every few seconds: one silent for a minute died with its process.
    const { failed } = await sweepAbandonedImports(undefined, 60_000);
    if (failed) console.warn(`studio: marked ${failed} interrupted import(s) failed and removed their staged rows`);
    const jobs = await recoverImportJobs();
    if (jobs.failed.length)
      console.warn(`studio: marked ${jobs.failed.length} interrupted import job(s) failed: ${jobs.failed.join(", ")}`);
  } catch (e) {
    console.error("studio: could not check for interrupted imports at start-up", e);
  }
  try {
    const taken = await recoverModelJobs();
    if (taken.length) console.warn(`studio: resumed ${taken.length} interrupted model job(s): ${taken.join(", ")}`);
  } catch (e) {
    console.error("studio: could not check for interrupted model jobs at start-up", e);
  }
}
