import path from "node:path";

// Where the browser tests' server keeps its data, and which database it uses: a SQLite file in
// .tmp/e2e-data unless scripts/test-all.mjs runs the suite again on PostgreSQL (E2E_DATABASE_URL,
// E2E_DATA_DIR; the S3 store's STUDIO_S3_* variables pass through the environment).
export const e2eDataDir = path.resolve(process.env.E2E_DATA_DIR ?? ".tmp/e2e-data");
export const e2eDatabaseUrl = process.env.E2E_DATABASE_URL ?? `file:${path.join(e2eDataDir, "studio.db")}`;
export const e2ePort = Number(process.env.E2E_PORT ?? 3100);

/** Debian's Chromium (never `playwright install`), quiet and offline but for the studio on 127.0.0.1. */
export const chromiumLaunch = {
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
};

/** The studio the browser tests (and the bench's fast-lane timing) drive: a production build on its own port and data. */
export const studioWebServer = {
  command: `node scripts/serve.mjs`,
  url: `http://127.0.0.1:${e2ePort}/api/health`,
  timeout: 600_000,
  reuseExistingServer: false,
  stdout: "pipe" as const,
  env: {
    PORT: String(e2ePort),
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
};
