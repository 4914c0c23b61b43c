// Issue 22: a full disk answered a bare 500. Here the studio's data folder and its SQLite database live on
// a real 64 MB tmpfs, filled to the last byte: every write path (a step save, an import upload, an
// export, a screenshot's display variant) must answer 507 with words an operator can act on, change
// nothing, and work again once space is freed. Mounting needs root (the CI container runs as root).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, openSync, writeSync, closeSync } from "node:fs";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as stepRoute } from "@/app/api/steps/[id]/annotation/route";
import { POST as importsRoute } from "@/app/api/imports/route";
import { POST as exportsRoute } from "@/app/api/exports/route";
import { GET as screenshotRoute } from "@/app/api/screenshots/[sha]/route";
import { localize } from "@/lib/i18n";
import { CLI_ACTOR } from "./people/audit";
import { createDb, type Db } from "./db";
import { importFile } from "./import";
import { runImportJob } from "./import/jobs";
import { readStoredError } from "./errors/stored-message";
import { migrate } from "./db/migrate";
import { createUser } from "./people";
import { createToken } from "./people/tokens";
import { blankPng } from "./testing/fixtures";
import { BOUNDARY } from "./testing/hostile-uploads";

const isRoot = process.getuid?.() === 0;
const DISK_FULL = localize({ key: "error.diskFull" }, "en");
const EXPORT_DISK_FULL = localize({ key: "error.diskFullExport" }, "en");
/** The 507 of an upload that could not be written, naming one of the files it carried. */
const uploadRefused = (...names: string[]) => ({
  status: 507,
  error: {
    code: "insufficient_storage",
    message: expect.toBeOneOf(names.map((name) => localize({ key: "error.diskFullUpload", vars: { name } }, "en"))),
  },
});

