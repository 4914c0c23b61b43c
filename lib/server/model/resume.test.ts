// A pre-annotation job whose endpoint fails: it stops after MAX_FAILURES_IN_ROW failures (exactly that
// many recorded, whatever the concurrency), and an admin's Resume continues the same job with the
// items not yet done once the endpoint answers again.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import type { Db } from "../db";
import { AppError } from "../errors/errors";
import { importFile } from "../import";
import { saveModelSettings } from "./index";
import { commandModelJob, getModelJob, MAX_FAILURES_IN_ROW, startModelJob, waitForModelJob } from "./jobs";
import { blankPng, freshStudio } from "../testing/fixtures";
import { startFakeModelServer, type FakeModelServer } from "../testing/fake-model-server";

let db: Db;
let dir: string;
let fake: FakeModelServer;
let admin: Actor;

beforeAll(async () => {
  const s = await freshStudio();
  db = s.db;
  dir = s.dir;
  await writeFile(path.join(dir, "s.png"), await blankPng(1080, 2400));
  fake = await startFakeModelServer();
  const u = await db.user.create({ data: { id: "u-admin", email: "admin@test.local", name: "admin", role: "admin" } });
  admin = { id: u.id, email: u.email, name: u.name, role: "admin" };
  delete process.env.STUDIO_MODEL_URL;
  // Four answers in flight at once: the stop rule must still count as documented.
  await saveModelSettings({ actor: admin, baseUrl: fake.baseUrl, model: "qwen2.5-vl-7b", concurrency: 4, timeoutMs: 5_000 }, db);
});

afterAll(async () => {
  await fake?.close();
});

async function seedSteps(goal: string, steps: number): Promise<string> {
  const file = path.join(dir, `${goal.replace(/\W/g, "-")}.jsonl`);
  const line = {
    goal,
    steps: Array.from({ length: steps }, (_, i) => ({
      action_content: { action: "click", coordinate: [100 + i, 200] },
      screenshot: "s.png",
    })),
  };
  await writeFile(file, `${JSON.stringify(line)}\n`);
  const r = await importFile({ file, format: "ui-s1", screenshotsDir: dir, db });
  if (!r.ok) throw new Error(`import failed: ${JSON.stringify(r)}`);
  return (await db.trajectory.findFirstOrThrow({ where: { instruction: goal } })).id;
}

describe("a failed pre-annotation job", () => {
  it(`stops after ${MAX_FAILURES_IN_ROW} failures in a row, and Resume finishes the items not yet done in the same job`, async () => {
    expect(MAX_FAILURES_IN_ROW).toBe(5);
    const tid = await seedSteps("resume me", 12);
    fake.setMode({ mode: "fail" });
    const job = await startModelJob({ actor: admin, kind: "prefill", trajectoryIds: [tid] }, db);
    await waitForModelJob(job.id);
    const failed = await getModelJob({ actor: admin, id: job.id }, db);
    expect(failed.state).toBe("failed");
    // Exactly the documented number: answers in flight when the rule fired are not counted as more failures.
    expect(failed.failures).toBe(MAX_FAILURES_IN_ROW);
    expect(failed.error).toMatch(/Stopped after 5 failures in a row/);
    expect(failed.progress).toEqual({ done: MAX_FAILURES_IN_ROW, total: 12 });
    const prefilled = async () => db.step.count({ where: { trajectoryId: tid, NOT: { thoughtState: "" } } });
    expect(await prefilled()).toBe(0);

    // Answers the stopped job abandoned may still reach the endpoint on a loaded machine: let them land
    // (no new request for a second) before counting the resume's own.
    for (let seen = -1, i = 0; seen !== fake.requests.length && i < 20; i++) {
      seen = fake.requests.length;
      await new Promise((r) => setTimeout(r, 1_000));
    }
    // The stopped job sent no more than its failures plus the answers in flight at the time (concurrency 4).
    expect(fake.requests.length).toBeLessThanOrEqual(MAX_FAILURES_IN_ROW + 3);
    fake.setMode({ mode: "ok" });
    fake.requests.length = 0;
    const resumed = await commandModelJob({ actor: admin, id: job.id, command: "resume" }, db);
    expect(resumed).toMatchObject({ id: job.id, state: "running", error: null, failures: 0 });
    await waitForModelJob(job.id);
    const done = await getModelJob({ actor: admin, id: job.id }, db);
    expect(done).toMatchObject({ state: "succeeded", failures: 0, progress: { done: 12, total: 12 }, error: null });
    // Each step asked once more, none twice: the resume continued, it did not start over.
    expect(fake.requests).toHaveLength(12);
    expect(await prefilled()).toBe(12);
    expect(await db.modelJob.count()).toBe(1);
  });

  it("a job that finished cannot be resumed", async () => {
    const tid = await seedSteps("done already", 1);
    fake.setMode({ mode: "ok" });
    const job = await startModelJob({ actor: admin, kind: "prefill", trajectoryIds: [tid] }, db);
    await waitForModelJob(job.id);
    const e = await commandModelJob({ actor: admin, id: job.id, command: "resume" }, db).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe("conflict");
  });
});
