// One env: every variable the studio reads is declared once (lib/server/env.ts), a bad value stops the server
// and the command line naming the variable, and .env.example is what the table generates.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ConfigError, ENV_VARS, envExample, parseEnv } from "./env";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const run = promisify(execFile);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (name === "generated" || name === "node_modules") return [];
    if (statSync(p).isDirectory()) return sources(p);
    return /\.(ts|tsx|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name) && !p.includes(`${path.sep}testing${path.sep}`) ? [p] : [];
  });
}

describe("one env", () => {
  it(".env.example is generated from the table (npm run env:example)", () => {
    expect(readFileSync(path.join(ROOT, ".env.example"), "utf8")).toBe(envExample());
  });

  it("every STUDIO_ variable the server, the command line or the app reads is declared in the table", () => {
    const files = [
      ...["lib/server", "lib/cli", "app", "server"].flatMap((d) => sources(path.join(ROOT, d))),
      path.join(ROOT, "instrumentation.ts"),
    ];
    const read = new Set<string>();
    for (const f of files) for (const m of readFileSync(f, "utf8").matchAll(/process\.env(?:\.|\[")(STUDIO_[A-Z0-9_]+)/g)) read.add(m[1]!);
    const declared = new Set(Object.keys(ENV_VARS));
    expect([...read].filter((v) => !declared.has(v))).toEqual([]);
  });

  it("lib/server reads the environment only through env.ts (tests and their helpers aside)", () => {
    const readers = sources(path.join(ROOT, "lib/server"))
      .filter(
        (f) => !/\.test\.tsx?$/.test(f) && !f.includes(`${path.sep}testing${path.sep}`) && !f.includes(`${path.sep}generated${path.sep}`),
      )
      .filter((f) => f !== path.join(ROOT, "lib/server/env.ts"))
      .filter((f) => /process\.env\b/.test(readFileSync(f, "utf8")))
      .map((f) => path.relative(ROOT, f));
    expect(readers).toEqual([]);
    // The check sees a read where there is one.
    expect(/process\.env\b/.test(readFileSync(path.join(ROOT, "lib/server/env.ts"), "utf8"))).toBe(true);
  });

  it.each([
    ["STUDIO_JOB_STALE_MS", "abc", /STUDIO_JOB_STALE_MS: must be a whole number \(got "abc"\)/],
    ["PORT", "99999", /PORT: must be at most 65535/],
    ["STUDIO_API_LANE", "fast", /STUDIO_API_LANE: must be "studio" or "next"/],
    ["DATABASE_URL", "mysql://x", /DATABASE_URL: must start with file:/],
    ["STUDIO_MODEL_URL", "ftp://x", /STUDIO_MODEL_URL: must be an http/],
    ["STUDIO_SERVER_TIMING", "maybe", /STUDIO_SERVER_TIMING: must be 1 or 0/],
    ["STUDIO_S3_ENDPOINT", "http://minio:9000", /STUDIO_S3_BUCKET: must be set when STUDIO_S3_ENDPOINT is/],
  ])("%s=%s is refused, naming the variable", (name, value, message) => {
    expect(() => parseEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => parseEnv({ [name]: value })).toThrow(message);
  });

  it("a secret's value is never repeated in the message", () => {
    expect(() => parseEnv({ STUDIO_MODEL_KEY: "k".repeat(5_000) })).toThrow(/^STUDIO_MODEL_KEY: must be at most 4000 characters$/);
  });

  it("unset or empty variables keep their defaults; good values are typed", () => {
    expect(parseEnv({ PORT: "", STUDIO_JOB_STALE_MS: "5000", STUDIO_SERVER_TIMING: "1" })).toEqual({
      STUDIO_JOB_STALE_MS: 5000,
      STUDIO_SERVER_TIMING: true,
    });
  });

  it("a bad value stops the command line and the server before they start, naming the variable", async () => {
    const cli = await run(process.execPath, ["scripts/studio.mjs", "stats"], {
      cwd: ROOT,
      env: { ...process.env, STUDIO_JOB_STALE_MS: "abc" },
    }).catch((e: { code: number; stderr: string }) => e);
    expect("code" in cli && cli.code).toBe(2);
    expect(cli.stderr).toMatch(/STUDIO_JOB_STALE_MS: must be a whole number/);

    const server = await run(process.execPath, ["--import", "tsx", "server/main.ts"], {
      cwd: ROOT,
      env: { ...process.env, PORT: "http", STUDIO_DATA_DIR: "/nonexistent-never-used" },
      timeout: 60_000,
    }).catch((e: { code: number; stderr: string }) => e);
    expect("code" in server && server.code).not.toBe(0);
    expect(server.stderr).toMatch(/PORT: must be a whole number \(got "http"\)/);
  }, 180_000);
});
