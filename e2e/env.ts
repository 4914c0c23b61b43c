import path from "node:path";

// Where the browser tests' server keeps its data, and which database it uses: a SQLite file in
// .tmp/e2e-data unless scripts/test-all.mjs runs the suite again on PostgreSQL (E2E_DATABASE_URL,
// E2E_DATA_DIR; the S3 store's STUDIO_S3_* variables pass through the environment).
export const e2eDataDir = path.resolve(process.env.E2E_DATA_DIR ?? ".tmp/e2e-data");
export const e2eDatabaseUrl = process.env.E2E_DATABASE_URL ?? `file:${path.join(e2eDataDir, "studio.db")}`;
