import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { SaveStepInput } from "@/lib/domain/annotation";
import type { Actor, Role } from "@/lib/domain/permissions";
import { firstError, processLabel } from "@/lib/domain/process-label";
import { canonicalTrajectorySchema } from "@/lib/domain/trajectory";
import type { StepView } from "@/lib/domain/views";
import { UI_S1_TRAIN_JSONL } from "@/fixtures";
import { saveStepAnnotation, submitTrajectory } from "./annotation";
import { getDashboard } from "./dashboard";
import type { Db } from "../db";
import { AppError } from "../errors/errors";
import { exportDataset } from "../export";
import { listProjectLanes, setProjectLane, submitFastLane } from "./fast-lane";
import { importFile } from "../import";
import { listMyTasks, startNextTask } from "./tasks";
import { getTrajectory } from "./trajectories";
import { freshStudio, uiS1ScreenshotDir } from "../testing/fixtures";

async function person(db: Db, role: Role, name: string): Promise<Actor> {
  const u = await db.user.create({ data: { id: `u-${name}`, email: `${name}@test.local`, name, role } });
  return { id: u.id, email: u.email, name: u.name, role };
}

async function studio() {
  const s = await freshStudio();
  const images = await uiS1ScreenshotDir(UI_S1_TRAIN_JSONL);
  const r = await importFile({ file: UI_S1_TRAIN_JSONL, format: "ui-s1", screenshotsDir: images, db: s.db });
  if (!r.ok) throw new Error("import failed");
  return s;
}

async function appError(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  expect((e as AppError).code).toBe(code);
  return e as AppError;
}

/** A step annotation that passes every check, with the call moved (a correction). */
function corrected(step: StepView): SaveStepInput {
  const x = Math.round(step.screenshot.width / 2);
  const y = Math.round(step.screenshot.height / 2) + 7;
  return {
    thought: {
      state: "The list is open.",
      nextAction: "Tap the item.",
      purpose: "To open it.",
      text: "The list is open. Tap the item. To open it.",
    },
    clearAction: "Tap the item.",
    toolCall: { action: "click", coordinate: [x, y] },
    box: [x - 50, y - 20, x + 50, y + 20],
    verdict: "corrected",
    version: step.version,
  };
}

/** The step completed in full (thought and clear action written), keeping its call and verdict: how a full correction leaves a step the model got right. */
function completedAsIs(step: StepView): SaveStepInput {
  const call = step.toolCall;
  const at = "coordinate" in call && call.coordinate ? call.coordinate : null;
  const { width, height } = step.screenshot;
  const box: [number, number, number, number] | null =
    at && call.action !== "swipe"
      ? [Math.max(0, at[0] - 5), Math.max(0, at[1] - 5), Math.min(width, at[0] + 5), Math.min(height, at[1] + 5)]
      : step.box;
  return {
    thought: {
      state: "The screen is shown.",
      nextAction: "Go on.",
      purpose: "To finish the task.",
      text: "The screen is shown. Go on. To finish the task.",
    },
    clearAction: "Go on with the task.",
    toolCall: call,
    box,
    verdict: step.verdict,
    version: step.version,
  };
}

/** A trajectory with at least `n` steps, taken by `actor` from the pool. */
async function takeWithSteps(db: Db, actor: Actor, n: number): Promise<string> {
  for (;;) {
    const id = await startNextTask({ actor }, db);
    if (!id) throw new Error("no task left");
    const t = await db.trajectory.findUniqueOrThrow({ where: { id } });
    if (t.stepCount >= n) return id;
    // Too short for this test: hand it to nobody and look again.
    await db.trajectory.update({ where: { id }, data: { assigneeId: null, leaseUntil: null, isDiscarded: true } });
  }
}

