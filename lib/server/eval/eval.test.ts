// Evaluation runs (issue 25 items 2-6) against a real database and a real HTTP model server that answers
// from a script: right, wrong type, near miss, text mismatch, unparseable. The run's figures must equal
// `bridge score --rule ui-s1` on the predictions file the run writes, over an export of the same
// trajectories, SOP included; the failure kinds, the confusion matrix, pause/resume and the comparison of
// two runs are checked against what the script makes the model do.
import { readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS } from "@/lib/domain/limits";
import { framePair, QWEN_MAX_PIXELS, toResizedPoint, type Point } from "@/lib/domain/geometry";
import type { Actor } from "@/lib/domain/permissions";
import { runBridge } from "@/lib/bridge/cli";
import { runEval } from "@/lib/cli/eval";
import { CLI_ACTOR } from "../people/audit";
import { captureIo } from "@/lib/bridge/test-fixtures";
import type { Db } from "../db";
import { AppError } from "../errors/errors";
import {
  commandEvalRun,
  compareEvalRuns,
  evalFailures,
  getEvalRun,
  listEvalEndpoints,
  predictionsPath,
  saveEvalEndpoint,
  sendFailuresToAnnotation,
  startEvalRun,
  testEvalEndpoint,
  waitForEvalRun,
} from "./index";
import { exportEvalSet } from "../export/release";
import { importFile } from "../import";
import { freezeEvalSet } from "../export/snapshots";
import { acceptSuggestion, waitingSuggestion } from "../model/suggest";
import { listMyTasks } from "../annotate/tasks";
import { blankPng, freshStudio } from "../testing/fixtures";
import { requestText, startFakeModelServer, type ChatRequest, type FakeModelServer } from "../testing/fake-model-server";

let db: Db;
let dir: string;
let fake: FakeModelServer;
let admin: Actor;

const SIZE = { width: 1080, height: 2400 };
const frames = framePair(SIZE, QWEN_MAX_PIXELS);
/** A ground-truth point (original pixels) as the model writes it (the resized frame). */
const resized = (p: Point): Point => toResizedPoint(p, frames).map(Math.round) as Point;
const uiS1Answer = (action: Record<string, unknown>) => `<think>Looking at the screen.</think><action>${JSON.stringify(action)}</action>`;

/** Three trajectories: each step's ground truth, and what the scripted model answers to it. */
const SCRIPT = [
  {
    goal: "Set an alarm for 7",
    app: "Clock",
    steps: [
      { gt: { action: "click", coordinate: [540, 600] }, answer: uiS1Answer({ action: "click", coordinate: resized([540, 600]) }) },
      { gt: { action: "click", coordinate: [300, 1200] }, answer: uiS1Answer({ action: "click", coordinate: resized([302, 1198]) }) },
      // Text mismatch: the right type, another text.
      { gt: { action: "type", text: "7:00" }, answer: uiS1Answer({ action: "type", text: "8:00" }) },
    ],
  },
  {
    goal: "Archive the first mail",
    app: "Mail",
    steps: [
      // Wrong type: a back button where a click was wanted.
      { gt: { action: "click", coordinate: [200, 400] }, answer: uiS1Answer({ action: "system_button", button: "Back" }) },
      { gt: { action: "click", coordinate: [900, 300] }, answer: uiS1Answer({ action: "click", coordinate: resized([900, 300]) }) },
    ],
  },
  {
    goal: "Reply to Ann",
    app: "Mail",
    steps: [
      // Near miss: 0.05 of the width away (UI-S1 accepts 0.04 without a box).
      { gt: { action: "click", coordinate: [500, 1000] }, answer: uiS1Answer({ action: "click", coordinate: resized([554, 1000]) }) },
      { gt: { action: "click", coordinate: [500, 1800] }, answer: "I am not sure what to do here." },
    ],
  },
];

/** The scripted answer: the trajectory by its instruction, the step by the history the prompt carries. */
function scripted(req: ChatRequest): string {
  const text = requestText(req);
  const t = SCRIPT.find((s) => text.includes(`The user query:  ${s.goal}\n`));
  if (!t) return "pong";
  const step = (text.match(/Step \d+: /g) ?? []).length;
  return t.steps[step]?.answer ?? "pong";
}

async function expectAppError(p: Promise<unknown>, code: string, words: RegExp) {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  expect((e as AppError).code).toBe(code);
  expect((e as AppError).message).toMatch(words);
}

