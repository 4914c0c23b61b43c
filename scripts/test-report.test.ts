// The end of `npm test`: the tally of vitest's and Playwright's reports, and the table of where the time went.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readReports, timeTable } from "./test-report.mjs";

const dir = mkdtempSync(path.join(os.tmpdir(), "test-report-"));
const write = (name: string, body: unknown) => {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(body));
  return file;
};

// Shaped as vitest's --reporter=json and Playwright's json reporter write them (only the fields read).
const vitest = write("vitest.json", {
  numPassedTests: 2,
  numFailedTests: 1,
  numFailedTestSuites: 1,
  testResults: [
    {
      name: path.join(dir, "lib/a.test.ts"),
      assertionResults: [
        { fullName: "a works", status: "passed", duration: 1200 },
        { fullName: "a is slow", status: "passed", duration: 95_000 },
        { fullName: "a breaks", status: "failed", duration: 10 },
        { fullName: "a on PostgreSQL", status: "skipped", duration: 0 },
      ],
    },
  ],
});
const sqlite = write("playwright.json", {
  stats: { expected: 2, unexpected: 0, flaky: 1 },
  suites: [
    {
      title: "lists.spec.ts",
      file: "lists.spec.ts",
      specs: [
        { title: "sorts @storage", tests: [{ status: "expected", results: [{ duration: 30_000 }] }] },
        { title: "filters", tests: [{ status: "flaky", results: [{ duration: 60_000 }, { duration: 50_000 }] }] },
      ],
      suites: [{ title: "keys", specs: [{ title: "press", tests: [{ status: "expected", results: [{ duration: 5_000 }] }] }] }],
    },
  ],
});
const pg = write("playwright-pg.json", {
  stats: { expected: 1, unexpected: 0, flaky: 0 },
  suites: [
    {
      title: "lists.spec.ts",
      file: "lists.spec.ts",
      specs: [{ title: "sorts @storage", tests: [{ status: "expected", results: [{ duration: 40_000 }] }] }],
    },
  ],
});

describe("npm test's summary", () => {
  it("counts both passes; the tests a pass leaves out by design are neither run nor skipped there", () => {
    const r = readReports({
      root: dir,
      vitest,
      playwright: [
        { file: sqlite, label: "" },
        { file: pg, label: "(PostgreSQL + S3) " },
      ],
    });
    expect(r.passed).toBe(2 + 3 + 1);
    expect(r.failed).toBe(1);
    expect(r.skipped).toEqual(["lib/a.test.ts: a on PostgreSQL"]);
    expect(r.failures).toEqual(["lib/a.test.ts: a breaks"]);
    expect(r.flaky).toEqual(["lists.spec.ts: filters"]);
    expect(r.ran).toEqual({ "": 3, "(PostgreSQL + S3) ": 1 });
  });

  it("a report that cannot be read is a failure", () => {
    const r = readReports({ root: dir, vitest: path.join(dir, "missing.json"), playwright: [{ file: sqlite, label: "" }] });
    expect(r.failed).toBe(1);
  });

  it("ends with each stage's time and the slowest tests, a retried test costing all its tries", () => {
    const r = readReports({
      root: dir,
      vitest,
      playwright: [
        { file: sqlite, label: "" },
        { file: pg, label: "(PostgreSQL + S3) " },
      ],
    });
    const lines = timeTable(
      [
        { label: "type check", seconds: 61.4 },
        { label: "browser tests (Playwright, Chromium)", seconds: 420 },
      ],
      r.durations,
      3,
    );
    expect(lines).toEqual([
      "Time by stage:",
      "  type check                              61 s",
      "  browser tests (Playwright, Chromium)   420 s",
      "",
      "The 3 slowest tests:",
      "   110 s  lists.spec.ts: filters",
      "    95 s  lib/a.test.ts: a is slow",
      "    40 s  (PostgreSQL + S3) lists.spec.ts: sorts @storage",
    ]);
  });
});
