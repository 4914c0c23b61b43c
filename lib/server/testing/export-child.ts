// A studio process for export-jobs.test.ts to kill: it starts an export (web job or CLI run) against
// the database and data dir in its environment, says "exporting" once the export is under way (its
// partial folder exists), and then stalls inside the export until it is killed.
import { startExportInput } from "@/lib/domain/exports";
import { runCliExport, startExportJob } from "../export/jobs";

const kind = process.argv[2];
const stall = () => {
  process.stdout.write("exporting\n");
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
};
let said = false;
const onProgress = () => {
  if (!said) {
    said = true;
    stall();
  }
};
if (kind === "web")
  await startExportJob({ ...startExportInput.parse({ status: "all" }), actor: { id: null, label: "child@test.local" } }, { onProgress });
else await runCliExport({ outDir: process.argv[3]!, status: "all", split: { kind: "none" }, onProgress });