beforeAll(async () => {
  ({ db, dir } = await freshStudio());
  fake = await startFakeModelServer();
  fake.setResponder(scripted);
  await writeFile(path.join(dir, "s.png"), await blankPng(SIZE.width, SIZE.height));
  const u = await db.user.create({ data: { id: "u-admin", email: "admin@test.local", name: "Admin", role: "admin" } });
  admin = { id: u.id, email: u.email, name: u.name, role: "admin" };
  const file = path.join(dir, "seed.jsonl");
  const line = (t: (typeof SCRIPT)[number]) =>
    JSON.stringify({
      goal: t.goal,
      app: t.app,
      steps: t.steps.map((s, i) => ({
        action_content: s.gt,
        thought: `Step ${i + 1}.`,
        action_description: `Do ${i + 1}`,
        screenshot: "s.png",
      })),
    });
  await writeFile(file, `${SCRIPT.map(line).join("\n")}\n`);
  const r = await importFile({ file, format: "ui-s1", screenshotsDir: dir, db });
  expect(r.ok).toBe(true);
  // Reviewed work is what a set freezes; the review itself is not what this suite is about.
  await db.trajectory.updateMany({ data: { status: "approved" } });
  await freezeEvalSet({ caller: admin, name: "smoke" }, db);
});

afterAll(async () => {
  await fake?.close();
});

describe("evaluation endpoints", () => {
  it("are saved by name with their frame; a bad URL or a missing one is refused and nothing is saved", async () => {
    await expect(saveEvalEndpoint({ caller: admin, name: "ckpt-1", baseUrl: "not a url", model: "m" }, db)).rejects.toThrow(/baseUrl/);
    const saved = await saveEvalEndpoint({ caller: admin, name: "ckpt-1", baseUrl: fake.baseUrl, model: "ckpt-1", concurrency: 2 }, db);
    expect(saved).toMatchObject({ name: "ckpt-1", coords: "qwen25-abs", hasKey: false, concurrency: 2 });
    await saveEvalEndpoint({ caller: admin, name: "ckpt-2", baseUrl: fake.baseUrl, model: "ckpt-2", apiKey: "sk-eval-secret" }, db);
    const list = await listEvalEndpoints({ caller: admin }, db);
    expect(list.map((e) => [e.name, e.hasKey])).toEqual([
      ["ckpt-1", false],
      ["ckpt-2", true],
    ]);
    expect(JSON.stringify(await db.auditEvent.findMany())).not.toContain("sk-eval-secret");
    const annotator = { ...admin, id: "u-ann", role: "annotator" as const };
    await expectAppError(listEvalEndpoints({ caller: annotator }, db), "forbidden", /./);
    await expectAppError(startEvalRun({ caller: admin, set: "smoke", endpoint: "nope" }, db), "not_found", /nope/);
    await expectAppError(startEvalRun({ caller: admin, set: "nope", endpoint: "ckpt-1" }, db), "not_found", /nope/);
    expect(await db.evalRun.count()).toBe(0);
  });

  it("test connection: one request to the URL as typed, with the key saved under the name for that URL, and says why not", async () => {
    fake.requests.length = 0;
    const ok = await testEvalEndpoint({ caller: admin, name: "ckpt-2", baseUrl: fake.baseUrl, model: "ckpt-2" }, db);
    expect(ok).toMatchObject({ ok: true, model: "ckpt-2", status: 200, reason: null });
    expect(fake.requests.map((r) => r.authorization)).toEqual(["Bearer sk-eval-secret"]);
    // Another URL never gets the saved key; nothing listens on a port this test just closed.
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const refused = await testEvalEndpoint({ caller: admin, name: "ckpt-2", baseUrl: `http://127.0.0.1:${port}/v1`, model: "ckpt-2" }, db);
    expect(refused).toMatchObject({ ok: false, reply: null, reason: "refused" });
    const annotator = { ...admin, id: "u-ann", role: "annotator" as const };
    await expectAppError(testEvalEndpoint({ caller: annotator, baseUrl: fake.baseUrl, model: "m" }, db), "forbidden", /./);
    expect(fake.requests).toHaveLength(1);
  });
});

