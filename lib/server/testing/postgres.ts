// PostgreSQL for tests (Debian's postgresql package). Under vitest one server serves the whole run
// (lib/server/testing/vitest-postgres.ts starts it and migrates a template database once), and each
// fresh database is a copy of that template (`CREATE DATABASE … TEMPLATE`), not a new migration.
// Elsewhere (scripts/team-services.ts) `startPostgres` starts a private server of its own.
// Where the binaries are missing, `hasPostgres` is false and the suite skips.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createDb, loadDialect, type Db } from "../db";
import { migrate } from "../db/migrate";

/** Debian's server binaries: STUDIO_PG_BIN, else the newest /usr/lib/postgresql/<version>/bin (15 on bookworm). */
function findPgBin(): string {
  if (process.env.STUDIO_PG_BIN) return process.env.STUDIO_PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => /^\d+$/.test(v) && existsSync(path.join(root, v, "bin", "initdb")))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return path.join(root, newest ?? "15", "bin");
}
const PG_BIN = findPgBin();
export const hasPostgres = existsSync(path.join(PG_BIN, "initdb"));

export type PostgresServer = {
  /** A database's URL; "postgres" names this handle's own empty database (on the shared server, one made for it). */
  url: (database: string) => string;
  stop: () => void;
  freshDb: () => Promise<{ url: string; db: Db; dir: string }>;
};

/**
 * A port for a test server outside the range the kernel hands out to outgoing connections (a busy test
 * run has thousands open, and one on the chosen port makes the server's bind fail).
 */
function serverPort(): number {
  let [low, high] = [32768, 60999];
  try {
    const range = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (range.length === 2 && range.every(Number.isInteger)) [low, high] = range as [number, number];
  } catch {
    // not Linux: the usual range
  }
  const above = 65535 - high;
  const below = low - 1 - 10000;
  // The larger free stretch; where the kernel may hand out nearly every port, anywhere (the caller retries).
  const [from, to] = Math.max(above, below) < 500 ? [20000, 65000] : above >= below ? [high + 1, 65535] : [10000, low - 1];
  return from + Math.floor(Math.random() * (to - from + 1));
}

/** The migrated database every fresh test database is copied from (on the run's shared server). */
export const TEMPLATE_DB = "studio_template";
/** Where vitest-postgres.ts tells the test workers its server listens (an environment variable inherited by each worker). */
export const SHARED_ENV = "STUDIO_TEST_PG_URL";

/**
 * PostgreSQL for a test file: the run's shared server where vitest started one, else a private one.
 * On the shared server the handle gets its own empty database for url("postgres"), fresh databases are
 * copies of the migrated template, and stop() leaves the server to the run's teardown.
 */
export function startPostgres(): PostgresServer {
  const shared = process.env[SHARED_ENV];
  return shared ? onSharedServer(shared) : startPrivatePostgres();
}

let created = 0;
function onSharedServer(base: string): PostgresServer {
  const { hostname, port } = new URL(base);
  const name = () => `t${++created}_${process.pid}_${Date.now().toString(36)}`;
  const own = name();
  const r = spawnSync(path.join(PG_BIN, "createdb"), ["-h", hostname, "-p", port, "-U", "postgres", own], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`createdb failed: ${r.stderr}`);
  const url = (database: string) => `${base}/${database === "postgres" ? own : database}`;
  return {
    url,
    stop: () => {},
    async freshDb() {
      const db = name();
      const admin = new pg.Client({ connectionString: url("postgres") });
      await admin.connect();
      try {
        // Two files copying the template at once: PostgreSQL refuses while the source has another session, so retry.
        for (let attempt = 1; ; attempt++) {
          try {
            await admin.query(`CREATE DATABASE "${db}" TEMPLATE "${TEMPLATE_DB}"`);
            break;
          } catch (e) {
            if (attempt >= 20 || !/being accessed by other users/.test((e as Error).message)) throw e;
            await new Promise((r) => setTimeout(r, 50 * attempt));
          }
        }
      } finally {
        await admin.end();
      }
      return useDb(url(db));
    },
  };
}

async function useDb(url: string): Promise<{ url: string; db: Db; dir: string }> {
  const store = mkdtempSync(path.join(os.tmpdir(), "pg-store-"));
  process.env.STUDIO_DATA_DIR = store;
  process.env.DATABASE_URL = url;
  await loadDialect("postgresql");
  return { url, db: createDb(url), dir: store };
}

/** A private server in a temp folder (initdb, pg_ctl start); stop() stops it and removes the folder. */
export function startPrivatePostgres(): PostgresServer {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pg-"));
  const isRoot = process.getuid?.() === 0;
  const asPostgres = (cmd: string, args: string[]) => {
    const r = isRoot
      ? spawnSync("runuser", ["-u", "postgres", "--", path.join(PG_BIN, cmd), ...args], { encoding: "utf8" })
      : spawnSync(path.join(PG_BIN, cmd), args, { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  };
  if (isRoot) execFileSync("chown", ["postgres", dir]);
  asPostgres("initdb", ["-D", path.join(dir, "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8"]);
  // A port someone took meanwhile (another test's server, another program) fails the start: try another.
  let port = 0;
  const logFile = path.join(dir, "log");
  for (let attempt = 1; ; attempt++) {
    port = serverPort();
    const logged = existsSync(logFile) ? readFileSync(logFile, "utf8").length : 0;
    try {
      asPostgres("pg_ctl", [
        "-D",
        path.join(dir, "data"),
        "-l",
        logFile,
        "-o",
        // A test server's data is thrown away with it: no fsync, no waiting for the WAL on commit.
        `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
        "-w",
        "start",
      ]);
      break;
    } catch (e) {
      const log = existsSync(logFile) ? readFileSync(logFile, "utf8").slice(logged) : "";
      if (attempt >= 5 || !/Address already in use/.test(log))
        throw new Error(`${(e as Error).message}\n${log.slice(-2000)}`, { cause: e });
    }
  }
  const url = (database: string) => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  let n = 0;
  return {
    url,
    stop: () => {
      asPostgres("pg_ctl", ["-D", path.join(dir, "data"), "-m", "fast", "stop"]);
      rmSync(dir, { recursive: true, force: true });
    },
    async freshDb() {
      const name = `t${++n}_${process.pid}`;
      const admin = new pg.Client({ connectionString: url("postgres") });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      await migrate(url(name));
      return useDb(url(name));
    },
  };
}