describe("the first-error fast lane on a real SQLite database", () => {
  let db: Db;
  let dir: string;
  let ann: Actor;
  let ann2: Actor;
  let admin: Actor;
  let reviewer: Actor;

  beforeAll(async () => {
    ({ db, dir } = await studio());
    ann = await person(db, "annotator", "ann");
    ann2 = await person(db, "annotator", "ann2");
    admin = await person(db, "admin", "admin");
    reviewer = await person(db, "reviewer", "rev");
  });

  it("cut: steps before the mark good, the mark harmful, cut after it, submitted, lane fast, in the export and process labels", async () => {
    const id = await takeWithSteps(db, ann, 4);
    const before = await getTrajectory(id, db);
    const view = await submitFastLane({ actor: ann, id, version: before.version, outcome: "failure", firstError: 2 }, db);
    expect(view.status).toBe("submitted");
    expect(view.lane).toBe("fast");
    expect(view.cutAfter).toBe(2);
    expect(view.outcome).toBe("failure");
    expect(view.steps.map((s) => s.verdict).slice(0, 4)).toEqual(["good", "good", "harmful", "unreviewed"]);
    // Each labelled step was written like a save: its version moved on and its history has the row.
    expect(view.steps[0]!.version).toBe(before.steps[0]!.version + 1);
    expect(view.steps[3]!.version).toBe(before.steps[3]!.version);
    const stepRows = await db.auditEvent.findMany({ where: { entityId: view.steps[2]!.id, action: "step.annotate" } });
    expect(stepRows.map((r) => JSON.parse(r.afterJson!))).toEqual([
      { verdict: "harmful", version: before.steps[2]!.version + 1, lane: "fast" },
    ]);
    const handIn = await db.auditEvent.findMany({
      where: { entityId: id, action: { in: ["trajectory.fastLane", "trajectory.submit"] } },
      orderBy: { at: "asc" },
    });
    expect(handIn.map((r) => r.action)).toEqual(["trajectory.fastLane", "trajectory.submit"]);
    expect(JSON.parse(handIn[0]!.afterJson!)).toMatchObject({
      firstError: 3,
      lane: "fast",
      cutAfter: 2,
      status: "submitted",
      isQueued: false,
    });

    const out = path.join(dir, "export-cut");
    const summary = await exportDataset({ outDir: out, status: "submitted", db });
    expect(summary.trajectories).toBe(1);
    const row = canonicalTrajectorySchema.parse(JSON.parse((await readFile(path.join(out, "trajectories.jsonl"), "utf8")).trim()));
    expect(row.lane).toBe("fast");
    expect(firstError(row)).toBe(3);
    expect(row.steps.slice(0, 3).map(processLabel)).toEqual([1, 1, -1]);
    const manifest = JSON.parse(await readFile(path.join(out, "manifest.json"), "utf8")) as { counts: { byLane: Record<string, number> } };
    expect(manifest.counts.byLane).toEqual({ full: 0, fast: 1, "fast-then-full": 0, none: 0 });

    // My tasks counts it by the fast lane's rule: the first error it marked, not "3 of n steps done".
    const mine = (await listMyTasks({ actor: ann }, db)).tasks.find((x) => x.id === id)!;
    expect(mine).toMatchObject({ lane: "fast", firstError: 2, doneSteps: 3 });
  });

  it("refuses bad input naming the step, and changes nothing", async () => {
    const id = await takeWithSteps(db, ann2, 3);
    const t = await getTrajectory(id, db);
    const past = await appError(
      submitFastLane({ actor: ann2, id, version: t.version, outcome: "success", firstError: t.steps.length }, db),
      "unprocessable",
    );
    expect(past.message).toContain(`Step ${t.steps.length + 1}`);
    // A moved call on step 2, then step 3 marked as the first error: step 2 cannot be "good".
    await saveStepAnnotation({ actor: ann2, stepId: t.steps[1]!.id, ...corrected(t.steps[1]!) }, db);
    const e = await appError(
      submitFastLane({ actor: ann2, id, version: t.version, outcome: "success", firstError: 2 }, db),
      "unprocessable",
    );
    expect(e.message).toContain("Step 2");
    expect(e.message).toContain("corrected");
    const stale = await appError(
      submitFastLane({ actor: ann2, id, version: t.version + 5, outcome: "success", firstError: 1 }, db),
      "conflict",
    );
    expect(stale.code).toBe("conflict");
    const after = await getTrajectory(id, db);
    expect(after.steps.map((s) => s.verdict)).toEqual(["unreviewed", "corrected", ...t.steps.slice(2).map(() => "unreviewed")]);
    expect(after.lane).toBeNull();
    expect(after.status).toBe("in_progress");
    expect(await db.auditEvent.count({ where: { entityId: id, action: "trajectory.fastLane" } })).toBe(0);
    // Someone else's task: 403, nothing written.
    await appError(submitFastLane({ actor: ann, id, version: after.version, outcome: "success", firstError: 1 }, db), "forbidden");
    // Marking the corrected step itself is fine: it becomes the first error, as `corrected` (-1).
    const done = await submitFastLane({ actor: ann2, id, version: after.version, outcome: "failure", firstError: 1 }, db);
    expect(done.steps.slice(0, 2).map((s) => s.verdict)).toEqual(["good", "corrected"]);
  });

  it("queue: the rest waits for full correction; fully corrected later it says fast-then-full with one consistent history", async () => {
    const { projects } = await listProjectLanes({ actor: admin }, db);
    expect(projects).toHaveLength(1);
    expect(projects[0]!.fastLaneAfter).toBe("cut");
    await appError(setProjectLane({ actor: ann, id: projects[0]!.id, fastLaneAfter: "queue" }, db), "forbidden");
    await setProjectLane({ actor: admin, id: projects[0]!.id, fastLaneAfter: "queue" }, db);

    const id = await takeWithSteps(db, ann, 3);
    const t0 = await getTrajectory(id, db);
    const queued = await submitFastLane({ actor: ann, id, version: t0.version, outcome: "failure", firstError: 1 }, db);
    expect(queued).toMatchObject({ status: "in_progress", lane: "fast", assigneeId: null, cutAfter: null, fastLaneAfter: "queue" });
    expect(queued.steps.slice(0, 3).map((s) => s.verdict)).toEqual(["good", "harmful", "unreviewed"]);
    const dash = await getDashboard({ actor: reviewer }, db, new Date(Date.now() + 5_000));
    expect(dash.lanes).toMatchObject({ fast: 2, queued: 1, fastThenFull: 0 });

    // Back in the pool: the next annotator to ask gets it, and corrects the remaining steps in full.
    const taken = await startNextTask({ actor: ann2 }, db);
    expect(taken).toBe(id);
    for (const s of (await getTrajectory(id, db)).steps) {
      await saveStepAnnotation({ actor: ann2, stepId: s.id, ...(s.index < 2 ? completedAsIs(s) : corrected(s)) }, db);
    }
    const full = await submitTrajectory({ actor: ann2, id }, db);
    expect(full.status).toBe("submitted");
    expect(full.lane).toBe("fast-then-full");
    expect(full.steps.slice(0, 2).map((s) => s.verdict)).toEqual(["good", "harmful"]);

    // One history: every step's saves chain version to version, whoever made them and in whichever lane.
    for (const s of full.steps) {
      const rows = await db.auditEvent.findMany({ where: { entityId: s.id, action: "step.annotate" }, orderBy: { at: "asc" } });
      let v = t0.steps[s.index]!.version;
      for (const r of rows) {
        expect((JSON.parse(r.beforeJson!) as { version: number }).version).toBe(v);
        v = (JSON.parse(r.afterJson!) as { version: number }).version;
      }
      expect(v).toBe(s.version);
    }
    const trail = await db.auditEvent.findMany({
      where: { entityId: id, entityType: "trajectory", action: { not: "trajectory.lease" } },
      orderBy: { at: "asc" },
      select: { action: true, actorLabel: true, afterJson: true },
    });
    expect(trail.map((r) => `${r.action} ${r.actorLabel}`)).toEqual([
      "trajectory.take ann@test.local",
      "trajectory.fastLane ann@test.local",
      "trajectory.take ann2@test.local",
      "trajectory.submit ann2@test.local",
    ]);
    expect(JSON.parse(trail.at(-1)!.afterJson!)).toMatchObject({ lane: "fast-then-full" });
    const dash2 = await getDashboard({ actor: reviewer }, db, new Date(Date.now() + 10_000));
    expect(dash2.lanes).toMatchObject({ fast: 2, queued: 0, fastThenFull: 1 });
  });
});
