// The compiled command line (scripts/build-cli.mjs, scripts/studio.mjs): what `npm run studio` starts, what each
// command loads, and that a changed source is never run stale.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasPostgres, startPostgres } from "../lib/server/testing/postgres";
import { buildCli, cliEntry, freshCli } from "./build-cli.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const tmp = mkdtempSync(path.join(os.tmpdir(), "studio-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * `npm run <script> -- args` as npm would run it (without npm's own start): the script's command line from
 * package.json, its `node`/`tsx` resolved here. Every module it resolves is appended to `log`.
 */
function runScript(script: string, args: string[], log: string, env: Record<string, string> = {}) {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
  const [bin, ...scriptArgs] = pkg.scripts[script]!.split(" ");
  const prefix = bin === "node" ? [] : [path.join(ROOT, "node_modules", bin === "tsx" ? "tsx/dist/cli.mjs" : bin!)];
  return spawnSync(process.execPath, [...prefix, ...scriptArgs, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    // NODE_OPTIONS, not a flag: it reaches a child node process too (tsx runs the script in one).
    env: { ...process.env, ...env, NODE_OPTIONS: `--import=${pathToFileURL(REGISTER).href}`, STUDIO_TEST_MODULE_LOG: log },
  });
}

// A module hook that writes down every module resolved (node:module register; it runs on the loader's thread).
const REGISTER = path.join(tmp, "register.mjs");
writeFileSync(
  path.join(tmp, "log-modules.mjs"),
  `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (process.env.STUDIO_TEST_MODULE_LOG) appendFileSync(process.env.STUDIO_TEST_MODULE_LOG, r.url + "\\n");
  return r;
}
`,
);
writeFileSync(REGISTER, `import { register } from "node:module";\nregister("./log-modules.mjs", import.meta.url);\n`);

/** The packages a run resolved (node_modules/<name> or node_modules/@scope/<name>), each once. */
function packagesIn(log: string): string[] {
  const urls = existsSync(log) ? readFileSync(log, "utf8").split("\n") : [];
  const names = urls.map((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1]).filter((n): n is string => !!n);
  return [...new Set(names)].sort();
}

/**
 * Our source files (relative to the checkout) in the compiled chunks a run loaded: every chunk of .tmp/cli that it
 * resolved, read back through its source map. A chunk loaded is a chunk parsed, whichever of its modules ran.
 */
function sourcesIn(log: string): string[] {
  const urls = existsSync(log) ? readFileSync(log, "utf8").split("\n") : [];
  const chunks = urls.filter((u) => u.startsWith("file:") && u.includes("/.tmp/cli/") && u.endsWith(".mjs"));
  const sources = new Set<string>();
  for (const chunk of new Set(chunks)) {
    const file = new URL(chunk).pathname;
    const map = JSON.parse(readFileSync(`${file}.map`, "utf8")) as { sources: string[] };
    for (const s of map.sources) sources.add(path.relative(ROOT, path.resolve(path.dirname(file), s)));
  }
  return [...sources].sort();
}

describe("npm run studio starts the compiled command line", () => {
  beforeAll(async () => {
    // Compiled before the runs below, so none of them loads esbuild to rebuild.
    await cliEntry({ quiet: true });
  });

  it("`studio --help` loads no package at all, and `studio bridge --help` neither Prisma, a database driver, sharp nor the AWS SDK", () => {
    const help = path.join(tmp, "help.log");
    const r = runScript("studio", ["--help"], help);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("Trajectory Studio command line");
    expect(packagesIn(help)).toEqual([]);

    const bridgeHelp = path.join(tmp, "bridge-help.log");
    const b = runScript("bridge", ["--help"], bridgeHelp);
    expect(b.status, b.stderr).toBe(0);
    expect(b.stdout).toContain("Trajectory Studio trainer bridge");
    const loaded = packagesIn(bridgeHelp);
    for (const heavy of ["@prisma/client", "better-sqlite3", "pg", "sharp", "@aws-sdk/client-s3", "better-auth", "tsx", "esbuild"])
      expect(loaded).not.toContain(heavy);
  });

  it("a database command (export) opens the database without loading the AWS SDK, sharp or better-auth", () => {
    const data = path.join(tmp, "export-studio");
    const log = path.join(tmp, "export.log");
    const r = runScript("studio", ["export", "--out", path.join(data, "out"), "--status", "all"], log, {
      STUDIO_DATA_DIR: data,
      DATABASE_URL: `file:${path.join(data, "studio.db")}`,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("exported 0 trajectories");
    const loaded = packagesIn(log);
    expect(loaded).toContain("@prisma/client");
    for (const unused of ["@aws-sdk/client-s3", "sharp", "better-auth"]) expect(loaded).not.toContain(unused);
  });

  it("`studio stats` on SQLite reads the counts with the raw driver: Prisma's client is neither loaded nor parsed", () => {
    const data = path.join(tmp, "stats-studio");
    const log = path.join(tmp, "stats.log");
    const r = runScript("studio", ["stats", "--json"], log, {
      STUDIO_DATA_DIR: data,
      DATABASE_URL: `file:${path.join(data, "studio.db")}`,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ trajectories: 0, steps: 0, byProject: [] });
    const loaded = packagesIn(log);
    expect(loaded).toContain("better-sqlite3");
    expect(loaded.filter((p) => p.startsWith("@prisma/"))).toEqual([]);
    expect(sourcesIn(log).filter((s) => s.startsWith("lib/server/generated/"))).toEqual([]);
  });

  it("a SQLite studio's database command neither loads nor parses the PostgreSQL client, its adapter or driver", () => {
    const data = path.join(tmp, "sqlite-only");
    const log = path.join(tmp, "sqlite-only.log");
    const r = runScript("studio", ["users", "list"], log, {
      STUDIO_DATA_DIR: data,
      DATABASE_URL: `file:${path.join(data, "studio.db")}`,
    });
    expect(r.status, r.stderr).toBe(0);
    const sources = sourcesIn(log);
    expect(sources).toContain("lib/server/generated/sqlite/client.ts");
    expect(sources.filter((s) => s.startsWith("lib/server/generated/postgresql/"))).toEqual([]);
    const loaded = packagesIn(log);
    expect(loaded).toContain("better-sqlite3");
    for (const other of ["pg", "@prisma/adapter-pg"]) expect(loaded).not.toContain(other);
  });

  it.skipIf(!hasPostgres)("a PostgreSQL studio's database command neither loads nor parses the SQLite client", () => {
    const server = startPostgres();
    try {
      const log = path.join(tmp, "postgres-only.log");
      const r = runScript("studio", ["stats", "--json"], log, {
        STUDIO_DATA_DIR: path.join(tmp, "postgres-only"),
        DATABASE_URL: server.url("postgres"),
      });
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ trajectories: 0, steps: 0 });
      const sources = sourcesIn(log);
      expect(sources).toContain("lib/server/generated/postgresql/client.ts");
      for (const sqlite of ["lib/server/generated/sqlite/client.ts", "lib/server/generated/sqlite/internal/class.ts"])
        expect(sources).not.toContain(sqlite);
    } finally {
      server.stop();
    }
  });

  it("files found beside a module's source (the reward plugin) are found from the compiled command line", () => {
    const out = path.join(tmp, "plugin");
    const r = runScript("bridge", ["reward-plugin", "--out", out], path.join(tmp, "plugin.log"));
    expect(r.status, r.stderr).toBe(0);
    const written = r.stdout.trim();
    expect(readFileSync(written, "utf8")).toBe(readFileSync(path.join(ROOT, "lib/bridge/reward_plugin.py"), "utf8"));
  });

  it("the build lists the sources it was made from, so a change to any of them is seen", () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, ".tmp/cli/manifest.json"), "utf8")) as { inputs: [string][] };
    const inputs = manifest.inputs.map(([p]) => p);
    for (const source of [
      "lib/cli/main.ts",
      "lib/bridge/cli.ts",
      "lib/server/import/index.ts",
      "lib/server/generated/sqlite/client.ts",
      "tsconfig.json",
    ])
      expect(inputs).toContain(source);
  });
});

