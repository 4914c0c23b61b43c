// The model in the loop against a real database and a real HTTP model server (testing/fake-model-server):
// settings, test connection, suggestions with provenance into the export, a slow and a broken
// endpoint, batch pre-annotation (untouched steps only, pause/resume/cancel, surviving a kill) and
// the judge's agreement figures over a seeded database with known counts.
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { framePair, QWEN_MAX_PIXELS, toOriginalPoint } from "@/lib/domain/geometry";
import type { Actor } from "@/lib/domain/permissions";
import type { StepView } from "@/lib/domain/views";
import { saveStepAnnotation } from "../annotate";
import type { Db } from "../db";
import { AppError } from "../errors/errors";
import { exportDataset } from "../export";
import { importFile } from "../import";
import { judgeAgreement } from "./judge";
import { getModelSettings, saveModelSettings, testModelConnection } from "./index";
import { commandModelJob, getModelJob, recoverModelJobs, startModelJob, waitForModelJob } from "./jobs";
import { acceptSuggestion, suggestForStep } from "./suggest";
import { getTrajectory } from "../annotate/trajectories";
import { startAndKillModelJob } from "../testing/kill-model-job";
import { blankPng, freshStudio } from "../testing/fixtures";
import { defaultReply, requestImages, requestText, startFakeModelServer, type FakeModelServer } from "../testing/fake-model-server";

const KEY = "sk-studio-test-secret-4711";

let db: Db;
let dir: string;
let fake: FakeModelServer;
let admin: Actor;
let ann: Actor;
let reviewer: Actor;

async function person(role: Actor["role"], name: string): Promise<Actor> {
  const u = await db.user.create({ data: { id: `u-${name}`, email: `${name}@test.local`, name, role } });
  return { id: u.id, email: u.email, name: u.name, role };
}

/** UI-S1 lines: each trajectory `steps` clicks on one 1080x2400 screenshot. */
function uiS1(goal: string, steps: number): string {
  return `${JSON.stringify({ goal, steps: Array.from({ length: steps }, (_, i) => ({ action_content: { action: "click", coordinate: [100 + i, 200] }, screenshot: "s.png" })) })}\n`;
}

async function seed(goals: { goal: string; steps: number; app?: string }[]): Promise<string[]> {
  const file = path.join(dir, `d-${Math.random().toString(36).slice(2)}.jsonl`);
  await writeFile(file, goals.map((g) => uiS1(g.goal, g.steps)).join(""));
  const r = await importFile({ file, format: "ui-s1", screenshotsDir: dir, db });
  if (!r.ok) throw new Error(`import failed: ${JSON.stringify(r)}`);
  const ids: string[] = [];
  for (const g of goals) {
    const t = await db.trajectory.findFirstOrThrow({ where: { instruction: g.goal } });
    if (g.app) await db.trajectory.update({ where: { id: t.id }, data: { app: g.app } });
    ids.push(t.id);
  }
  return ids;
}

async function assign(id: string, to: Actor) {
  await db.trajectory.update({ where: { id }, data: { assigneeId: to.id, status: "in_progress" } });
}

async function steps(id: string): Promise<StepView[]> {
  return (await getTrajectory(id, db)).steps;
}

function inputFrom(s: StepView, patch: Partial<Pick<StepView, "thought" | "clearAction" | "toolCall">> = {}) {
  return {
    thought: patch.thought ?? s.thought,
    clearAction: patch.clearAction ?? s.clearAction,
    toolCall: patch.toolCall ?? s.toolCall,
    box: s.box,
    verdict: s.verdict,
    version: s.version,
  };
}

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

beforeAll(async () => {
  const s = await freshStudio();
  db = s.db;
  dir = s.dir;
  await writeFile(path.join(dir, "s.png"), await blankPng(1080, 2400));
  fake = await startFakeModelServer();
  admin = await person("admin", "admin");
  ann = await person("annotator", "ann");
  reviewer = await person("reviewer", "rev");
  delete process.env.STUDIO_MODEL_URL;
  delete process.env.STUDIO_MODEL_NAME;
  delete process.env.STUDIO_MODEL_KEY;
});

