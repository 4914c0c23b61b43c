// A studio process for model.test.ts to kill: it starts a pre-annotation job over the trajectory
// given on the command line (database and model endpoint from its environment and settings), prints
// "job <id>", and keeps running the job until it is killed.
import { startModelJob } from "../model/jobs";

const job = await startModelJob({
  actor: { id: "u-admin", email: "admin@test.local", name: "admin", role: "admin" },
  kind: "prefill",
  trajectoryIds: [process.argv[2]!],
});
process.stdout.write(`job ${job.id}\n`);
setInterval(() => undefined, 60_000);
