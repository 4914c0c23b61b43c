import { defineConfig } from "@playwright/test";
import path from "node:path";
import { chromiumLaunch, e2eDatabaseUrl, e2ePort, studioWebServer } from "./e2e/env";

// Browser tests run Debian's Chromium (never `playwright install`) against a production build
// served on its own port, with its own data directory and database: SQLite by default; on
// PostgreSQL (and the S3 store) when scripts/test-all.mjs sets E2E_DATABASE_URL and STUDIO_S3_*.
const onPostgres = e2eDatabaseUrl.startsWith("postgres");
/** The specs that start and stop studio servers of their own and never use the shared one's pages. */
const OWN_SERVERS = /\/(team|workers)\.spec\.ts$/;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  // Two workers: the browser specs share one studio and run one at a time (the "studio" project's own
  // limit); the specs that start studios of their own and speak only HTTP run beside them ("servers").
  workers: 2,
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
    // API-level specs with studios of their own (two instances on PostgreSQL and a bucket; two workers of
    // Node's cluster on one SQLite file), on their own ports and data: they run beside the browser specs.
    { name: "servers", testMatch: OWN_SERVERS },
    // Specs run signed in as the demo admin unless they pick another role with test.use({ storageState }).
    // They share one studio (its database, its demo accounts), so they run one at a time.
    {
      name: "studio",
      dependencies: ["setup"],
      testIgnore: OWN_SERVERS,
      workers: 1,
      use: { storageState: path.resolve(".tmp/e2e-auth/admin.json") },
    },
  ],
  webServer: studioWebServer,
});
