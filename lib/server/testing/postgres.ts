// A private PostgreSQL server for a test file (Debian's postgresql package), and a fresh migrated
// database in it per test. Where the binaries are missing, `hasPostgres` is false and the suite skips.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
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

export function startPostgres(): PostgresServer {
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
        `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=200`,
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
    stop: () => asPostgres("pg_ctl", ["-D", path.join(dir, "data"), "-m", "fast", "stop"]),
    async freshDb() {
      const name = `t${++n}_${process.pid}`;
      const admin = new pg.Client({ connectionString: url("postgres") });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      const store = mkdtempSync(path.join(os.tmpdir(), "pg-store-"));
      process.env.STUDIO_DATA_DIR = store;
      process.env.DATABASE_URL = url(name);
      await migrate(url(name));
      await loadDialect("postgresql");
      return { url: url(name), db: createDb(url(name)), dir: store };
    },
  };
}
