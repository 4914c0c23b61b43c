// The whole test suite: type check, unit and integration tests (vitest, real temporary databases),
// then browser tests (Playwright in Debian's Chromium). Ends with one line "N passed, N failed".
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const TMP = path.join(ROOT, ".tmp");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1" };
const bin = (p) => path.join(ROOT, "node_modules", p);

function step(label, cmd, args, { allowFail = false } = {}) {
  console.log(`\n━━ ${label}`);
  const r = spawnSync(cmd, args, { cwd: ROOT, env, stdio: "inherit" });
  if (r.status !== 0 && !allowFail) {
    console.error(`\n✗ ${label} failed (exit ${r.status})`);
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
  return r.status === 0;
}

function ensureChromium() {
  const chromium = env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (existsSync(chromium)) return;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    console.error(`Chromium is missing at ${chromium}. Install it with:\n  sudo apt-get update && sudo apt-get install -y chromium`);
    process.exit(1);
  }
  step("installing Debian's Chromium for the browser tests", "bash", [
    "-c",
    "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null",
  ]);
}

ensureChromium();
step("type check", process.execPath, [bin("typescript/bin/tsc"), "--noEmit"]);
// Lint (typescript-eslint, react-hooks, the layer rules) and format: any finding fails the run.
step("lint (ESLint, layer rules)", process.execPath, [bin("eslint/bin/eslint.js"), ".", "--max-warnings=0"]);
step("format (Prettier)", process.execPath, [bin("prettier/bin/prettier.cjs"), "--check", ".", "--log-level=warn"]);
const unitOk = step(
  "unit and integration tests (vitest)",
  process.execPath,
  [bin("vitest/vitest.mjs"), "run", "--reporter=default", "--reporter=json", `--outputFile=${path.join(TMP, "vitest.json")}`],
  { allowFail: true },
);
rmSync(path.join(TMP, "e2e-data"), { recursive: true, force: true });
// The browser tests' build carries the window.__studio* test hooks (NEXT_PUBLIC_STUDIO_TEST_HOOKS); `npm run build` does not.
env.NEXT_PUBLIC_STUDIO_TEST_HOOKS = "1";
step("production build for the browser tests", process.execPath, [bin("next/dist/bin/next"), "build"]);
env.STUDIO_SKIP_BUILD = "1";
const e2eOk = step("browser tests (Playwright, Chromium)", process.execPath, [bin("@playwright/test/cli.js"), "test"], {
  allowFail: true,
});

let passed = 0;
let failed = 0;
const skipped = [];
try {
  const v = JSON.parse(readFileSync(path.join(TMP, "vitest.json"), "utf8"));
  passed += v.numPassedTests;
  // A file that fails to load fails no test of its own: count it then, and only then.
  failed += v.numFailedTests > 0 ? v.numFailedTests : (v.numFailedTestSuites ?? 0);
  for (const file of v.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status === "skipped" || t.status === "pending" || t.status === "todo") {
        skipped.push(`${path.relative(ROOT, file.name)}: ${t.fullName ?? t.title}`);
      }
    }
  }
} catch {
  failed += 1;
}
try {
  const p = JSON.parse(readFileSync(path.join(TMP, "playwright.json"), "utf8"));
  passed += p.stats.expected;
  failed += p.stats.unexpected + (p.errors?.length ?? 0);
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === "skipped") skipped.push(`${suite.file ?? ""}: ${[...titles, spec.title].filter(Boolean).join(" > ")}`);
      }
    }
    for (const child of suite.suites ?? []) walk({ ...child, file: child.file ?? suite.file }, [...titles, child.title]);
  };
  for (const s of p.suites ?? []) walk(s, []);
} catch {
  failed += 1;
}
if (!unitOk || !e2eOk) failed = Math.max(failed, 1);
if (skipped.length > 0) {
  console.log(`\nSkipped (${skipped.length}):`);
  for (const name of skipped) console.log(`  - ${name}`);
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped.length} skipped`);
process.exit(failed > 0 ? 1 : 0);
