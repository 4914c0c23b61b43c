import { defineConfig } from "@playwright/test";
import path from "node:path";
import { e2eDatabaseUrl, e2eDataDir } from "./e2e/env";

// Browser tests run Debian's Chromium (never `playwright install`) against a production build
// served on its own port, with its own data directory and database: SQLite by default; on
// PostgreSQL (and the S3 store) when scripts/test-all.mjs sets E2E_DATABASE_URL and STUDIO_S3_*.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const onPostgres = e2eDatabaseUrl.startsWith("postgres");

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  // One retry: on two loaded cores a browser test can miss a timing once. A test that passes only on its
  // retry is reported "flaky" and named at the end of `npm test` (scripts/test-all.mjs); one that fails
  // twice fails the run.
  retries: 1,
  // A test.only left in a spec would quietly run one test and pass: CI refuses it (scripts/test-all.mjs passes --forbid-only).
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: [["list"], ["json", { outputFile: process.env.E2E_REPORT ?? ".tmp/playwright.json" }]],
  // The two-instance test starts its own PostgreSQL, bucket and servers: once, in the SQLite pass.
  testIgnore: onPostgres ? ["**/team.spec.ts"] : [],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    // No animation to wait out: a test sees the state a person sees once it has settled.
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/ },
    // Specs run signed in as the demo admin unless they pick another role with test.use({ storageState }).
    { name: "studio", dependencies: ["setup"], use: { storageState: path.resolve(".tmp/e2e-auth/admin.json") } },
  ],
  webServer: {
    command: `node scripts/serve.mjs`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      PORT: String(PORT),
      STUDIO_DATA_DIR: e2eDataDir,
      DATABASE_URL: e2eDatabaseUrl,
      STUDIO_DEMO_TRAJECTORIES: "12",
      // Every spec signs people in from 127.0.0.1; the per-address limit itself is tested in lib/server/people/auth.test.ts.
      STUDIO_SIGN_IN_PER_MINUTE: "1000",
      STUDIO_SKIP_BUILD: process.env.STUDIO_SKIP_BUILD ?? "0",
      // The specs read the editor's state through window.__studio* hooks, which only a test build has
      // (NEXT_PUBLIC_STUDIO_TEST_HOOKS, read in components/editor/test-hooks.ts). With STUDIO_SKIP_BUILD=1, build with this set yourself.
      NEXT_PUBLIC_STUDIO_TEST_HOOKS: "1",
    },
  },
});
