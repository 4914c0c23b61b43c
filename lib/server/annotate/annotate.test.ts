import { beforeAll, describe, expect, it } from "vitest";
import type { SaveStepInput } from "@/lib/domain/annotation";
import type { Actor, Role } from "@/lib/domain/permissions";
import type { StepView } from "@/lib/domain/views";
import { renewLease, saveStepAnnotation, saveTrajectoryAnnotation, submitTrajectory } from "./annotation";
import type { Db } from "../db";
import { AppError } from "../errors/errors";
import { importFile } from "../import";
import { listMyTasks, startNextTask } from "./tasks";
import { getTrajectory } from "./trajectories";
import { UI_S1_TRAIN_JSONL } from "@/fixtures";
import { freshStudio, uiS1ScreenshotDir } from "../testing/fixtures";

// 32 real UI-S1 trajectories with blank screenshots of the right sizes.
const TRAIN = UI_S1_TRAIN_JSONL;

async function person(db: Db, role: Role, name: string): Promise<Actor> {
  const u = await db.user.create({ data: { id: `u-${name}`, email: `${name}@test.local`, name, role } });
  return { id: u.id, email: u.email, name: u.name, role };
}

async function studio() {
  const s = await freshStudio();
  const images = await uiS1ScreenshotDir(TRAIN);
  const r = await importFile({ file: TRAIN, format: "ui-s1", screenshotsDir: images, db: s.db });
  if (!r.ok) throw new Error("import failed");
  return s;
}

/** A step annotation that passes every check. */
function completeInput(step: StepView): SaveStepInput {
  const { width, height } = step.screenshot;
  const x = Math.round(width / 2);
  const y = Math.round(height / 2);
  return {
    thought: {
      state: "The list is open.",
      nextAction: "Tap the first item.",
      purpose: "To open it.",
      text: "The list is open. Tap the first item. To open it.",
    },
    clearAction: "Tap the first item.",
    toolCall: { action: "click", coordinate: [x, y] },
    box: [x - 50, y - 20, x + 50, y + 20],
    verdict: "corrected",
    version: step.version,
  };
}

async function expectAppError(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  expect((e as AppError).code).toBe(code);
  return e as AppError;
}

