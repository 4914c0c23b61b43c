// Reading the reports `npm test` (scripts/test-all.mjs) leaves in .tmp: vitest's JSON report and one Playwright
// JSON report per browser pass, tallied into one summary, and the table of where the time went.
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Tally vitest's report and the Playwright reports (each with a label that marks its names). A report that
 * cannot be read counts as one failure. Tests a pass leaves out by design (the PostgreSQL pass's --grep @storage)
 * are not in its report at all: they are neither run nor skipped there.
 * @param {{ root: string, vitest: string, playwright: { file: string, label: string }[] }} reports
 */
export function readReports({ root, vitest, playwright }) {
  const out = { passed: 0, failed: 0, skipped: [], failures: [], flaky: [], durations: [], ran: {} };
  try {
    const v = JSON.parse(readFileSync(vitest, "utf8"));
    out.passed += v.numPassedTests;
    // A file that fails to load fails no test of its own: count it then, and only then.
    out.failed += v.numFailedTests > 0 ? v.numFailedTests : (v.numFailedTestSuites ?? 0);
    for (const file of v.testResults ?? []) {
      for (const t of file.assertionResults ?? []) {
        const name = `${path.relative(root, file.name)}: ${t.fullName ?? t.title}`;
        out.durations.push({ name, ms: t.duration ?? 0 });
        if (t.status === "skipped" || t.status === "pending" || t.status === "todo") out.skipped.push(name);
        if (t.status === "failed") out.failures.push(name);
      }
    }
  } catch {
    out.failed += 1;
  }
  for (const { file, label } of playwright) {
    try {
      const p = JSON.parse(readFileSync(file, "utf8"));
      out.passed += p.stats.expected + (p.stats.flaky ?? 0);
      out.failed += p.stats.unexpected + (p.errors?.length ?? 0);
      out.ran[label] = 0;
      const walk = (suite, titles) => {
        for (const spec of suite.specs ?? []) {
          for (const t of spec.tests ?? []) {
            const name = `${label}${suite.file ?? ""}: ${[...titles, spec.title].filter(Boolean).join(" > ")}`;
            // A browser test's time is that of all its tries: a retry costs the run as much as the first try.
            out.durations.push({ name, ms: (t.results ?? []).reduce((n, r) => n + (r.duration ?? 0), 0) });
            if (t.status !== "skipped") out.ran[label] += 1;
            if (t.status === "skipped") out.skipped.push(name);
            if (t.status === "unexpected") out.failures.push(name);
            if (t.status === "flaky") out.flaky.push(name);
          }
        }
        for (const child of suite.suites ?? []) walk({ ...child, file: child.file ?? suite.file }, [...titles, child.title]);
      };
      for (const s of p.suites ?? []) walk(s, []);
    } catch {
      out.failed += 1;
    }
  }
  return out;
}

/**
 * The lines that end `npm test`: each stage's wall time and the `count` slowest tests, so a growing run shows itself.
 * @param {{ label: string, seconds: number }[]} stages
 * @param {{ name: string, ms: number }[]} durations
 */
export function timeTable(stages, durations, count = 10) {
  const s = (seconds) => `${seconds.toFixed(0)} s`.padStart(6);
  const width = Math.max(0, ...stages.map((st) => st.label.length));
  return [
    "Time by stage:",
    ...stages.map((st) => `  ${st.label.padEnd(width)}  ${s(st.seconds)}`),
    "",
    `The ${count} slowest tests:`,
    ...[...durations]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, count)
      .map((t) => `  ${s(t.ms / 1000)}  ${t.name}`),
  ];
}