afterAll(async () => {
  await fake?.close();
});

beforeEach(() => {
  fake.setMode({ mode: "ok" });
  fake.setResponder(defaultReply);
  fake.requests.length = 0;
});

describe("the model endpoint", () => {
  it("is off until configured: suggestions answer 503 with what to do", async () => {
    const [tid] = await seed([{ goal: "unconfigured", steps: 1 }]);
    await assign(tid!, ann);
    const e = await rejection(suggestForStep({ actor: ann, stepId: (await steps(tid!))[0]!.id, kind: "thought" }, db));
    expect(e.code).toBe("unavailable");
    expect(e.message).toMatch(/Model page|STUDIO_MODEL_URL/);
    expect((await getModelSettings({ actor: admin }, db)).isConfigured).toBe(false);
  });

  it("falls back to the environment, and saved settings win over it", async () => {
    process.env.STUDIO_MODEL_URL = "http://127.0.0.1:1/v1";
    process.env.STUDIO_MODEL_NAME = "env-model";
    try {
      expect(await getModelSettings({ actor: admin }, db)).toMatchObject({
        baseUrl: "http://127.0.0.1:1/v1",
        model: "env-model",
        sources: { baseUrl: "env", model: "env", concurrency: "default" },
        isConfigured: true,
      });
      await saveModelSettings(
        { actor: admin, baseUrl: fake.baseUrl, model: "qwen2.5-vl-7b", apiKey: KEY, concurrency: 2, timeoutMs: 5_000 },
        db,
      );
      expect(await getModelSettings({ actor: admin }, db)).toMatchObject({
        baseUrl: fake.baseUrl,
        model: "qwen2.5-vl-7b",
        hasKey: true,
        sources: { baseUrl: "saved", apiKey: "saved" },
      });
    } finally {
      delete process.env.STUDIO_MODEL_URL;
      delete process.env.STUDIO_MODEL_NAME;
    }
  });

  it("never shows the key: not in the view, not in the audit trail; only admins see or change settings", async () => {
    const view = await getModelSettings({ actor: admin }, db);
    expect(JSON.stringify(view)).not.toContain(KEY);
    const audit = await db.auditEvent.findMany({ where: { action: "model.settings" } });
    expect(audit.length).toBeGreaterThan(0);
    for (const a of audit) expect(`${a.beforeJson}${a.afterJson}`).not.toContain(KEY);
    expect(JSON.parse(audit.at(-1)!.afterJson!)).toMatchObject({ apiKey: "replaced", model: "qwen2.5-vl-7b" });
    expect((await rejection(getModelSettings({ actor: ann }, db))).code).toBe("forbidden");
    expect(
      (await rejection(saveModelSettings({ actor: reviewer, baseUrl: "", model: "", concurrency: null, timeoutMs: null }, db))).code,
    ).toBe("forbidden");
  });

  it("test connection sends one real request with the key and shows the reply", async () => {
    const r = await testModelConnection({ actor: admin }, db);
    expect(r).toMatchObject({ ok: true, model: "qwen2.5-vl-7b", reply: "pong", status: 200, reason: null });
    expect(r.usage!.promptTokens).toBeGreaterThan(0);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.requests[0]!.body.model).toBe("qwen2.5-vl-7b");
  });

  it("test connection reports a broken endpoint instead of throwing", async () => {
    fake.setMode({ mode: "fail" });
    const r = await testModelConnection({ actor: admin }, db);
    expect(r).toMatchObject({ ok: false, status: 500, reason: "status", reply: null });
    // Status, timing and a reason: nothing the endpoint wrote comes back.
    expect(JSON.stringify(r)).not.toContain("The model server broke");
    expect(JSON.stringify(r)).not.toContain(KEY);
  });
});

