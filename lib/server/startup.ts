import { recoverExportJobs } from "./export-jobs";
import { recoverModelJobs } from "./model-jobs";

/**
 * What a starting server tidies up: export jobs whose process is gone are marked failed, and the
 * partial folders no running job writes are removed. A database that is not migrated yet (the
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
    const taken = await recoverModelJobs();
    if (taken.length) console.warn(`studio: resumed ${taken.length} interrupted model job(s): ${taken.join(", ")}`);
  } catch (e) {
    console.error("studio: could not check for interrupted model jobs at start-up", e);
  }
}