describe("a changed source is never run stale", () => {
  // A project of its own (the same build, path alias and all), so the test never touches the studio's sources.
  const root = path.join(tmp, "project");
  const word = path.join(root, "lib", "word.ts");
  const run = async () => {
    const entry = await cliEntry({ root, entry: "main.ts", quiet: true });
    const r = spawnSync(process.execPath, [entry], { cwd: root, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    return { entry, out: r.stdout.trim() };
  };

  beforeAll(() => {
    mkdirSync(path.join(root, "lib", "data"), { recursive: true });
    writeFileSync(path.join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { paths: { "@/*": ["./*"] } } }));
    writeFileSync(word, `export const WORD: string = "one";\n`);
    writeFileSync(path.join(root, "lib", "data", "note.txt"), "beside the source");
    writeFileSync(
      path.join(root, "main.ts"),
      `import { readFileSync } from "node:fs";
import { WORD } from "@/lib/word";
const note = readFileSync(new URL("./lib/data/note.txt", import.meta.url), "utf8");
console.log(\`\${WORD} \${note}\`);
`,
    );
  });

  it("runs what it built, rebuilds after an edit, and reuses the build while nothing changed", async () => {
    await buildCli({ root, entry: "main.ts", quiet: true });
    const first = await run();
    expect(first.out).toBe("one beside the source");
    // Nothing changed: the same build, no compiling.
    expect(freshCli({ root })).toBe(first.entry);

    writeFileSync(word, `export const WORD: string = "two";\n`);
    // Same size and an mtime that may not have moved on a coarse clock: set one that differs.
    utimesSync(word, new Date(), new Date(Date.now() + 5_000));
    expect(freshCli({ root })).toBeNull();
    const second = await run();
    expect(second.out).toBe("two beside the source");
    expect(second.entry).not.toBe(first.entry);
    expect(freshCli({ root })).toBe(second.entry);
  });

  it("a source that disappears makes the build stale", async () => {
    await run();
    expect(freshCli({ root })).not.toBeNull();
    const text = readFileSync(word, "utf8");
    rmSync(word);
    expect(freshCli({ root })).toBeNull();
    writeFileSync(word, text);
  });
});
