// A private PostgreSQL server for one test file (Debian's postgresql-15 binaries); `hasPostgres`
// says whether this machine has them, so a suite can skip its PostgreSQL block where it has not.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const PG_BIN = "/usr/lib/postgresql/15/bin";
export const hasPostgres = existsSync(path.join(PG_BIN, "initdb"));

function asPostgres(cmd: string, args: string[]) {
  const isRoot = process.getuid?.() === 0;
  const r = isRoot
    ? spawnSync("runuser", ["-u", "postgres", "--", path.join(PG_BIN, cmd), ...args], { encoding: "utf8" })
    : spawnSync(path.join(PG_BIN, cmd), args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
}

/** Start a server in a temp folder on a free-ish port; returns its URL and a stop function. */
export function startPostgres(): { url: string; stop: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pg-"));
  const port = 56500 + Math.floor(Math.random() * 1000);
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres", dir]);
  asPostgres("initdb", ["-D", path.join(dir, "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8"]);
  asPostgres("pg_ctl", [
    "-D",
    path.join(dir, "data"),
    "-l",
    path.join(dir, "log"),
    "-o",
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=200`,
    "-w",
    "start",
  ]);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop: () => asPostgres("pg_ctl", ["-D", path.join(dir, "data"), "-m", "fast", "stop"]),
  };
}