describe("an evaluation run", () => {
  let runId: string;

  it("asks every step teacher-forced and records the answers with token counts", async () => {
    fake.requests.length = 0;
    const started = await startEvalRun({ caller: admin, set: "smoke", endpoint: "ckpt-1" }, db);
    runId = started.id;
    expect(started).toMatchObject({ state: "running", rule: "ui-s1", set: { name: "smoke", version: 1 }, progress: { total: 7 } });
    await waitForEvalRun(runId);
    const run = await getEvalRun({ caller: admin, id: runId }, db);
    expect(run.error).toBeNull();
    expect(run.state).toBe("succeeded");
    expect(run.progress).toEqual({ done: 7, total: 7, failedCalls: 0 });
    expect(run.tokens.prompt).toBeGreaterThan(0);
    expect(fake.requests).toHaveLength(7);
    // Teacher forcing: the third step of the alarm sees the two ground-truth clicks in the resized frame, and its screenshot.
    const third = fake.requests.map((r) => requestText(r.body)).find((t) => t.includes("Set an alarm") && t.includes("Step 2: "))!;
    const [x1, y1] = resized([540, 600]);
    expect(third).toContain(`Step 1: {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [${x1}, ${y1}]}}; `);
    expect(third).toContain(`The screen's resolution is ${frames.resized.width}x${frames.resized.height}.`);
  });

  it("has the figures the script makes: type 5/7, step 3/7, SOP 0% with progress 2/9, each failure named", async () => {
    const { figures } = await getEvalRun({ caller: admin, id: runId }, db);
    expect(figures).not.toBeNull();
    expect(figures!.accuracy).toEqual({
      steps: 7,
      typeAccuracy: 5 / 7,
      stepAccuracy: 3 / 7,
      groundingSteps: 6,
      groundingAccuracy: 3 / 6,
    });
    expect(figures!.sop).toEqual({ definition: "eval_qwenvl", trajectories: 3, successRate: 0, progress: 2 / 3 / 3, incomplete: 0 });
    expect(figures!.failures).toEqual({ "wrong-type": 1, "outside-box": 1, "text-mismatch": 1, "wrong-argument": 0, unparseable: 1 });
    expect(figures!.confusion).toEqual({ click: { click: 4, system_button: 1, unparseable: 1 }, type: { type: 1 } });
    expect(figures!.perApp.Clock).toMatchObject({ steps: 3, stepAccuracy: 2 / 3, sop: { trajectories: 1, progress: 2 / 3 } });
    expect(figures!.perApp.Mail).toMatchObject({ steps: 4, stepAccuracy: 1 / 4, sop: { trajectories: 2, progress: 0 } });
  });

  it("equals bridge score --rule ui-s1 on the predictions file it wrote, SOP included", async () => {
    const { figures } = await getEvalRun({ caller: admin, id: runId }, db);
    const out = path.join(await mkdtemp(path.join(os.tmpdir(), "eval-export-")), "export");
    await exportEvalSet({ caller: admin, name: "smoke", outDir: out }, db);
    const predictions = predictionsPath(runId);
    expect(readFileSync(predictions, "utf8").trim().split("\n")).toHaveLength(7);
    const io = captureIo();
    const code = await runBridge(["score", out, "--predictions", predictions, "--rule", "ui-s1", "--json"], io);
    expect(code, io.err()).toBe(0);
    const summary = JSON.parse(io.out()) as Record<string, unknown>;
    expect(figures!.accuracy).toEqual(summary.accuracy);
    expect(figures!.perAction).toEqual(summary.perAction);
    expect(figures!.sop).toEqual(summary.sop);
    expect(figures!.rewards).toEqual(summary.rewards);
    expect(figures!.harmful).toEqual(summary.harmful);
    expect([figures!.scoredSteps, figures!.unpredictedSteps]).toEqual([summary.scoredSteps, summary.unpredictedSteps]);
  });

  it("lists each failed step with both actions in original pixels and the raw answer, filtered by kind and app", async () => {
    const page = await evalFailures({ caller: admin, id: runId }, db);
    const all = page.failures;
    expect(page.total).toBe(4);
    expect(all.map((f) => [f.app, f.step, f.failure])).toEqual([
      ["Clock", 2, "text-mismatch"],
      ["Mail", 0, "wrong-type"],
      ["Mail", 0, "outside-box"],
      ["Mail", 1, "unparseable"],
    ]);
    const near = (await evalFailures({ caller: admin, id: runId, failure: "outside-box" }, db)).failures[0]!;
    expect(near.groundTruth.toolCall).toEqual({ action: "click", coordinate: [500, 1000] });
    const [px] = (near.predicted as { coordinate: Point }).coordinate;
    expect(Math.abs(px - 554)).toBeLessThan(2);
    expect((await evalFailures({ caller: admin, id: runId, app: "Clock" }, db)).failures.map((f) => f.response)).toEqual([
      SCRIPT[0]!.steps[2]!.answer,
    ]);
  });

  it("pages the failed steps and counts, per filter option, what it would show with the other filters kept", async () => {
    const second = await evalFailures({ caller: admin, id: runId, page: 2, perPage: 3 }, db);
    expect(second.failures.map((f) => [f.app, f.step, f.failure])).toEqual([["Mail", 1, "unparseable"]]);
    expect([second.total, second.page, second.perPage]).toEqual([4, 2, 3]);
    expect(second.counts).toEqual({
      app: { Clock: 1, Mail: 3 },
      action: { click: 3, type: 1 },
      failure: { "text-mismatch": 1, "wrong-type": 1, "outside-box": 1, unparseable: 1 },
    });
    // In Mail only: the app counts keep every app (the app filter is the one they choose), the others narrow.
    const mail = await evalFailures({ caller: admin, id: runId, app: "Mail" }, db);
    expect(mail.total).toBe(3);
    expect(mail.counts.app).toEqual({ Clock: 1, Mail: 3 });
    expect(mail.counts.action).toEqual({ click: 3 });
    expect(mail.counts.failure).toEqual({ "wrong-type": 1, "outside-box": 1, unparseable: 1 });
  });

  it("compares two runs on the same set: each figure with its difference, regressions first", async () => {
    // The second checkpoint gets the alarm's second step wrong and the reply's first step right.
    fake.setResponder((req) => {
      const text = requestText(req);
      if (text.includes("Set an alarm") && (text.match(/Step \d+: /g) ?? []).length === 1) return uiS1Answer({ action: "wait" });
      if (text.includes("Reply to Ann") && !text.includes("Step 1: "))
        return uiS1Answer({ action: "click", coordinate: resized([500, 1000]) });
      return scripted(req);
    });
    const b = await startEvalRun({ caller: admin, set: "smoke", endpoint: "ckpt-2" }, db);
    await waitForEvalRun(b.id);
    fake.setResponder(scripted);
    const cmp = await compareEvalRuns({ caller: admin, a: runId, b: b.id }, db);
    // Asked the other way round, the older run is still `a`: the difference reads newer - older.
    const swapped = await compareEvalRuns({ caller: admin, a: b.id, b: runId }, db);
    expect([swapped.a.id, swapped.b.id]).toEqual([runId, b.id]);
    expect(swapped.figures).toEqual(cmp.figures);
    expect(cmp.steps.map((s) => [s.app, s.step, s.regression])).toEqual([
      ["Clock", 1, true],
      ["Mail", 0, false],
    ]);
    const step = cmp.figures.find((f) => f.figure === "stepAccuracy")!;
    expect(step).toEqual({
      figure: "stepAccuracy",
      metric: "stepAccuracy",
      scope: "all",
      of: null,
      a: 3 / 7,
      b: 3 / 7,
      delta: 0,
      points: 0,
    });
    // The worst change first: the alarm's app lost a step.
    expect(cmp.figures[0]).toMatchObject({
      figure: "stepAccuracy@Clock",
      metric: "stepAccuracy",
      scope: "app",
      of: "Clock",
      a: 2 / 3,
      b: 1 / 3,
    });
  });

  it("pauses, resumes with the steps not yet answered, and cancels", async () => {
    fake.setMode({ mode: "slow", delayMs: 300 });
    const r = await startEvalRun({ caller: admin, set: "smoke", endpoint: "ckpt-1" }, db);
    const paused = await commandEvalRun({ caller: admin, id: r.id, command: "pause" }, db);
    expect(paused.state).toBe("paused");
    await waitForEvalRun(r.id);
    const answered = await db.evalStep.count({ where: { runId: r.id } });
    expect(answered).toBeLessThan(7);
    fake.setMode({ mode: "ok" });
    fake.requests.length = 0;
    await commandEvalRun({ caller: admin, id: r.id, command: "resume" }, db);
    await waitForEvalRun(r.id);
    const done = await getEvalRun({ caller: admin, id: r.id }, db);
    expect(done.state).toBe("succeeded");
    expect(fake.requests).toHaveLength(7 - answered);
    expect(done.figures!.accuracy).toEqual((await getEvalRun({ caller: admin, id: runId }, db)).figures!.accuracy);
    await expectAppError(commandEvalRun({ caller: admin, id: r.id, command: "cancel" }, db), "conflict", /succeeded/);
  });

  it("counts the model calls that failed, so the run page can say so: the endpoint down stops the run after five", async () => {
    fake.setMode({ mode: "fail" });
    try {
      await saveEvalEndpoint({ caller: admin, name: "down", baseUrl: fake.baseUrl, model: "down", concurrency: 1 }, db);
      const r = await startEvalRun({ caller: admin, set: "smoke", endpoint: "down" }, db);
      expect(r.progress).toEqual({ done: 0, total: 7, failedCalls: 0 });
      await waitForEvalRun(r.id);
      const stopped = await getEvalRun({ caller: admin, id: r.id }, db);
      expect(stopped.state).toBe("failed");
      expect(stopped.progress).toEqual({ done: 0, total: 7, failedCalls: 5 });
    } finally {
      fake.setMode({ mode: "ok" });
    }
  });
});

