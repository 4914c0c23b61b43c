// vitest globalSetup: one PostgreSQL server for the whole test run, with the migrated template that
// every test's fresh database is copied from (lib/server/testing/postgres.ts). Starting a server and
// migrating per test file cost a run about a minute on two cores; a template copy takes milliseconds.
import pg from "pg";
import { migrate } from "../db/migrate";
import { hasPostgres, SHARED_ENV, startPrivatePostgres, TEMPLATE_DB } from "./postgres";

export default async function setup(): Promise<(() => void) | undefined> {
  if (!hasPostgres || process.env[SHARED_ENV]) return undefined;
  const server = startPrivatePostgres();
  const admin = new pg.Client({ connectionString: server.url("postgres") });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${TEMPLATE_DB}"`);
  await admin.end();
  await migrate(server.url(TEMPLATE_DB));
  // Workers are forked after global setup and inherit this variable.
  process.env[SHARED_ENV] = server.url("").replace(/\/$/, "");
  return () => {
    delete process.env[SHARED_ENV];
    server.stop();
  };
}
