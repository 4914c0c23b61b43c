// The races of issue 11 on PostgreSQL (a private server): the per-account sign-in limit holds under
// 60 simultaneous attempts, and an export whose process is killed is reported failed and swept.
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_FAILURE_LIMIT, baseUrl } from "./auth";
import { authHandler } from "../http/auth-handler";
import { CLI_ACTOR } from "./audit";
import { createDb, loadDialect, type Db } from "../db";
import { exportsDir, recoverExportJobs } from "../export/job-kind";
import { getExport } from "../export/listing";
import { importFile } from "../import";
import { migrate } from "../db/migrate";
import { createUser } from "./index";
import { blankPng } from "../testing/fixtures";
import { hasPostgres, startPostgres } from "../testing/postgres";

describe.skipIf(!hasPostgres)("on PostgreSQL", () => {
  let server: ReturnType<typeof startPostgres>;
  let db: Db;
  beforeAll(async () => {
    server = startPostgres();
    process.env.DATABASE_URL = server.url("postgres");
    process.env.STUDIO_DATA_DIR = await mkdtemp(path.join(os.tmpdir(), "pg-studio-"));
    await migrate(server.url("postgres"));
    await loadDialect("postgresql");
    db = createDb(server.url("postgres"));
  }, 120_000);
  afterAll(async () => {
    await db?.$disconnect();
    server?.stop();
  });

  it("evaluates at most the account's limit of 60 simultaneous sign-ins and gives the right one after them no session", async () => {
    await createUser({ actor: CLI_ACTOR, email: "raced@example.com", role: "annotator", password: "correct horse" }, db);
    const user = await db.user.findUniqueOrThrow({ where: { email: "raced@example.com" } });
    const results = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const res = await authHandler(
          new Request(`${baseUrl()}/api/auth/sign-in/email`, {
            method: "POST",
            headers: { "content-type": "application/json", origin: baseUrl(), "x-forwarded-for": `10.60.0.${i}` },
            body: JSON.stringify({ email: "raced@example.com", password: i === 59 ? "correct horse" : `wrong-${i}` }),
          }),
        );
        return { status: res.status, cookie: (res.headers.getSetCookie?.() ?? []).join(";") };
      }),
    );
    const failures = results.filter((r) => r.status === 401).length;
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThanOrEqual(ACCOUNT_FAILURE_LIMIT);
    expect(results.filter((r) => r.status === 429).length).toBe(60 - failures);
    expect(results.some((r) => r.cookie.includes("session_token="))).toBe(false);
    expect(await db.session.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.auditEvent.count({ where: { action: "auth.sign_in_failed", entityId: "raced@example.com" } })).toBe(failures);
  });

  it("reports an export whose process was killed mid-way as failed, and sweeps its partial folder", async () => {
    const src = await mkdtemp(path.join(os.tmpdir(), "pg-export-src-"));
    await writeFile(path.join(src, "a.png"), await blankPng(1080, 2400));
    const lines = Array.from({ length: 8 }, (_, i) =>
      JSON.stringify({ goal: `Task ${i}`, steps: [{ action_content: { action: "open", text: "Gmail" }, screenshot: "a.png" }] }),
    ).join("\n");
    await writeFile(path.join(src, "d.jsonl"), `${lines}\n`);
    expect(await importFile({ file: path.join(src, "d.jsonl"), format: "ui-s1", db })).toMatchObject({ ok: true, trajectories: 8 });
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("lib/server/testing/export-child.ts"), "web"], {
      env: { ...process.env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on("line", (l) => l === "exporting" && resolve());
      child.on("exit", (code) => reject(new Error(`export child exited (${code}) before exporting`)));
    });
    const row = await db.exportJob.findFirstOrThrow({ where: { state: "running" } });
    expect(readdirSync(exportsDir()).filter((n) => n.includes(".partial-"))).toHaveLength(1);
    await new Promise<void>((resolve) => {
      child.on("exit", () => resolve());
      child.kill("SIGKILL");
    });
    expect((await recoverExportJobs({ db, force: true })).failed).toEqual([row.id]);
    expect(await getExport({ actor: CLI_ACTOR, id: row.id }, { db })).toMatchObject({ state: "failed" });
    expect(readdirSync(exportsDir()).filter((n) => n.includes(".partial-"))).toEqual([]);
    expect(existsSync(row.outDir)).toBe(false);
  });
});
