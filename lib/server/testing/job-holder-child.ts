// A studio process for jobs/jobs.test.ts to kill: it records one job of the kind named on the command line
// (database from its environment), owned by this process, keeps it running with a heartbeat every 100 ms
// and never finishes it. It prints "job <id>" once the row is recorded.
import { db } from "../db";
import { EXPORT_JOBS } from "../export/job-kind";
import { IMPORT_JOBS } from "../import/jobs";
import { claimed, runJob } from "../jobs";
import { MODEL_JOBS } from "../model/jobs";
import { EVAL_JOBS } from "../eval";
import { emptyEvalRun } from "./eval-run";

const prisma = db();
const kind = process.argv[2];
const owner = { createdById: null, createdByLabel: "job-holder", ...claimed() };
let id: string;
if (kind === "import") {
  id = (await prisma.importJob.create({ data: { state: "running", fileName: "held.jsonl", format: "ui-s1", project: "p", ...owner } })).id;
  void runJob({ ...IMPORT_JOBS, heartbeatMs: 100 }, prisma, id, () => new Promise<never>(() => undefined));
} else if (kind === "export") {
  id = `held-${process.pid}`;
  await prisma.exportJob.create({ data: { id, state: "running", outDir: "/nowhere", filtersJson: "{}", ...owner } });
  void runJob({ ...EXPORT_JOBS, heartbeatMs: 100 }, prisma, id, () => new Promise<never>(() => undefined));
} else if (kind === "eval") {
  id = (await prisma.evalRun.create({ data: { ...(await emptyEvalRun(prisma)), ...owner } })).id;
  void runJob({ ...EVAL_JOBS, heartbeatMs: 100 }, prisma, id, () => new Promise<never>(() => undefined));
} else {
  const selectionJson = JSON.stringify({ trajectoryIds: [] });
  id = (await prisma.modelJob.create({ data: { kind: "judge", state: "running", selectionJson, prompt: "p", ...owner } })).id;
  void runJob({ ...MODEL_JOBS, heartbeatMs: 100 }, prisma, id, () => new Promise<never>(() => undefined));
}
process.stdout.write(`job ${id}\n`);
setInterval(() => undefined, 60_000);
