import { defineConfig } from "@playwright/test";
import path from "node:path";
import { chromiumLaunch, e2ePort, studioWebServer } from "../e2e/env";

// The fast lane against full correction (bench/lane-timing.spec.ts), run by `npm run bench` through Playwright
// so that it drives the editor with the browser specs' own sign-in, page objects and seeding, against the browser
// suite's server (e2e/env.ts) on the bench's port, data folder and build: bench/run.ts sets E2E_PORT,
// E2E_DATA_DIR, STUDIO_DIST_DIR and STUDIO_SKIP_BUILD=1 before Playwright loads this file.
export default defineConfig({
  testDir: ".",
  workers: 1,
  retries: 0,
  timeout: 1_800_000,
  reporter: [["list"]],
  use: { baseURL: `http://127.0.0.1:${e2ePort}`, reducedMotion: "reduce", launchOptions: chromiumLaunch },
  projects: [
    { name: "setup", testDir: "../e2e", testMatch: /auth\.setup\.ts/ },
    {
      name: "lane-timing",
      testMatch: /lane-timing\.spec\.ts/,
      dependencies: ["setup"],
      use: { storageState: path.resolve(".tmp/e2e-auth/admin.json") },
    },
  ],
  // The server starts from the repository root, as in the browser suite (node scripts/serve.mjs).
  webServer: { ...studioWebServer, cwd: path.resolve(import.meta.dirname, "..") },
});