describe("suggestions in the editor", () => {
  let tid: string;
  beforeAll(async () => {
    [tid] = (await seed([{ goal: "Turn on Wi-Fi", steps: 3 }])) as [string];
    await assign(tid, ann);
  });

  it("Suggest thought sends instruction, history, screenshot and the corrected tool call; accepting and saving records provenance, audit and export", async () => {
    const [s0, s1] = await steps(tid);
    // The person corrects step 2's tool call first: the request must carry the corrected one.
    const corrected = { action: "click" as const, coordinate: [777, 888] as [number, number] };
    await saveStepAnnotation({ actor: ann, stepId: s1!.id, ...inputFrom(s1!, { toolCall: corrected, clearAction: "Tap Wi-Fi." }) }, db);
    await saveStepAnnotation({ actor: ann, stepId: s0!.id, ...inputFrom(s0!, { clearAction: "Open the settings." }) }, db);

    const sug = await suggestForStep({ actor: ann, stepId: s1!.id, kind: "thought" }, db);
    expect(sug).toMatchObject({
      kind: "thought",
      prompt: "suggest-thought.v2",
      model: "qwen2.5-vl-7b",
      output: { state: "The settings page is open.", nextAction: "Tap the Wi-Fi entry.", purpose: "To turn Wi-Fi on." },
    });
    const sent = fake.requests.at(-1)!.body;
    const text = requestText(sent);
    expect(text).toContain("Task:\n⟦data:task⟧\nTurn on Wi-Fi\n⟦/data⟧");
    expect(text).toContain("⟦data:history⟧\nStep 1: Open the settings.");
    expect(text).toContain('"coordinate": [777, 888]');
    expect(text).toContain("This is step 2 of 3");
    const images = requestImages(sent);
    expect(images).toHaveLength(1);
    expect(images[0]).toMatch(/^data:image\/png;base64,/);
    expect(Buffer.from(images[0]!.split(",")[1]!, "base64").equals(readFileSync(path.join(dir, "s.png")))).toBe(true);
    // Nothing in the step changed by asking.
    expect((await steps(tid))[1]!.thought).toEqual(s1!.thought);

    await acceptSuggestion({ actor: ann, id: sug.id }, db);
    const now = (await steps(tid))[1]!;
    const saved = await saveStepAnnotation(
      { actor: ann, stepId: now.id, ...inputFrom(now, { thought: sug.kind === "thought" ? sug.output : now.thought }) },
      db,
    );
    for (const f of ["thought.state", "thought.nextAction", "thought.purpose", "thought.text"] as const) {
      expect(saved.provenance[f]).toMatchObject({
        source: "suggested-accepted",
        suggestionId: sug.id,
        prompt: "suggest-thought.v2",
        model: "qwen2.5-vl-7b",
      });
    }
    expect(saved.provenance.clearAction).toMatchObject({ source: "typed" });

    // Editing the accepted text is normal typing: that field becomes suggested-edited, the others stay.
    const edited = await saveStepAnnotation(
      { actor: ann, stepId: saved.id, ...inputFrom(saved, { thought: { ...saved.thought, purpose: "So Wi-Fi is on." } }) },
      db,
    );
    expect(edited.provenance["thought.purpose"]).toMatchObject({ source: "suggested-edited", suggestionId: sug.id });
    expect(edited.provenance["thought.state"]).toMatchObject({ source: "suggested-accepted" });

    const audit = await db.auditEvent.findMany({ where: { entityId: s1!.id }, orderBy: { at: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["step.annotate", "step.suggest", "step.suggest.accept", "step.annotate", "step.annotate"]);
    expect(JSON.parse(audit[3]!.afterJson!).provenance["thought.state"]).toMatchObject({ source: "suggested-accepted" });
    expect(JSON.parse(audit[4]!.afterJson!).provenance).toEqual({
      "thought.purpose": expect.objectContaining({ source: "suggested-edited" }),
    });

    const out = path.join(dir, "export-suggest");
    await exportDataset({ outDir: out, status: "all", db });
    const line = readFileSync(path.join(out, "trajectories.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((l) => l.id === tid);
    expect(line.steps[1].provenance["thought.purpose"]).toMatchObject({
      source: "suggested-edited",
      prompt: "suggest-thought.v2",
      model: "qwen2.5-vl-7b",
    });
    expect(line.steps[1].provenance["thought.state"]).toMatchObject({ source: "suggested-accepted" });
    expect(line.steps[2].provenance).toEqual({});
  });

  it("Suggest action asks with the cookbook mobile_use prompt and converts the answer to original pixels", async () => {
    const s2 = (await steps(tid))[2]!;
    const sug = await suggestForStep({ actor: ann, stepId: s2.id, kind: "action" }, db);
    const sent = fake.requests.at(-1)!.body;
    expect(typeof sent.messages[0]!.content === "string" && sent.messages[0]!.content).toContain('"name_for_human": "mobile_use"');
    expect(requestText(sent)).toContain("The user query:  Turn on Wi-Fi");
    const expected = toOriginalPoint([540, 600], framePair({ width: 1080, height: 2400 }, QWEN_MAX_PIXELS));
    expect(sug).toMatchObject({
      kind: "action",
      prompt: "suggest-action.v1",
      output: { toolCall: { action: "click", coordinate: expected }, clearAction: "Tap the Wi-Fi entry." },
    });
    expect(expected[0]).not.toBe(540);
  });

  it("a slow endpoint times out with a clear 504 and a broken one is a 502; the step and the person's work stay as they were", async () => {
    await saveModelSettings({ actor: admin, baseUrl: fake.baseUrl, model: "qwen2.5-vl-7b", concurrency: 2, timeoutMs: 1_000 }, db);
    const before = (await steps(tid))[0]!;
    const count = await db.stepSuggestion.count();
    fake.setMode({ mode: "slow", delayMs: 5_000 });
    const started = Date.now();
    const slow = await rejection(suggestForStep({ actor: ann, stepId: before.id, kind: "thought" }, db));
    expect(slow.code).toBe("gateway_timeout");
    expect(slow.message).toMatch(/did not answer within 1 s/);
    expect(Date.now() - started).toBeLessThan(4_000);
    fake.setMode({ mode: "fail" });
    const broken = await rejection(suggestForStep({ actor: ann, stepId: before.id, kind: "thought" }, db));
    expect(broken.code).toBe("bad_gateway");
    expect(broken.message).toBe("The model endpoint answered HTTP 500. The endpoint said: “The model server broke (fake 500).”");
    // An answer that is not the JSON asked for is refused too, naming the problem.
    fake.setMode({ mode: "ok" });
    fake.setResponder(() => "I think you should tap Wi-Fi.");
    expect((await rejection(suggestForStep({ actor: ann, stepId: before.id, kind: "thought" }, db))).message).toMatch(/no JSON object/);
    expect(await db.stepSuggestion.count()).toBe(count);
    const after = (await steps(tid))[0]!;
    expect(after).toEqual(before);
    // And saving still works.
    expect(
      (await saveStepAnnotation({ actor: ann, stepId: after.id, ...inputFrom(after, { clearAction: "Still here." }) }, db)).clearAction,
    ).toBe("Still here.");
    await saveModelSettings({ actor: admin, baseUrl: fake.baseUrl, model: "qwen2.5-vl-7b", concurrency: 2, timeoutMs: 5_000 }, db);
  });

  it("only whoever may edit the step may ask or accept", async () => {
    const s0 = (await steps(tid))[0]!;
    const other = await person("annotator", "other");
    expect((await rejection(suggestForStep({ actor: other, stepId: s0.id, kind: "thought" }, db))).code).toBe("forbidden");
    expect((await rejection(suggestForStep({ actor: reviewer, stepId: s0.id, kind: "thought" }, db))).code).toBe("forbidden");
    const sug = await suggestForStep({ actor: ann, stepId: s0.id, kind: "thought" }, db);
    expect((await rejection(acceptSuggestion({ actor: other, id: sug.id }, db))).code).toBe("forbidden");
  });
});

async function waitUntil(check: () => boolean | Promise<boolean>, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("batch pre-annotation", () => {
  it("fills only untouched steps, never overwrites a person's edit (even one landing mid-job), and counts tokens", async () => {
    const [a, b] = (await seed([
      { goal: "prefill A", steps: 3 },
      { goal: "prefill B", steps: 2 },
    ])) as [string, string];
    await assign(a, ann);
    const [a0, a1] = await steps(a);
    await saveStepAnnotation(
      {
        actor: ann,
        stepId: a1!.id,
        ...inputFrom(a1!, { thought: { state: "Mine.", nextAction: "My next.", purpose: "My why.", text: "Mine. My next. My why." } }),
      },
      db,
    );
    await saveModelSettings({ actor: admin, baseUrl: fake.baseUrl, model: "qwen2.5-vl-7b", concurrency: 1, timeoutMs: 5_000 }, db);
    // The model is slow for the first step: the person saves it while the model is answering.
    fake.setMode({ mode: "slow", delayMs: 600 });
    const job = await startModelJob({ actor: admin, kind: "prefill", trajectoryIds: [a, b] }, db);
    expect(job).toMatchObject({ kind: "prefill", state: "running", progress: { done: 0, total: 5 }, prompt: "suggest-thought.v2" });
    await waitUntil(() => fake.requests.length >= 1);
    await saveStepAnnotation({ actor: ann, stepId: a0!.id, ...inputFrom(a0!, { clearAction: "Person was here." }) }, db);
    fake.setMode({ mode: "ok" });
    await waitForModelJob(job.id);
    const done = await getModelJob({ actor: admin, id: job.id }, db);
    expect(done).toMatchObject({ state: "succeeded", progress: { done: 5, total: 5 }, skipped: 2, failures: 0 });
    expect(done.tokens.prompt).toBeGreaterThan(0);
    expect(done.tokens.completion).toBeGreaterThan(0);
    const [x0, x1, x2] = await steps(a);
    expect(x0!.clearAction).toBe("Person was here.");
    expect(x0!.thought).toEqual(a0!.thought);
    expect(x1!.thought.state).toBe("Mine.");
    expect(x2!.thought).toMatchObject({
      state: "The settings page is open.",
      nextAction: "Tap the Wi-Fi entry.",
      purpose: "To turn Wi-Fi on.",
    });
    expect(x2!.provenance["thought.state"]).toMatchObject({ source: "prefilled", prompt: "suggest-thought.v2", model: "qwen2.5-vl-7b" });
    for (const s of await steps(b)) expect(s.provenance["thought.text"]).toMatchObject({ source: "prefilled" });
    expect(await db.auditEvent.count({ where: { action: "step.prefill" } })).toBe(3);
    // A person editing a prefilled field makes it suggested-edited.
    await assign(b, ann);
    const b0 = (await steps(b))[0]!;
    const e = await saveStepAnnotation(
      { actor: ann, stepId: b0.id, ...inputFrom(b0, { thought: { ...b0.thought, state: "Changed." } }) },
      db,
    );
    expect(e.provenance["thought.state"]).toMatchObject({ source: "suggested-edited" });
    expect(e.provenance["thought.purpose"]).toMatchObject({ source: "prefilled" });
  });

  it("pauses, resumes and cancels", async () => {
    const [c] = (await seed([{ goal: "prefill C", steps: 4 }])) as [string];
    fake.setMode({ mode: "slow", delayMs: 300 });
    const job = await startModelJob({ actor: admin, kind: "prefill", trajectoryIds: [c] }, db);
    await waitUntil(() => fake.requests.length >= 1);
    expect((await commandModelJob({ actor: admin, id: job.id, command: "pause" }, db)).state).toBe("paused");
    await waitForModelJob(job.id);
    const paused = await getModelJob({ actor: admin, id: job.id }, db);
    expect(paused.progress.done).toBeLessThan(4);
    const asked = fake.requests.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(fake.requests.length).toBe(asked);
    expect((await rejection(commandModelJob({ actor: admin, id: job.id, command: "pause" }, db))).code).toBe("conflict");
    fake.setMode({ mode: "ok" });
    await commandModelJob({ actor: admin, id: job.id, command: "resume" }, db);
    await waitForModelJob(job.id);
    expect(await getModelJob({ actor: admin, id: job.id }, db)).toMatchObject({ state: "succeeded", progress: { done: 4, total: 4 } });
    expect((await rejection(commandModelJob({ actor: admin, id: job.id, command: "cancel" }, db))).code).toBe("conflict");

    const [d] = (await seed([{ goal: "prefill D", steps: 3 }])) as [string];
    fake.setMode({ mode: "slow", delayMs: 300 });
    const j2 = await startModelJob({ actor: admin, kind: "prefill", trajectoryIds: [d] }, db);
    await commandModelJob({ actor: admin, id: j2.id, command: "cancel" }, db);
    await waitForModelJob(j2.id);
    const cancelled = await getModelJob({ actor: admin, id: j2.id }, db);
    expect(cancelled.state).toBe("cancelled");
    expect(cancelled.progress.done).toBeLessThan(3);
    expect((await rejection(startModelJob({ actor: ann, kind: "prefill", trajectoryIds: [d] }, db))).code).toBe("forbidden");
    expect((await rejection(startModelJob({ actor: admin, kind: "prefill", trajectoryIds: ["nope"] }, db))).message).toMatch(
      /no trajectory nope/,
    );
  });

  it("starts over the list's filters: only matching trajectories that still have an untouched step", async () => {
    const [m1, m2, m3] = (await seed([
      { goal: "matchme one", steps: 2, app: "Files" },
      { goal: "matchme two", steps: 1, app: "Files" },
      { goal: "matchme three", steps: 1, app: "Photos" },
    ])) as [string, string, string];
    await assign(m2, ann);
    const only = (await steps(m2))[0]!;
    await saveStepAnnotation({ actor: ann, stepId: only.id, ...inputFrom(only, { clearAction: "Done by hand." }) }, db);
    fake.setMode({ mode: "ok" });
    const job = await startModelJob({ actor: admin, kind: "prefill", matching: { q: "matchme", app: "Files" } }, db);
    expect(job).toMatchObject({ trajectories: 1, progress: { total: 2 } });
    await waitForModelJob(job.id);
    for (const s of await steps(m1)) expect(s.provenance["thought.state"]).toMatchObject({ source: "prefilled" });
    expect((await steps(m3))[0]!.provenance).toEqual({});
    expect(
      (await rejection(startModelJob({ actor: admin, kind: "prefill", matching: { q: "no such text anywhere" } }, db))).message,
    ).toMatch(/No trajectory matching these filters has a step nobody has touched/);
    await expect(startModelJob({ actor: admin, kind: "prefill", trajectoryIds: [m3], matching: { q: "matchme" } }, db)).rejects.toThrow(
      /either trajectoryIds or matching filters/,
    );
    await expect(startModelJob({ actor: admin, kind: "judge", matching: { q: "matchme" } }, db)).rejects.toThrow(/for pre-annotation/);
  });

  it("survives its process being killed: the next studio process takes it over and finishes it, asking for each step once", async () => {
    const [e] = (await seed([{ goal: "prefill E", steps: 4 }])) as [string];
    fake.setMode({ mode: "slow", delayMs: 60_000 });
    const jobId = await startAndKillModelJob(e, { ...process.env }, () => fake.requests.length >= 1);
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
    for (const s of await steps(e)) expect(s.provenance["thought.state"]).toMatchObject({ source: "prefilled" });
    expect(await db.stepSuggestion.count({ where: { jobId } })).toBe(4);
    expect(await db.auditEvent.count({ where: { action: "model.job.takeover", entityId: jobId } })).toBe(1);
  });
});

describe("the trajectory judge against people", () => {
  it("matches a seeded database with known counts: confusion matrix, kappa, per app, disagreements", async () => {
    // [app, human outcome, judge says completed]
    const plan: [string, "success" | "failure", boolean][] = [
      ["Mail", "success", true],
      ["Mail", "success", true],
      ["Mail", "success", false],
      ["Mail", "failure", false],
      ["Mail", "failure", false],
      ["Maps", "success", false],
      ["Maps", "failure", true],
      ["Maps", "failure", false],
    ];
    const ids = await seed(plan.map(([app], i) => ({ goal: `judge task ${i} [${plan[i]![2] ? "done" : "not done"}]`, steps: 2, app })));
    for (const [i, id] of ids.entries()) await db.trajectory.update({ where: { id }, data: { status: "approved", outcome: plan[i]![1] } });
    // One reviewed trajectory that stays unjudged, and one not reviewed (never counted).
    const [late, draft] = await seed([
      { goal: "judge late", steps: 1, app: "Mail" },
      { goal: "judge draft", steps: 1, app: "Mail" },
    ]);
    fake.setResponder((req) => {
      const done = /\[done\]/.test(requestText(req));
      return JSON.stringify({ completed: done, consistent: true, reason: done ? "Looks complete." : "Stopped early." });
    });
    const job = await startModelJob({ actor: admin, kind: "judge", trajectoryIds: ids }, db);
    await waitForModelJob(job.id);
    expect(await getModelJob({ actor: admin, id: job.id }, db)).toMatchObject({
      state: "succeeded",
      progress: { done: 8, total: 8 },
      prompt: "judge.v2",
    });
    await db.trajectory.update({ where: { id: late! }, data: { status: "approved", outcome: "success" } });
    await db.trajectory.update({ where: { id: draft! }, data: { outcome: "success" } });
    // The judge saw each trajectory's screenshots.
    expect(requestImages(fake.requests.at(-1)!.body)).toHaveLength(2);

    const a = await judgeAgreement({ actor: reviewer }, db);
    expect(a.overall).toEqual({
      pairs: 8,
      agree: 5,
      confusion: { success: { success: 2, failure: 2 }, failure: { success: 1, failure: 3 } },
      kappa: 0.25,
    });
    expect(a.byApp).toEqual([
      {
        app: "Mail",
        pairs: 5,
        agree: 4,
        confusion: { success: { success: 2, failure: 1 }, failure: { success: 0, failure: 2 } },
        kappa: expect.closeTo(0.6154, 3),
      },
      {
        app: "Maps",
        pairs: 3,
        agree: 1,
        confusion: { success: { success: 0, failure: 1 }, failure: { success: 1, failure: 1 } },
        kappa: expect.closeTo(-0.5, 6),
      },
    ]);
    expect(a.unjudged).toBe(1);
    expect(a.disagreements.map((d) => [d.app, d.human, d.judge]).sort()).toEqual([
      ["Mail", "success", "failure"],
      ["Maps", "failure", "success"],
      ["Maps", "success", "failure"],
    ]);
    expect(a.disagreements.find((d) => d.human === "failure")!.reason).toBe("Looks complete.");
    expect((await rejection(judgeAgreement({ actor: ann }, db))).code).toBe("forbidden");

    // The export carries the verdict beside the human outcome.
    const out = path.join(dir, "export-judge");
    await exportDataset({ outDir: out, status: "approved", db });
    const rows = readFileSync(path.join(out, "trajectories.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const first = rows.find((r) => r.id === ids[2]);
    expect(first).toMatchObject({
      outcome: "success",
      judge: { outcome: "failure", isConsistent: true, reason: "Stopped early.", prompt: "judge.v2", model: "qwen2.5-vl-7b" },
    });
    expect(rows.find((r) => r.id === late)!.judge).toBeUndefined();
  });
});
