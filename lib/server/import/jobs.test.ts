// Imports are jobs a person follows: the upload request answers as soon as the files are received,
// the import runs in the background and its row says how far it is and how it ended (imported,
// refused with its problems, or failed), and a job whose process stopped is reported as failed by the
// next one to look. Real multipart requests, a real temporary SQLite database.
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import { CLI_ACTOR } from "../people/audit";
import type { Db } from "../db";
import { AppError } from "../errors/errors";
import { getImportJob, listImportJobs, recoverImportJobs, runImportJob, startUploadImport, waitForImportJob } from "./jobs";
import { blankPng, freshStudio, withTextChunk } from "../testing/fixtures";

const ADMIN: Actor = { id: "admin-1", email: "admin@test.local", role: "admin" } as Actor;
const ANNOTATOR: Actor = { id: "ann-1", email: "ann@test.local", role: "annotator" } as Actor;
const BOUNDARY = "----studio-import-jobs";

let db: Db;
let src: string;

/** A UI-S1 line with two steps over `a<i>.png` and `b<i>.png`. */
const line = (i: number, goal = `Import job task ${i}`) =>
  JSON.stringify({
    goal,
    app: "Clock",
    steps: [
      { action_content: { action: "open", text: "Clock" }, screenshot: `a${i}.png` },
      { action_content: { action: "terminate", status: "success" }, screenshot: `b${i}.png` },
    ],
  });

/** A multipart request as the import page sends it: fields, then the .jsonl and its screenshots. */
async function uploadRequest(fields: Record<string, string>, files: { name: string; bytes: Buffer }[]): Promise<Request> {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
    );
    parts.push(f.bytes, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return new Request("http://studio.test/api/imports", {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body: Buffer.concat(parts),
  });
}

async function screenshots(n: number): Promise<{ name: string; bytes: Buffer }[]> {
  const png = await blankPng(1080, 2400);
  const out = [];
  for (let i = 0; i < n; i++) for (const p of ["a", "b"]) out.push({ name: `${p}${i}.png`, bytes: withTextChunk(png, "n", `${p}${i}`) });
  return out;
}

beforeAll(async () => {
  ({ db } = await freshStudio());
  src = await mkdtemp(path.join(os.tmpdir(), "import-jobs-src-"));
});

