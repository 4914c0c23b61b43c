// The screenshot store (an S3 bucket) goes down after the studio has data in it: an import and an export
// then fail with words naming the store, not "failed on the server". The bucket is a real s3rver, stopped,
// so its port is closed as a crashed MinIO's would be.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import { localize } from "@/lib/i18n";
import { startExportJob, waitForExportJob } from "../export/jobs";
import { readStoredError } from "../errors/stored-message";
import { importFile } from "../import";
import { getImportJob, runImportJob } from "../import/jobs";
import { CLI_ACTOR } from "../people/audit";
import { blankPng, freshStudio } from "../testing/fixtures";
import { startS3, type LocalS3 } from "../testing/s3rver";
import type { Db } from "../db";
import { objectStore } from "./index";

describe("an S3 screenshot store that cannot be reached", () => {
  let s3: LocalS3;
  let db: Db;
  let dir: string;
  let admin: Actor;
  let unreachable: string;
  const saved = { ...process.env };

  const trajectory = async (name: string, color: string) => {
    await writeFile(path.join(dir, `${name}.png`), await blankPng(1080, 2400, color));
    const file = path.join(dir, `${name}.jsonl`);
    const steps = [{ action_content: { action: "open", text: "Gmail" }, screenshot: `${name}.png` }];
    await writeFile(file, `${JSON.stringify({ goal: `Open Gmail (${name})`, steps })}\n`);
    return file;
  };

  beforeAll(async () => {
    s3 = await startS3();
    Object.assign(process.env, s3.env);
    ({ db, dir } = await freshStudio());
    const u = await db.user.create({ data: { id: "u-admin", email: "admin@test.local", name: "Admin", role: "admin" } });
    admin = { id: u.id, email: u.email, name: u.name, role: "admin" };
    // Data in the bucket while it is up, then the bucket goes down.
    expect((await importFile({ file: await trajectory("before", "#112233"), format: "ui-s1", screenshotsDir: dir, db })).ok).toBe(true);
    await db.trajectory.updateMany({ data: { status: "approved" } });
    unreachable = localize({ key: "error.storeUnreachable", vars: { store: objectStore().description } }, "en");
    expect(unreachable).toMatch(/^The screenshot store \(S3 bucket studio-test at http:\/\/127\.0\.0\.1:\d+\) cannot be reached/);
    await s3.stop();
  }, 60_000);

  afterAll(() => {
    process.env = saved;
  });

  it("fails an import with words naming the store; nothing is imported", async () => {
    const before = await db.trajectory.count();
    const file = await trajectory("after", "#445566");
    const failed = await runImportJob({ file, format: "ui-s1", screenshotsDir: dir, actor: CLI_ACTOR, db }).catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: "unavailable", message: unreachable });
    const [job] = await db.importJob.findMany({ where: { state: "failed" } });
    expect(await getImportJob({ actor: admin, id: job!.id }, { db })).toMatchObject({ state: "failed", error: unreachable });
    expect(await db.trajectory.count()).toBe(before);
  }, 60_000);

  it("fails an export with words naming the store", async () => {
    const started = await startExportJob({ actor: admin, status: "approved", apps: [], project: undefined, split: undefined }, { db });
    await waitForExportJob(started.id);
    const row = await db.exportJob.findUniqueOrThrow({ where: { id: started.id } });
    expect(row.state).toBe("failed");
    expect(readStoredError(row.error).error).toBe(unreachable);
  }, 60_000);
});