describe("annotation use cases against a real database", () => {
  let db: Db;
  let ann: Actor;
  let other: Actor;
  let admin: Actor;
  let tid: string;

  beforeAll(async () => {
    ({ db } = await studio());
    ann = await person(db, "annotator", "ann");
    other = await person(db, "annotator", "other");
    admin = await person(db, "admin", "admin");
    tid = (await startNextTask({ actor: ann }, db))!;
  });

  it("start next task takes an unassigned trajectory with a lease, audited; asking again returns the same one", async () => {
    const t = await db.trajectory.findUniqueOrThrow({ where: { id: tid } });
    expect(t.assigneeId).toBe(ann.id);
    expect(t.leaseUntil!.getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "trajectory.take", entityId: tid } });
    expect(JSON.parse(audit.beforeJson!)).toEqual({ assigneeId: null, leaseUntil: null });
    expect(JSON.parse(audit.afterJson!)).toMatchObject({ assigneeId: ann.id });
    expect(await startNextTask({ actor: ann }, db)).toBe(tid);
    const tasks = await listMyTasks({ actor: ann }, db);
    expect(tasks.tasks.map((x) => x.id)).toEqual([tid]);
    expect(tasks.available).toBe(31);
  });

  it("saves a step with its version, moves the task to in progress, and audits both", async () => {
    const step = (await getTrajectory(tid, db)).steps[0]!;
    const saved = await saveStepAnnotation({ actor: ann, stepId: step.id, ...completeInput(step), verdict: "harmful" }, db);
    expect(saved.version).toBe(step.version + 1);
    expect(saved.verdict).toBe("harmful");
    expect(saved.clearAction).toBe("Tap the first item.");
    expect((await db.trajectory.findUniqueOrThrow({ where: { id: tid } })).status).toBe("in_progress");
    const rows = await db.auditEvent.findMany({
      where: { entityId: { in: [step.id, tid] }, action: { in: ["step.annotate", "trajectory.start"] } },
      orderBy: { at: "asc" },
    });
    expect(rows.map((r) => r.action)).toEqual(["step.annotate", "trajectory.start"]);
    expect(JSON.parse(rows[0]!.afterJson!)).toMatchObject({
      verdict: "harmful",
      clearAction: "Tap the first item.",
      version: step.version + 1,
    });
    expect(JSON.parse(rows[0]!.beforeJson!)).toMatchObject({ verdict: "unreviewed", version: step.version });
    expect(JSON.parse(rows[1]!.beforeJson!)).toEqual({ status: "new" });
  });

  it("a stale version is a 409 carrying the current step, and changes nothing", async () => {
    const step = (await getTrajectory(tid, db)).steps[0]!;
    const e = await expectAppError(
      saveStepAnnotation(
        { actor: ann, stepId: step.id, ...completeInput(step), clearAction: "Stale edit.", version: step.version - 1 },
        db,
      ),
      "conflict",
    );
    expect((e.details as { current: StepView }).current).toMatchObject({ id: step.id, version: step.version, verdict: "harmful" });
    expect((await getTrajectory(tid, db)).steps[0]).toEqual(step);
  });

  it("two saves from the same version: exactly one lands", async () => {
    const step = (await getTrajectory(tid, db)).steps[1]!;
    const results = await Promise.allSettled([
      saveStepAnnotation({ actor: ann, stepId: step.id, ...completeInput(step), clearAction: "Mine." }, db),
      saveStepAnnotation({ actor: ann, stepId: step.id, ...completeInput(step), clearAction: "Theirs." }, db),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect((rejected.reason as AppError).code).toBe("conflict");
    expect((await getTrajectory(tid, db)).steps[1]!.version).toBe(step.version + 1);
  });

  it("another annotator gets 403 on every write and nothing changes", async () => {
    const before = await getTrajectory(tid, db);
    const step = before.steps[0]!;
    const auditCount = await db.auditEvent.count();
    await expectAppError(saveStepAnnotation({ actor: other, stepId: step.id, ...completeInput(step) }, db), "forbidden");
    await expectAppError(
      saveTrajectoryAnnotation(
        { actor: other, id: tid, outcome: "success", isDiscarded: false, cutAfter: null, version: before.version },
        db,
      ),
      "forbidden",
    );
    await expectAppError(submitTrajectory({ actor: other, id: tid }, db), "forbidden");
    await expectAppError(renewLease({ actor: other, id: tid }, db), "forbidden");
    expect(await getTrajectory(tid, db)).toEqual(before);
    expect(await db.auditEvent.count()).toBe(auditCount);
  });

  it("submit needs an outcome and every kept step complete; the cut and discard count", async () => {
    let t = await getTrajectory(tid, db);
    const e = await expectAppError(submitTrajectory({ actor: ann, id: tid }, db), "unprocessable");
    expect(e.details).toEqual(expect.arrayContaining([{ code: "outcome.unset" }]));

    // Complete steps 0 and 1, cut after step 1, set the outcome.
    for (const s of t.steps.slice(0, 2)) {
      const fresh = (await getTrajectory(tid, db)).steps[s.index]!;
      await saveStepAnnotation({ actor: ann, stepId: s.id, ...completeInput(fresh) }, db);
    }
    t = await getTrajectory(tid, db);
    const saved = await saveTrajectoryAnnotation(
      { actor: ann, id: tid, outcome: "success", isDiscarded: false, cutAfter: t.steps.length > 2 ? 1 : null, version: t.version },
      db,
    );
    expect(saved).toMatchObject({ outcome: "success", version: t.version + 1, status: "in_progress" });
    await expectAppError(
      saveTrajectoryAnnotation({ actor: ann, id: tid, outcome: "failure", isDiscarded: false, cutAfter: null, version: t.version }, db),
      "conflict",
    );
    await expectAppError(
      saveTrajectoryAnnotation({ actor: ann, id: tid, outcome: "failure", isDiscarded: false, cutAfter: 99, version: saved.version }, db),
      "unprocessable",
    );

    const submitted = await submitTrajectory({ actor: ann, id: tid }, db);
    expect(submitted.status).toBe("submitted");
    expect(submitted.leaseUntil).toBeNull();
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "trajectory.submit", entityId: tid } });
    expect(JSON.parse(audit.afterJson!)).toMatchObject({ status: "submitted" });

    // Submitted work is frozen until review sends it back.
    const step = submitted.steps[0]!;
    await expectAppError(saveStepAnnotation({ actor: ann, stepId: step.id, ...completeInput(step) }, db), "forbidden");
    await expectAppError(submitTrajectory({ actor: ann, id: tid }, db), "conflict");
  });

  it("ground truth that contradicts itself blocks submit, naming the step and the reason", async () => {
    const id = (await startNextTask({ actor: other }, db))!;
    let t = await getTrajectory(id, db);
    for (const s of t.steps) await saveStepAnnotation({ actor: other, stepId: s.id, ...completeInput(s) }, db);
    t = await getTrajectory(id, db);
    // Step 2's click now lies outside its own box (the box was drawn on another element).
    const s2 = t.steps[1]!;
    const [x, y] = (completeInput(s2).toolCall as { coordinate: [number, number] }).coordinate;
    await saveStepAnnotation({ actor: other, stepId: s2.id, ...completeInput(s2), box: [x + 100, y + 100, x + 200, y + 150] }, db);
    t = await getTrajectory(id, db);
    await saveTrajectoryAnnotation({ actor: other, id, outcome: "success", isDiscarded: false, cutAfter: null, version: t.version }, db);
    const e = await expectAppError(submitTrajectory({ actor: other, id }, db), "unprocessable");
    expect(e.message).toMatch(
      /Step 2: The point lies outside this step's own target box \(\(\d+, \d+\) ∉ \[\d+, \d+, \d+, \d+\]\): move the point or redraw the box/,
    );
    // The same sentence in Chinese has no English word in it: the detail is numbers and a symbol.
    expect(e.messageFor("zh")).toMatch(/^还不能提交：第 2 步：坐标点不在本步的目标框内（\(\d+, \d+\) ∉ \[[\d, ]+\]）/);
    expect(e.details).toEqual([
      { code: "step.incomplete", stepIndex: 1, problems: ["box.missesPoint"], details: [expect.stringMatching(/^\(\d+, \d+\) ∉ \[/)] },
    ]);
    // Redrawing the box around the click lets it through.
    await saveStepAnnotation(
      { actor: other, stepId: s2.id, ...completeInput(s2), version: (await getTrajectory(id, db)).steps[1]!.version },
      db,
    );
    expect((await submitTrajectory({ actor: other, id }, db)).status).toBe("submitted");
  });

  it("a discarded trajectory can be submitted without step work; admins may edit any", async () => {
    const id = (await startNextTask({ actor: ann }, db))!;
    expect(id).not.toBe(tid);
    const t = await getTrajectory(id, db);
    await saveTrajectoryAnnotation({ actor: admin, id, outcome: null, isDiscarded: true, cutAfter: null, version: t.version }, db);
    expect((await submitTrajectory({ actor: ann, id }, db)).status).toBe("submitted");
  });

  it("the heartbeat extends the assignee's lease; taking up a lapsed lease is audited, renewals are not", async () => {
    const id = (await startNextTask({ actor: ann }, db))!;
    const leaseRows = () => db.auditEvent.count({ where: { action: "trajectory.lease", entityId: id } });
    const later = new Date(Date.now() + 5 * 60_000);
    const { leaseUntil } = await renewLease({ actor: ann, id }, db, later);
    expect(new Date(leaseUntil!).getTime()).toBe(later.getTime() + 10 * 60_000);
    expect(await leaseRows()).toBe(0);
    await renewLease({ actor: ann, id }, db, new Date(later.getTime() + 60 * 60_000));
    expect(await leaseRows()).toBe(1);
  });
});