describe("send to annotation", () => {
  it("makes the trajectories whose first failure is a click tasks of the chosen annotator, with the answers as suggestions", async () => {
    const run = (
      await db.evalRun.findFirstOrThrow({ where: { endpointName: "ckpt-1", figuresJson: { not: null } }, orderBy: { startedAt: "asc" } })
    ).id;
    const u = await db.user.create({ data: { id: "u-ann", email: "ann@test.local", name: "Ann", role: "annotator" } });
    const ann: Actor = { id: u.id, email: u.email, name: u.name, role: "annotator" };
    await expectAppError(
      sendFailuresToAnnotation({ caller: admin, id: run, assignee: "ann@test.local", action: "swipe" }, db),
      "unprocessable",
      /Nothing to send/,
    );
    await expectAppError(sendFailuresToAnnotation({ caller: ann, id: run, assignee: "ann@test.local" }, db), "forbidden", /./);
    expect(await db.trajectory.count({ where: { assigneeId: u.id } })).toBe(0);

    const sent = await sendFailuresToAnnotation({ caller: admin, id: run, assignee: "ann@test.local", action: "click" }, db);
    expect(sent).toEqual({ trajectories: 2, suggestions: 2, skipped: 0 });
    const mine = await listMyTasks({ actor: ann }, db);
    expect(mine.tasks.map((t) => t.instruction).sort()).toEqual(["Archive the first mail", "Reply to Ann"]);
    const reply = await db.trajectory.findFirstOrThrow({ where: { instruction: "Reply to Ann" } });
    expect(reply.status).toBe("in_progress");
    const suggestions = await db.stepSuggestion.findMany({ where: { trajectoryId: reply.id } });
    expect(suggestions).toHaveLength(1);
    const output = JSON.parse(suggestions[0]!.outputJson) as { toolCall: { action: string; coordinate: Point } };
    expect(output.toolCall.action).toBe("click");
    expect(Math.abs(output.toolCall.coordinate[0] - 554)).toBeLessThan(2);
    expect(suggestions[0]).toMatchObject({ kind: "action", origin: "eval", model: "ckpt-1", jobId: run });
    // The editor shows it on that step as the run's failed prediction, named by the run (never by its raw id): the
    // assignee reads it, someone else may not, and nobody can accept it.
    const waiting = await waitingSuggestion({ actor: ann, stepId: suggestions[0]!.stepId }, db);
    expect(waiting).toMatchObject({
      id: suggestions[0]!.id,
      kind: "action",
      model: "ckpt-1",
      failedPrediction: { runId: run, endpoint: "ckpt-1", set: "smoke", version: 1, rule: "ui-s1" },
    });
    const v = await db.user.create({ data: { id: "u-val", email: "val@test.local", name: "Val", role: "annotator" } });
    await expectAppError(
      waitingSuggestion({ actor: { id: v.id, email: v.email, name: v.name, role: "annotator" }, stepId: suggestions[0]!.stepId }, db),
      "forbidden",
      /./,
    );
    const other = await db.step.findFirstOrThrow({ where: { trajectoryId: reply.id, id: { not: suggestions[0]!.stepId } } });
    expect(await waitingSuggestion({ actor: ann, stepId: other.id }, db)).toBeNull();
    await expectAppError(acceptSuggestion({ actor: ann, id: suggestions[0]!.id }, db), "conflict", /failed prediction/);
    expect((await db.stepSuggestion.findUniqueOrThrow({ where: { id: suggestions[0]!.id } })).acceptedAt).toBeNull();
    expect(await waitingSuggestion({ actor: ann, stepId: suggestions[0]!.stepId }, db)).toMatchObject({ id: suggestions[0]!.id });
    // The alarm's first failure is a typed text, so it was not sent.
    expect((await db.trajectory.findFirstOrThrow({ where: { instruction: "Set an alarm for 7" } })).status).toBe("approved");
  });
});