describe("upload imports run as jobs", () => {
  it("answer with the running job at once; the job then says what it imported", async () => {
    const lines = Array.from({ length: 5 }, (_, i) => line(i)).join("\n") + "\n";
    const req = await uploadRequest({ format: "ui-s1", project: "jobs" }, [
      { name: "tasks.jsonl", bytes: Buffer.from(lines) },
      ...(await screenshots(5)),
    ]);
    const job = await startUploadImport({ actor: ADMIN, req }, { db });
    expect(job).toMatchObject({
      state: "running",
      fileName: "tasks.jsonl",
      format: "ui-s1",
      project: "jobs",
      createdBy: "admin@test.local",
    });
    await waitForImportJob(job.id);
    const done = await getImportJob({ actor: ADMIN, id: job.id }, { db });
    expect(done).toMatchObject({
      state: "succeeded",
      trajectories: 5,
      steps: 10,
      duplicates: 0,
      screenshots: 10,
      problemCount: 0,
      error: null,
    });
    expect(done.batchId).toBeTruthy();
    expect(done.finishedAt).not.toBeNull();
    expect(await db.trajectory.count({ where: { project: { name: "jobs" } } })).toBe(5);
    // The same file again: nothing new, said as skipped.
    const again = await startUploadImport(
      {
        actor: ADMIN,
        req: await uploadRequest({ format: "ui-s1", project: "jobs" }, [
          { name: "tasks.jsonl", bytes: Buffer.from(lines) },
          ...(await screenshots(5)),
        ]),
      },
      { db },
    );
    await waitForImportJob(again.id);
    expect(await getImportJob({ actor: ADMIN, id: again.id }, { db })).toMatchObject({
      state: "succeeded",
      trajectories: 0,
      duplicates: 5,
    });
  });

  it("a file with problems is refused: the job keeps the problems (no server paths) and nothing is imported", async () => {
    const before = await db.trajectory.count();
    const lines = `${line(0, "Refused task")}\n{ not json\n`;
    const req = await uploadRequest({ format: "ui-s1" }, [
      { name: "broken.jsonl", bytes: Buffer.from(lines) },
      ...(await screenshots(1)).slice(0, 1),
    ]);
    const job = await startUploadImport({ actor: ADMIN, req }, { db });
    await waitForImportJob(job.id);
    const done = await getImportJob({ actor: ADMIN, id: job.id }, { db });
    expect(done.state).toBe("refused");
    expect(done.problemCount).toBe(done.problems.length);
    expect(done.problems.some((p) => p.line === 2 && /JSON/i.test(p.message))).toBe(true);
    expect(done.problems.some((p) => /b0\.png/.test(p.message))).toBe(true);
    expect(JSON.stringify(done.problems)).not.toContain(os.tmpdir());
    expect(await db.trajectory.count()).toBe(before);
  });

  it("an upload refused before it starts (no .jsonl) answers its error and leaves no job", async () => {
    const jobs = await db.importJob.count();
    const req = await uploadRequest({ format: "ui-s1" }, (await screenshots(1)).slice(0, 1));
    await expect(startUploadImport({ actor: ADMIN, req }, { db })).rejects.toBeInstanceOf(AppError);
    expect(await db.importJob.count()).toBe(jobs);
  });

  it("only admins import or see imports", async () => {
    const req = await uploadRequest({ format: "ui-s1" }, [{ name: "x.jsonl", bytes: Buffer.from(`${line(9)}\n`) }]);
    await expect(startUploadImport({ actor: ANNOTATOR, req }, { db })).rejects.toMatchObject({ code: "forbidden" });
    await expect(listImportJobs({ actor: ANNOTATOR }, { db })).rejects.toMatchObject({ code: "forbidden" });
    const any = await db.importJob.findFirstOrThrow();
    await expect(getImportJob({ actor: ANNOTATOR, id: any.id }, { db })).rejects.toMatchObject({ code: "forbidden" });
    await expect(getImportJob({ actor: ADMIN, id: "nope" }, { db })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("command-line imports and stopped processes", () => {
  it("the command line's import is a job too, listed beside the web's", async () => {
    const file = path.join(src, "cli.jsonl");
    await writeFile(file, `${line(20, "CLI task")}\n`);
    for (const s of await screenshots(21)) if (/[ab]20\.png$/.test(s.name)) await writeFile(path.join(src, s.name), s.bytes);
    const r = await runImportJob({ actor: CLI_ACTOR, file, format: "ui-s1", screenshotsDir: src, db });
    expect(r).toMatchObject({ ok: true, trajectories: 1, steps: 2 });
    const listed = await listImportJobs({ actor: ADMIN }, { db });
    expect(listed[0]).toMatchObject({ id: r.jobId, state: "succeeded", fileName: "cli.jsonl", createdBy: "cli" });
    expect((await readFile(file, "utf8")).length).toBeGreaterThan(0);
  });

  it("a running job whose process is gone is reported failed (once, audited) by whoever looks next", async () => {
    // A job left "running" by a process that no longer exists: this host, a pid nothing runs.
    const ghost = await db.importJob.create({
      data: {
        state: "running",
        fileName: "ghost.zip",
        format: "mobile-r1",
        project: "default",
        createdByLabel: "admin@test.local",
        runnerId: `${os.hostname()}:999999999:deadbeef`,
        heartbeatAt: new Date(),
        phase: "writing",
        trajectories: 40,
      },
    });
    // A live one from another machine, heard from just now, is left alone.
    const remote = await db.importJob.create({
      data: {
        state: "running",
        fileName: "remote.zip",
        format: "mobile-r1",
        project: "default",
        createdByLabel: "admin@test.local",
        runnerId: "another-host:123:cafebabe",
        heartbeatAt: new Date(),
      },
    });
    const seen = await getImportJob({ actor: ADMIN, id: ghost.id }, { db });
    expect(seen.state).toBe("failed");
    expect(seen.error).toMatch(/stopped .*nothing was imported/);
    expect((await getImportJob({ actor: ADMIN, id: remote.id }, { db })).state).toBe("running");
    expect((await recoverImportJobs({ db })).failed).toEqual([]);
    expect(await db.auditEvent.count({ where: { action: "import.fail", entityId: ghost.id } })).toBe(1);
    // Silent past the stale limit, the other machine's job is failed too.
    await db.importJob.update({ where: { id: remote.id }, data: { heartbeatAt: new Date(Date.now() - 10 * 60_000) } });
    expect((await recoverImportJobs({ db })).failed).toEqual([remote.id]);
  });
});
