// The job kinds are one table (JOB_KINDS), not modules loaded for their side effects: every table of
// prisma/schema.prisma with the columns the job system runs on is a row of it, with a kind of its own name,
// and recovery at start goes over exactly those rows.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { JOB_KINDS } from "./index";

const SHARED = ["state", "runnerId", "heartbeatAt", "finishedAt", "error"];

/** The models of the schema that hold every column a job table shares. */
function jobTables(): string[] {
  const schema = readFileSync(path.resolve(import.meta.dirname, "../../../prisma/schema.prisma"), "utf8");
  return [...schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)]
    .filter(([, , body]) => SHARED.every((c) => new RegExp(`^\\s+${c}\\s`, "m").test(body!)))
    .map(([, name]) => name!);
}

describe("the job kinds table", () => {
  it("holds one row per job table of the schema, each kind named once", () => {
    expect(jobTables().length).toBeGreaterThanOrEqual(4);
    expect(JOB_KINDS.map((k) => k.model).sort()).toEqual(jobTables().sort());
    const names = JOB_KINDS.map((k) => k.kind.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("reads each kind's rows from its own model", () => {
    for (const { kind, model } of JOB_KINDS) expect(kind.name, model).toBe(model.replace(/(Job|Run)$/, "").toLowerCase());
  });
});