describe("studio eval (the command line)", () => {
  it("runs a set against an endpoint: progress on stderr, figures on stdout, and bridge score on its files says the same", async () => {
    const tmp = await mkdtemp(path.join(os.tmpdir(), "eval-cli-"));
    const [predictions, exported] = [path.join(tmp, "predictions.jsonl"), path.join(tmp, "smoke")];
    let out = "";
    let err = "";
    const io = { out: (s: string) => void (out += s), err: (s: string) => void (err += s) };
    const core = async () => ({ migrate: async () => undefined, CLI_ACTOR });
    const args = ["run", "--set", "smoke", "--endpoint", "ckpt-1", "--predictions", predictions, "--export", exported, "--json"];
    expect(await runEval(args, io, core)).toBe(0);
    expect(err).toContain("7/7 steps answered");
    expect(err).toContain(`npm run bridge -- score ${exported} --predictions ${predictions} --rule ui-s1 --max-pixels ${QWEN_MAX_PIXELS}`);
    const run = JSON.parse(out) as { id: string; figures: Record<string, unknown> };
    const bridgeIo = captureIo();
    expect(await runBridge(["score", exported, "--predictions", predictions, "--rule", "ui-s1", "--json"], bridgeIo), bridgeIo.err()).toBe(
      0,
    );
    const summary = JSON.parse(bridgeIo.out()) as Record<string, unknown>;
    for (const k of ["accuracy", "perAction", "sop", "rewards"]) expect(run.figures[k], k).toEqual(summary[k]);

    out = "";
    const first = (await db.evalRun.findFirstOrThrow({ where: { endpointName: "ckpt-2" } })).id;
    expect(await runEval(["compare", run.id, first], io, core)).toBe(0);
    // Older first whichever order they are named in: ckpt-2 ran before this one.
    expect(out).toMatch(/stepAccuracy@Clock\s+33\.3% -> 66\.7% \(\+33\.3 points\)/);
    expect(out.indexOf("regression")).toBeLessThan(out.indexOf("fixed"));
    await expect(runEval(["run", "--set", "smoke"], io, core)).rejects.toThrow(/--endpoint/);
  });
});

