// The whole test suite: type check, unit and integration tests (vitest, real temporary databases),
// then browser tests (Playwright in Debian's Chromium): every spec on SQLite (with the two-instance test,
// e2e/team.spec.ts), then the specs tagged @storage once more on a private PostgreSQL with screenshots in a
// local S3-compatible bucket (s3rver), reusing the same build. Ends with one line "N passed, N failed, N skipped".
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { readReports, timeTable } from "./test-report.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const TMP = path.join(ROOT, ".tmp");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1" };
// The first pass is SQLite with screenshots on local disk, whatever this shell points at.
for (const key of Object.keys(env)) if (/^(STUDIO_S3_|E2E_DATABASE_URL$|E2E_DATA_DIR$|E2E_REPORT$)/.test(key)) delete env[key];
const bin = (p) => path.join(ROOT, "node_modules", p);
/** Each stage's wall time, printed as a table at the end so that a growing run shows where it grows. */
const stages = [];

function step(label, cmd, args, { allowFail = false, extraEnv = {} } = {}) {
  console.log(`\n━━ ${label}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: ROOT, env: { ...env, ...extraEnv }, stdio: "inherit" });
  const seconds = (Date.now() - started) / 1000;
  stages.push({ label, seconds });
  console.log(`━━ ${label}: ${seconds.toFixed(0)} s`);
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

/** Is a PostgreSQL server installed (Debian's layout, as lib/server/testing/postgres.ts looks for it)? */
function hasPostgres() {
  if (env.STUDIO_PG_BIN) return existsSync(path.join(env.STUDIO_PG_BIN, "initdb"));
  const root = "/usr/lib/postgresql";
  return existsSync(root) && readdirSync(root).some((v) => existsSync(path.join(root, v, "bin", "initdb")));
}

/** PostgreSQL for the PostgreSQL tests: installed from Debian when missing and running as root (CI), else they are skipped. */
function ensurePostgres() {
  if (hasPostgres()) return true;
  if (process.getuid?.() !== 0) {
    console.warn(
      "PostgreSQL is not installed: its tests are skipped (and counted). Install it with:\n  sudo apt-get update && sudo apt-get install -y postgresql",
    );
    return false;
  }
  step("installing Debian's PostgreSQL for the PostgreSQL tests", "bash", [
    "-c",
    "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null",
  ]);
  return hasPostgres();
}

/** A private PostgreSQL and s3rver bucket (scripts/team-services.ts) for the browser suite's second pass. */
async function startTeamServices() {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/team-services.ts")], {
    cwd: ROOT,
    env,
    stdio: ["pipe", "pipe", "inherit"],
  });
  const info = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGTERM");
      reject(new Error("PostgreSQL and s3rver did not start within 120 s"));
    }, 120_000);
    createInterface({ input: child.stdout }).once("line", (l) => {
      clearTimeout(timer);
      resolve(JSON.parse(l));
    });
    child.on("exit", (code) => reject(new Error(`team services exited (${code}) before starting`)));
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.on("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { info, stop };
}

const suiteStarted = Date.now();
ensureChromium();
const postgres = ensurePostgres();
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
const e2eOk = step("browser tests (Playwright, Chromium)", process.execPath, [bin("@playwright/test/cli.js"), "test", "--forbid-only"], {
  allowFail: true,
});
// The specs tagged @storage again on PostgreSQL, screenshots in an S3-compatible bucket: the team layout
// (docs/DEPLOY.md). Those are the specs that import, export, run jobs, read the store or start processes
// (scripts/storage-tag.test.ts holds them to it); the others prove nothing more on a second store, so they
// run once, on SQLite, by design: they are neither run nor counted as skipped in this pass.
const PG_REPORT = path.join(TMP, "playwright-pg.json");
rmSync(PG_REPORT, { force: true });
let e2ePgOk = true;
// STUDIO_TEST_PG_BROWSER=0 leaves the second pass out on a developer's machine (it is counted as skipped); CI runs it.
const pgPass = postgres && process.env.STUDIO_TEST_PG_BROWSER !== "0";
if (pgPass) {
  rmSync(path.join(TMP, "e2e-data-pg"), { recursive: true, force: true });
  let services;
  try {
    services = await startTeamServices();
    e2ePgOk = step(
      "browser tests on PostgreSQL + S3 store (Playwright, Chromium)",
      process.execPath,
      [bin("@playwright/test/cli.js"), "test", "--forbid-only", "--grep", "@storage"],
      {
        allowFail: true,
        extraEnv: {
          ...services.info.s3Env,
          E2E_DATABASE_URL: services.info.databaseUrl,
          E2E_DATA_DIR: path.join(TMP, "e2e-data-pg"),
          E2E_REPORT: PG_REPORT,
          BETTER_AUTH_SECRET: randomBytes(32).toString("base64url"),
        },
      },
    );
  } catch (e) {
    console.error(`✗ could not start PostgreSQL and the S3 store for the second browser pass: ${e.message}`);
    e2ePgOk = false;
  } finally {
    await services?.stop();
  }
}

const report = readReports({
  root: ROOT,
  vitest: path.join(TMP, "vitest.json"),
  playwright: [
    { file: path.join(TMP, "playwright.json"), label: "" },
    ...(pgPass ? [{ file: PG_REPORT, label: "(PostgreSQL + S3) " }] : []),
  ],
});
const { passed, skipped, failures, flaky } = report;
let { failed } = report;
if (pgPass) {
  // Not a skip: the specs without @storage prove nothing more on a second store, so they run on SQLite only.
  console.log(
    `\nPostgreSQL + S3 pass: ${report.ran["(PostgreSQL + S3) "] ?? 0} tests (those tagged @storage, and the sign-in setup); the others ran on SQLite only, by design.`,
  );
} else skipped.push(`browser suite on PostgreSQL + S3 store: ${postgres ? "STUDIO_TEST_PG_BROWSER=0" : "PostgreSQL is not installed"}`);
if (!unitOk || !e2eOk || !e2ePgOk) failed = Math.max(failed, 1);
if (skipped.length > 0) {
  console.log(`\nSkipped (${skipped.length}):`);
  for (const name of skipped) console.log(`  - ${name}`);
}
if (flaky.length > 0) {
  console.log(`\nPassed only on their retry (${flaky.length}), to look into:`);
  for (const name of flaky) console.log(`  ~ ${name}`);
}
console.log(`\n${timeTable(stages, report.durations).join("\n")}`);
// Last, so that a log cut to its tail still names what failed.
if (failures.length > 0) {
  console.log(`\nFailed (${failures.length}):`);
  for (const name of failures) console.log(`  ✗ ${name}`);
}
console.log(`\nwhole suite: ${((Date.now() - suiteStarted) / 60_000).toFixed(1)} min`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped.length} skipped`);
process.exit(failed > 0 ? 1 : 0);
