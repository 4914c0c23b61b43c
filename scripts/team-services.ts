// The shared services of a team layout, for tests: a private PostgreSQL (Debian's binaries) with an
// empty database "studio", and a local S3-compatible server (s3rver) with a bucket. Prints one JSON
// line ({ postgres: false } when PostgreSQL is not installed), then keeps both until SIGTERM/SIGINT.
// Used by scripts/test-all.mjs (the browser suite's PostgreSQL pass) and e2e/team.spec.ts.
import pg from "pg";
import { hasPostgres, startPostgres } from "../lib/server/testing/postgres";
import { startS3 } from "../lib/server/testing/s3rver";

if (!hasPostgres) {
  process.stdout.write(`${JSON.stringify({ postgres: false })}\n`);
  process.exit(0);
}
const server = startPostgres();
const admin = new pg.Client({ connectionString: server.url("postgres") });
await admin.connect();
await admin.query(`CREATE DATABASE studio`);
await admin.end();
const s3 = await startS3({ bucket: "studio-team", prefix: process.env.TEAM_S3_PREFIX });
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await s3.stop().catch(() => {});
  try {
    server.stop();
  } catch (e) {
    console.error(e);
  }
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
// The parent going away (a crashed test runner) ends the services too.
process.stdin.on("end", () => void stop());
process.stdin.resume();
process.stdout.write(
  `${JSON.stringify({ postgres: true, databaseUrl: server.url("studio"), s3Directory: s3.directory, s3Env: s3.env })}\n`,
);
