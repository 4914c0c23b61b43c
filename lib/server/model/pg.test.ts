// The model in the loop on PostgreSQL (a private server, migrations run from scratch): the
// model_in_the_loop migration's tables and columns, a suggestion accepted and saved with its
// provenance, a pre-annotation job racing a person's saves and then killed and taken over, and the
// judge's verdict rows with the agreement figures, all against a real HTTP model server.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import type { StepView } from "@/lib/domain/views";
import { saveStepAnnotation } from "../annotate";
import type { Db } from "../db";
import { importFile } from "../import";
import { judgeAgreement } from "./judge";
import { saveModelSettings } from "./index";
import { getModelJob, recoverModelJobs, startModelJob, waitForModelJob } from "./jobs";
import { acceptSuggestion, suggestForStep } from "./suggest";
import { getTrajectory } from "../annotate/trajectories";
import { defaultReply, requestText, startFakeModelServer, type FakeModelServer } from "../testing/fake-model-server";
import { startAndKillModelJob } from "../testing/kill-model-job";
import { blankPng } from "../testing/fixtures";
import { hasPostgres, startPostgres } from "../testing/postgres";

describe.skipIf(!hasPostgres)("the model in the loop on PostgreSQL", () => {
  let server: ReturnType<typeof startPostgres>;
  let db: Db;
  let url: string;
  let dir: string;
  let fake: FakeModelServer;
  let admin: Actor;
  let ann: Actor;
  let reviewer: Actor;

  const person = async (role: Actor["role"], name: string): Promise<Actor> => {
    const u = await db.user.create({ data: { id: `u-${name}`, email: `${name}@test.local`, name, role } });
    return { id: u.id, email: u.email, name: u.name, role };
  };
  const steps = async (id: string): Promise<StepView[]> => (await getTrajectory(id, db)).steps;
  const edit = (s: StepView, patch: Partial<Pick<StepView, "thought" | "clearAction">>) => ({
    thought: patch.thought ?? s.thought,
    clearAction: patch.clearAction ?? s.clearAction,
    toolCall: s.toolCall,
    box: s.box,
    verdict: s.verdict,
    version: s.version,
  });
  async function seed(goals: { goal: string; steps: number; app?: string }[]): Promise<string[]> {
    const file = path.join(dir, `d-${Math.random().toString(36).slice(2)}.jsonl`);
    const line = (g: { goal: string; steps: number; app?: string }) =>
      JSON.stringify({
        goal: g.goal,
        ...(g.app ? { app: g.app } : {}),
        steps: Array.from({ length: g.steps }, (_, i) => ({
          action_content: { action: "click", coordinate: [100 + i, 200] },
          screenshot: "s.png",
        })),
      });
    await writeFile(file, `${goals.map(line).join("\n")}\n`);
    const r = await importFile({ file, format: "ui-s1", screenshotsDir: dir, db });
    if (!r.ok) throw new Error(`import failed: ${JSON.stringify(r)}`);
    const ids: string[] = [];
    for (const g of goals) ids.push((await db.trajectory.findFirstOrThrow({ where: { instruction: g.goal } })).id);
    return ids;
  }
  async function waitUntil(check: () => boolean | Promise<boolean>, ms = 20_000) {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error("timed out waiting");
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  beforeAll(async () => {
    server = startPostgres();
    ({ db, url, dir } = await server.freshDb());
    await writeFile(path.join(dir, "s.png"), await blankPng(1080, 2400));
    fake = await startFakeModelServer();
    for (const k of ["STUDIO_MODEL_URL", "STUDIO_MODEL_NAME", "STUDIO_MODEL_KEY"]) delete process.env[k];
    admin = await person("admin", "admin");
    ann = await person("annotator", "ann");
    reviewer = await person("reviewer", "rev");
    await saveModelSettings(
      { actor: admin, baseUrl: fake.baseUrl, model: "qwen2.5-vl-7b", apiKey: "sk-pg", concurrency: 2, timeoutMs: 5_000 },
      db,
    );
  }, 120_000);

  afterAll(async () => {
    await fake?.close();
    await db?.$disconnect();
    server?.stop();
  });

  it("the migration made the model tables and the step's provenance column", async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const tables = await client.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
      );
      const names = tables.rows.map((r) => r.table_name);
      for (const t of ["ModelSetting", "StepSuggestion", "ModelJob", "ModelJobItem", "JudgeVerdict"]) expect(names).toContain(t);
      const col = await client.query(
        "SELECT data_type, is_nullable FROM information_schema.columns WHERE table_name = 'Step' AND column_name = 'provenanceJson'",
      );
      expect(col.rows).toEqual([{ data_type: "text", is_nullable: "YES" }]);
    } finally {
      await client.end();
    }
  });

  it("a suggestion asked, accepted and saved carries its provenance in the step and the audit trail", async () => {
    const [tid] = (await seed([{ goal: "PG: turn on Wi-Fi", steps: 2 }])) as [string];
    await db.trajectory.update({ where: { id: tid }, data: { assigneeId: ann.id, status: "in_progress" } });
    const s0 = (await steps(tid))[0]!;
    const sug = await suggestForStep({ actor: ann, stepId: s0.id, kind: "thought" }, db);
    expect(sug).toMatchObject({ kind: "thought", prompt: "suggest-thought.v2", model: "qwen2.5-vl-7b" });
    await acceptSuggestion({ actor: ann, id: sug.id }, db);
    const saved = await saveStepAnnotation(
      { actor: ann, stepId: s0.id, ...edit(s0, { thought: sug.kind === "thought" ? sug.output : s0.thought }) },
      db,
    );
    expect(saved.provenance["thought.state"]).toMatchObject({
      source: "suggested-accepted",
      suggestionId: sug.id,
      prompt: "suggest-thought.v2",
    });
    const edited = await saveStepAnnotation(
      { actor: ann, stepId: s0.id, ...edit(saved, { thought: { ...saved.thought, purpose: "Mine." } }) },
      db,
    );
    expect(edited.provenance["thought.purpose"]).toMatchObject({ source: "suggested-edited", suggestionId: sug.id });
    expect((await db.stepSuggestion.findUniqueOrThrow({ where: { id: sug.id } })).acceptedById).toBe(ann.id);
    const audit = await db.auditEvent.findMany({ where: { entityId: s0.id }, orderBy: { at: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["step.suggest", "step.suggest.accept", "step.annotate", "step.annotate"]);
    expect(JSON.parse(audit[2]!.afterJson!).provenance["thought.state"]).toMatchObject({ source: "suggested-accepted" });
  });

  it("a pre-annotation job fills only untouched steps while a person saves steps mid-job, counts tokens, and survives its process being killed", async () => {
    const [a, b] = (await seed([
      { goal: "PG prefill A", steps: 4 },
      { goal: "PG prefill B", steps: 4 },
    ])) as [string, string];
    await db.trajectory.update({ where: { id: a }, data: { assigneeId: ann.id, status: "in_progress" } });
    const aSteps = await steps(a);
    // Every request takes a while: the person's saves land while the model is answering for those very steps.
    fake.setMode({ mode: "slow", delayMs: 400 });
    fake.requests.length = 0;
    const job = await startModelJob({ actor: admin, kind: "prefill", trajectoryIds: [a] }, db);
    await waitUntil(() => fake.requests.length >= 2);
    // Concurrency 2: steps 1 and 2 are both being asked about now; the person saves both.
    for (const s of aSteps.slice(0, 2))
      await saveStepAnnotation({ actor: ann, stepId: s.id, ...edit(s, { clearAction: `Person ${s.index}.` }) }, db);
    await waitForModelJob(job.id);
    const done = await getModelJob({ actor: admin, id: job.id }, db);
    expect(done).toMatchObject({ state: "succeeded", progress: { done: 4, total: 4 }, skipped: 2, failures: 0 });
    expect(done.tokens.prompt).toBeGreaterThan(0);
    const after = await steps(a);
    for (const s of after.slice(0, 2)) {
      expect(s.clearAction).toBe(`Person ${s.index}.`);
      expect(s.thought).toEqual(aSteps[s.index]!.thought);
      expect(s.provenance["thought.state"]).toBeUndefined();
    }
    for (const s of after.slice(2)) expect(s.provenance["thought.state"]).toMatchObject({ source: "prefilled", model: "qwen2.5-vl-7b" });
    expect(await db.modelJobItem.count({ where: { jobId: job.id } })).toBe(4);
    const skipped = await db.modelJobItem.findMany({ where: { jobId: job.id, result: "skipped" } });
    expect(skipped.map((i) => i.detail)).toEqual(["changed-meanwhile", "changed-meanwhile"]);
    expect(done.skippedBy).toEqual({ "changed-meanwhile": 2 });
    expect(await db.auditEvent.count({ where: { action: "step.prefill", actorLabel: `model-job:${job.id}` } })).toBe(2);

    // A studio process starts a job over B, is killed mid-way; this process takes it over and finishes it.
    fake.setMode({ mode: "slow", delayMs: 60_000 });
    fake.requests.length = 0;
    const jobId = await startAndKillModelJob(b, { ...process.env, DATABASE_URL: url }, () => fake.requests.length >= 1);
    expect((await db.modelJob.findUniqueOrThrow({ where: { id: jobId } })).state).toBe("running");
    fake.setMode({ mode: "ok" });
    fake.requests.length = 0;
    expect(await recoverModelJobs(db)).toEqual([jobId]);
    await waitForModelJob(jobId);
    expect(await getModelJob({ actor: admin, id: jobId }, db)).toMatchObject({
      state: "succeeded",
      progress: { done: 4, total: 4 },
      skipped: 0,
    });
    expect(fake.requests).toHaveLength(4);
    for (const s of await steps(b)) expect(s.provenance["thought.text"]).toMatchObject({ source: "prefilled" });
    expect(await db.auditEvent.count({ where: { action: "model.job.takeover", entityId: jobId } })).toBe(1);
  }, 60_000);

  it("a job cancelled by another instance while an answer is in flight writes nothing more (the guarded write on PostgreSQL)", async () => {
    const [id] = (await seed([{ goal: "PG cancel race", steps: 2 }])) as [string];
    const before = await steps(id);
    fake.setMode({ mode: "slow", delayMs: 600 });
    fake.requests.length = 0;
    const job = await startModelJob({ actor: admin, kind: "prefill", trajectoryIds: [id] }, db);
    await waitUntil(() => fake.requests.length >= 1);
    // Another studio process cancels: a row update this process does not see coming.
    await db.modelJob.update({ where: { id: job.id }, data: { state: "cancelled", finishedAt: new Date() } });
    await waitForModelJob(job.id);
    fake.setMode({ mode: "ok" });
    expect(await db.stepSuggestion.count({ where: { jobId: job.id } })).toBe(0);
    expect(await db.modelJobItem.count({ where: { jobId: job.id } })).toBe(0);
    const after = await steps(id);
    for (const s of after) {
      expect(s.version).toBe(before[s.index]!.version);
      expect(s.thought).toEqual(before[s.index]!.thought);
    }
    expect(await getModelJob({ actor: admin, id: job.id }, db)).toMatchObject({ state: "cancelled", progress: { done: 0 } });
  }, 30_000);

  it("the judge writes verdict rows and the agreement figures match known counts", async () => {
    // [app, human outcome, judge says completed]: Notes 2 agree + 1 not; Clock 1 agrees + 1 not.
    const plan: [string, "success" | "failure", boolean][] = [
      ["Notes", "success", true],
      ["Notes", "failure", false],
      ["Notes", "failure", true],
      ["Clock", "success", true],
      ["Clock", "success", false],
    ];
    const ids = await seed(plan.map(([app, , done], i) => ({ goal: `PG judge ${i} [${done ? "done" : "not done"}]`, steps: 1, app })));
    for (const [i, id] of ids.entries()) await db.trajectory.update({ where: { id }, data: { status: "approved", outcome: plan[i]![1] } });
    fake.setResponder((req) => {
      const done = /\[done\]/.test(requestText(req));
      return JSON.stringify({ completed: done, consistent: !done, reason: done ? "Done." : "Not done." });
    });
    try {
      const job = await startModelJob({ actor: admin, kind: "judge", trajectoryIds: [] }, db);
      await waitForModelJob(job.id);
      expect(await getModelJob({ actor: admin, id: job.id }, db)).toMatchObject({ state: "succeeded", progress: { done: 5, total: 5 } });
    } finally {
      fake.setResponder(defaultReply);
    }
    const rows = await db.judgeVerdict.findMany({ where: { trajectoryId: { in: ids } }, orderBy: { trajectoryId: "asc" } });
    expect(rows).toHaveLength(5);
    for (const r of rows) expect(r).toMatchObject({ prompt: "judge.v2", model: "qwen2.5-vl-7b" });
    expect(rows.filter((r) => r.outcome === "success" && !r.isConsistent)).toHaveLength(3);
    const a = await judgeAgreement({ actor: reviewer }, db);
    // success/success 2, success/failure 1, failure/success 1, failure/failure 1: po 0.6, pe 0.52, kappa 1/6.
    expect(a.overall).toMatchObject({
      pairs: 5,
      agree: 3,
      confusion: { success: { success: 2, failure: 1 }, failure: { success: 1, failure: 1 } },
    });
    expect(a.overall.kappa).toBeCloseTo(1 / 6, 10);
    expect(a.byApp.map((g) => [g.app, g.pairs, g.agree])).toEqual([
      ["Clock", 2, 1],
      ["Notes", 3, 2],
    ]);
    expect(a.disagreements.map((d) => [d.app, d.human, d.judge]).sort()).toEqual([
      ["Clock", "success", "failure"],
      ["Notes", "failure", "success"],
    ]);
  });
});
