// For the takeover tests (model.test.ts, model-pg.test.ts): a studio process (model-job-child.ts)
// starts a pre-annotation job over one trajectory and is killed (SIGKILL) once the model has been
// asked for its first step, leaving the job "running" with nobody behind it.
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

/** The id of the job the killed process left behind. `hasAsked` says when the model got its first request. */
export async function startAndKillModelJob(
  trajectoryId: string,
  env: NodeJS.ProcessEnv,
  hasAsked: () => boolean,
  timeoutMs = 20_000,
): Promise<string> {
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("lib/server/testing/model-job-child.ts"), trajectoryId], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! });
  const jobId = await new Promise<string>((resolve, reject) => {
    lines.on("line", (l) => l.startsWith("job ") && resolve(l.slice(4)));
    child.on("exit", (code) => reject(new Error(`child exited (${code}) before starting`)));
  });
  const until = Date.now() + timeoutMs;
  while (!hasAsked()) {
    if (Date.now() > until) throw new Error("the model was never asked");
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise<void>((resolve) => {
    child.on("exit", () => resolve());
    child.kill("SIGKILL");
  });
  return jobId;
}