describe("an endpoint that answers megabytes", () => {
  it("has each answer cut at LIMITS.modelAnswer characters, as suggestions are: the failures list stays small", async () => {
    // 3,670,016 characters per step, as the fault-injection round's endpoint answered.
    const huge = `I cannot decide. ${"x".repeat(3_670_016)}`;
    fake.setResponder((req) => (req.model === "runaway" ? huge : scripted(req)));
    await saveEvalEndpoint({ caller: admin, name: "runaway", baseUrl: fake.baseUrl, model: "runaway" }, db);
    const { id } = await startEvalRun({ caller: admin, set: "smoke", endpoint: "runaway" }, db);
    await waitForEvalRun(id);
    const run = await getEvalRun({ caller: admin, id }, db);
    expect(run).toMatchObject({ state: "succeeded", error: null, progress: { done: 7, total: 7, failedCalls: 0 } });
    const stored = await db.evalStep.findMany({ where: { runId: id }, select: { response: true } });
    expect(stored.map((s) => s.response)).toEqual(Array(7).fill(huge.slice(0, LIMITS.modelAnswer)));
    const failures = (await evalFailures({ caller: admin, id, perPage: 48 }, db)).failures;
    expect(failures).toHaveLength(7);
    expect(failures.every((f) => f.response === huge.slice(0, LIMITS.modelAnswer))).toBe(true);
    expect(JSON.stringify(failures).length).toBeLessThan(8 * LIMITS.modelAnswer);
  }, 60_000);
});