type Handler = (req: Request, ctx: never) => Promise<Response>;
async function call(
  handler: Handler,
  method: string,
  url: string,
  token: string,
  body?: BodyInit,
  params: Record<string, string> = {},
  type = "application/json",
) {
  const res = await handler(
    new Request(`http://127.0.0.1:3000${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": type },
      // A stream body is sent as it is read (duplex), as the server hands an upload to a route.
      ...(body ? { body, duplex: "half" } : {}),
    }),
    { params: Promise.resolve(params) } as never,
  );
  const text = await res.text();
  return {
    status: res.status,
    error: res.headers.get("content-type")?.startsWith("application/json")
      ? (JSON.parse(text) as { error?: { code: string; message: string } }).error
      : undefined,
  };
}

/** Fill the disk holding `file` to the last byte: big writes, then small ones, until ENOSPC. */
function fillDisk(file: string) {
  const fd = openSync(file, "a");
  try {
    for (const size of [1 << 20, 4096, 1]) {
      const block = randomBytes(size);
      for (;;) {
        try {
          writeSync(fd, block);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === "ENOSPC") break;
          throw e;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(!isRoot)("a full disk (a 64 MB tmpfs holding the data folder and the database)", () => {
  let mount: string;
  let db: Db;
  let token: string;
  let stepId: string;
  let sha: string;
  const filler = () => path.join(mount, "filler");
  const saved = { url: process.env.DATABASE_URL, data: process.env.STUDIO_DATA_DIR };

  const fill = () => fillDisk(filler());
  /** The upload work folders still in the data folder's tmp. */
  const uploadsLeft = async () => (await readdir(path.join(mount, "tmp")).catch(() => [])).filter((n) => n.startsWith("upload-"));

  const annotation = (text: string, version: number) =>
    JSON.stringify({
      thought: { state: "s", nextAction: "n", purpose: "p", text },
      clearAction: "Open Gmail.",
      toolCall: { action: "open", text: "Gmail" },
      box: null,
      verdict: "good",
      version,
    });

  beforeAll(async () => {
    mount = mkdtempSync(path.join(os.tmpdir(), "studio-full-"));
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", mount]);
    const url = `file:${path.join(mount, "studio.db")}`;
    process.env.STUDIO_DATA_DIR = mount;
    process.env.DATABASE_URL = url;
    await migrate(url);
    db = createDb(url);
    await createUser({ actor: CLI_ACTOR, email: "boss@example.com", role: "admin", password: "password-123" }, db);
    token = (await createToken({ actor: CLI_ACTOR, user: "boss@example.com", name: "t" }, db)).token;
    const src = mkdtempSync(path.join(os.tmpdir(), "full-src-"));
    await writeFile(path.join(src, "a.png"), await blankPng(1080, 2400));
    await writeFile(
      path.join(src, "d.jsonl"),
      `${JSON.stringify({ goal: "Open Gmail", steps: [{ action_content: { action: "open", text: "Gmail" }, screenshot: "a.png" }] })}\n`,
    );
    expect((await importFile({ file: path.join(src, "d.jsonl"), format: "ui-s1", db })).ok).toBe(true);
    const boss = await db.user.findUniqueOrThrow({ where: { email: "boss@example.com" } });
    const t = await db.trajectory.findFirstOrThrow();
    await db.trajectory.update({ where: { id: t.id }, data: { assigneeId: boss.id } });
    const step = await db.step.findFirstOrThrow({ include: { screenshot: true } });
    stepId = step.id;
    sha = step.screenshotSha;
    await mkdir(path.join(mount, "exports"), { recursive: true });
    fill();
  }, 120_000);

  afterAll(async () => {
    await db?.$disconnect();
    if (mount) execFileSync("umount", ["-l", mount]);
    process.env.DATABASE_URL = saved.url;
    process.env.STUDIO_DATA_DIR = saved.data;
  });

  it("answers a step save with 507 in words", async () => {
    const before = await db.step.findUniqueOrThrow({ where: { id: stepId } });
    // Saves until the database needs a page it cannot have (the first may fit in space SQLite holds already).
    let r = { status: 200 } as Awaited<ReturnType<typeof call>>;
    for (let i = 0; r.status === 200 && i < 50; i++) {
      const current = await db.step.findUniqueOrThrow({ where: { id: stepId } });
      r = await call(stepRoute, "PUT", `/api/steps/${stepId}/annotation`, token, annotation("x".repeat(9_000) + i, current.version), {
        id: stepId,
      });
    }
    expect(r).toEqual({ status: 507, error: { code: "insufficient_storage", message: DISK_FULL } });
    expect((await db.step.findUniqueOrThrow({ where: { id: stepId } })).version).toBeGreaterThanOrEqual(before.version);
  });

  it("answers an import upload with 507 in words, leaving nothing behind", async () => {
    const png = await blankPng(64, 64);
    const body = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="format"\r\n\r\nui-s1\r\n`),
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="d.jsonl"\r\n\r\n`),
      Buffer.from(
        JSON.stringify({ goal: "Full", steps: [{ action_content: { action: "open", text: "Gmail" }, screenshot: "b.png" }] }) + "\n",
      ),
      Buffer.from(`\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="b.png"\r\n\r\n`),
      png,
      randomBytes(256 * 1024), // more than any space a full disk has left
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const trajectories = await db.trajectory.count();
    const r = await call(importsRoute, "POST", "/api/imports", token, body, {}, `multipart/form-data; boundary=${BOUNDARY}`);
    expect(r).toEqual(uploadRefused("d.jsonl", "b.png"));
    expect(await db.trajectory.count()).toBe(trajectories);
  });

  it("answers an upload larger than the stream buffers with 507 at once, and leaves no upload folder in tmp", async () => {
    // Megabytes of image: busboy waits for the file that can no longer be written, so a failed write must end the read.
    const body = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="format"\r\n\r\nui-s1\r\n`),
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="d.jsonl"\r\n\r\n`),
      Buffer.from(
        `${JSON.stringify({ goal: "Big", steps: [{ action_content: { action: "open", text: "Gmail" }, screenshot: "c.png" }] })}\n`,
      ),
      Buffer.from(`\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="c.png"\r\n\r\n`),
      randomBytes(8 * 1024 * 1024),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    // Sent in 64 KB chunks, as a browser's upload arrives through the server (not as one buffer).
    let at = 0;
    const chunked = new ReadableStream<Uint8Array>({
      pull(c) {
        if (at >= body.length) return c.close();
        c.enqueue(new Uint8Array(body.subarray(at, at + 64 * 1024)));
        at += 64 * 1024;
      },
    });
    const answered = call(importsRoute, "POST", "/api/imports", token, chunked, {}, `multipart/form-data; boundary=${BOUNDARY}`);
    const noAnswer = new Promise<string>((resolve) => setTimeout(() => resolve("no answer after 20 s"), 20_000).unref());
    expect(await Promise.race([answered, noAnswer])).toEqual(uploadRefused("d.jsonl", "c.png"));
    expect(await uploadsLeft()).toEqual([]);
  }, 30_000);

  it("answers an export with 507 in words", async () => {
    const r = await call(exportsRoute, "POST", "/api/exports", token, JSON.stringify({ status: "all" }));
    expect(r).toEqual({ status: 507, error: { code: "insufficient_storage", message: EXPORT_DISK_FULL } });
  });

  it("answers a screenshot's display variant with 507 in words; the original is still served", async () => {
    const variant = await call(screenshotRoute, "GET", `/api/screenshots/${sha}?variant=display`, token, undefined, { sha });
    expect(variant).toEqual({ status: 507, error: { code: "insufficient_storage", message: DISK_FULL } });
    const original = await call(screenshotRoute, "GET", `/api/screenshots/${sha}?variant=original`, token, undefined, { sha });
    expect(original.status).toBe(200);
  });

  it("works again once space is freed, with nothing left in tmp", async () => {
    await rm(filler());
    expect(await uploadsLeft()).toEqual([]);
    const current = await db.step.findUniqueOrThrow({ where: { id: stepId } });
    const r = await call(stepRoute, "PUT", `/api/steps/${stepId}/annotation`, token, annotation("after", current.version), { id: stepId });
    expect(r.status).toBe(200);
    const variant = await call(screenshotRoute, "GET", `/api/screenshots/${sha}?variant=display`, token, undefined, { sha });
    expect(variant.status).toBe(200);
  });
});

describe.skipIf(!isRoot)("a full data folder beside a database that still has room (as on PostgreSQL)", () => {
  let mount: string;
  let db: Db;
  let token: string;
  const saved = { url: process.env.DATABASE_URL, data: process.env.STUDIO_DATA_DIR };

  beforeAll(async () => {
    mount = mkdtempSync(path.join(os.tmpdir(), "studio-full-data-"));
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", mount]);
    const dbDir = mkdtempSync(path.join(os.tmpdir(), "studio-roomy-db-"));
    const url = `file:${path.join(dbDir, "studio.db")}`;
    process.env.STUDIO_DATA_DIR = mount;
    process.env.DATABASE_URL = url;
    await migrate(url);
    db = createDb(url);
    await createUser({ actor: CLI_ACTOR, email: "boss@example.com", role: "admin", password: "password-123" }, db);
    token = (await createToken({ actor: CLI_ACTOR, user: "boss@example.com", name: "t" }, db)).token;
    await mkdir(path.join(mount, "exports"), { recursive: true });
    fillDisk(path.join(mount, "filler"));
  }, 120_000);

  afterAll(async () => {
    await db?.$disconnect();
    if (mount) execFileSync("umount", ["-l", mount]);
    process.env.DATABASE_URL = saved.url;
    process.env.STUDIO_DATA_DIR = saved.data;
  });

  it("answers an export with 507 at once, and records no job that would fail later", async () => {
    const r = await call(exportsRoute, "POST", "/api/exports", token, JSON.stringify({ status: "all" }));
    expect(r).toEqual({ status: 507, error: { code: "insufficient_storage", message: EXPORT_DISK_FULL } });
    expect(await db.exportJob.count()).toBe(0);
  });

  it("fails an import job whose screenshots cannot be written with words naming the import", async () => {
    const src = mkdtempSync(path.join(os.tmpdir(), "full-import-src-"));
    await writeFile(path.join(src, "big.png"), await blankPng(1080, 2400, "#336699"));
    await writeFile(
      path.join(src, "d.jsonl"),
      `${JSON.stringify({ goal: "Open Gmail", steps: [{ action_content: { action: "open", text: "Gmail" }, screenshot: "big.png" }] })}\n`,
    );
    const failed = await runImportJob({
      file: path.join(src, "d.jsonl"),
      format: "ui-s1",
      screenshotsDir: src,
      actor: CLI_ACTOR,
      db,
    }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: "ENOSPC" });
    const job = await db.importJob.findFirstOrThrow({ where: { state: "failed" } });
    expect(readStoredError(job.error).error).toBe(localize({ key: "error.diskFullImport" }, "en"));
    expect(await db.trajectory.count()).toBe(0);
  });
});
