import { defineConfig } from "@playwright/test";
import path from "node:path";
import { chromiumLaunch, e2eDatabaseUrl, e2ePort, studioWebServer } from "./e2e/env";

// Browser tests run Debian's Chromium (never `playwright install`) against a production build
// served on its own port, with its own data directory and database: SQLite by default; on
// PostgreSQL (and the S3 store) when scripts/test-all.mjs sets E2E_DATABASE_URL and STUDIO_S3_*.
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
    baseURL: `http://127.0.0.1:${e2ePort}`,
    trace: "retain-on-failure",
    // No animation to wait out: a test sees the state a person sees once it has settled.
    reducedMotion: "reduce",
    launchOptions: chromiumLaunch,
  },
  projects: [
    { name: "setup", testMatch: /auth\.setup\.ts/ },
    // Specs run signed in as the demo admin unless they pick another role with test.use({ storageState }).
    { name: "studio", dependencies: ["setup"], use: { storageState: path.resolve(".tmp/e2e-auth/admin.json") } },
  ],
  webServer: studioWebServer,
});