// The racers share the process's one client, as the server does: every look-up runs before any
// take, so all of them pick the same first candidate and only the conditional update keeps them apart.
// (Separate SQLite connections in one Node process would block each other's synchronous busy-wait.)
describe("start next task under a race", () => {
  it("annotators starting at once never get the same trajectory", async () => {
    const { db } = await studio();
    const people = await Promise.all(["a", "b", "c", "d"].map((n) => person(db, "annotator", n)));
    // Leave exactly two free trajectories, so the four racers must split them and two get nothing.
    const all = await db.trajectory.findMany({ orderBy: { id: "asc" }, select: { id: true } });
    await db.trajectory.updateMany({ where: { id: { in: all.slice(2).map((t) => t.id) } }, data: { status: "approved" } });
    const got = await Promise.all(people.map((p) => startNextTask({ actor: p }, db)));
    const taken = got.filter((x): x is string => x !== null);
    expect(taken.sort()).toEqual(
      all
        .slice(0, 2)
        .map((t) => t.id)
        .sort(),
    );
    expect(got.filter((x) => x === null)).toHaveLength(2);
    for (const id of taken) {
      const t = await db.trajectory.findUniqueOrThrow({ where: { id } });
      expect(people[got.indexOf(id)]!.id).toBe(t.assigneeId);
    }
    expect(await db.auditEvent.count({ where: { action: "trajectory.take" } })).toBe(2);
  });
});
