// Each part of the job system exists once (issue 23, "three of one thing"): a job kind names its table and
// its work, and lib/server/jobs does the rest. These read the sources, so a second runner, heartbeat or
// recovery written beside a kind fails here, as does a worker thread kept as a string again.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SERVER = path.resolve(import.meta.dirname, "..");
const JOBS = path.join(SERVER, "jobs");

/** lib/server's own sources (not tests, not generated code, not the test helpers), relative to lib/server. */
function sources(): string[] {
  return readdirSync(SERVER, { recursive: true })
    .map(String)
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.startsWith("generated") && !f.startsWith("testing"));
}
const text = (f: string) => readFileSync(path.join(SERVER, f), "utf8");
// import/import-file.ts and import/stage.ts keep the lease on an import batch's staged rows (ImportBatch.heartbeatAt, swept by
// sweepAbandonedImports): rows of data that any import writes, job or not (the demo seed's), not a job.
const IMPORT_LEASE = new Set([path.join("import", "import-file.ts"), path.join("import", "stage.ts")]);
const outsideJobs = () => sources().filter((f) => !f.startsWith(`jobs${path.sep}`) && !IMPORT_LEASE.has(f));

describe("the job system exists once", () => {
  it("only lib/server/jobs names a runner, writes a heartbeat or decides that a runner is gone", () => {
    const offenders = outsideJobs().flatMap((f) => {
      const t = text(f);
      return [
        /heartbeatAt:\s*new Date/.test(t) && `${f}: writes a heartbeat`,
        /os\.hostname\(\)/.test(t) && /runner/i.test(t) && `${f}: names a runner`,
        /process\.kill\([^)]*,\s*0\)/.test(t) && `${f}: decides whether a process is gone`,
        /setInterval\(/.test(t) && /Job/.test(t) && `${f}: keeps a job alive on a timer`,
      ].filter((o): o is string => typeof o === "string");
    });
    expect(offenders).toEqual([]);
  });

  it("each job kind registers with the jobs module, and recovery goes through it", () => {
    for (const f of ["import/jobs.ts", "export/job-kind.ts", "model/job-runner.ts", "eval/runner.ts"]) {
      expect(text(f), f).toMatch(/defineJobKind</);
      expect(text(f), f).not.toMatch(/state: "running" \},\s*data: \{ state: "failed"/);
    }
  });

  it("no file of lib/server/jobs is over 400 lines", () => {
    const long = readdirSync(JOBS)
      .map((f) => [f, readFileSync(path.join(JOBS, f), "utf8").split("\n").length] as const)
      .filter(([, n]) => n > 400);
    expect(long).toEqual([]);
  });

  it("no worker thread runs code kept as a string", () => {
    const evals = sources().filter((f) => /eval:\s*true/.test(text(f)) || /new Worker\(\s*[`"']/.test(text(f)));
    expect(evals).toEqual([]);
  });
});
