// A step save reads and checks outside its write transaction, then writes only if what it checked still
// holds. These races put a real change between the check and the write (on a real SQLite file: another
// transaction holds the writer while the save checks, then commits before the save writes) and require
// the answer the save would have given had it run after that change.
import { beforeAll, describe, expect, it } from "vitest";
import type { SaveStepInput } from "@/lib/domain/annotation";
import type { Actor, Role } from "@/lib/domain/permissions";
import type { StepView } from "@/lib/domain/views";
import { UI_S1_TRAIN_JSONL } from "@/fixtures";
import { saveStepAnnotation } from "./annotation";
import { sqlitePath } from "../env";
import type { Db } from "../db";
import { writeLockFor } from "../db/sqlite";
import { type AppError } from "../errors/errors";
import { importFile } from "../import";
import { getTrajectory } from "./trajectories";
import { freshStudio, uiS1ScreenshotDir } from "../testing/fixtures";

let db: Db;
let url: string;
let ann: Actor;
let other: Actor;
const ids: string[] = [];

async function person(role: Role, name: string): Promise<Actor> {
  const u = await db.user.create({ data: { id: `u-${name}`, email: `${name}@test.local`, name, role } });
  return { id: u.id, email: u.email, name: u.name, role };
}

function input(step: StepView, text: string): SaveStepInput {
  return {
    thought: {
      state: "The list is open.",
      nextAction: "Tap the first item.",
      purpose: text,
      text: `The list is open. Tap the first item. ${text}`,
    },
    clearAction: "Tap the first item.",
    toolCall: { action: "click", coordinate: [10, 10] },
    box: null,
    verdict: "corrected",
    version: step.version,
  };
}

/**
 * Run `change` in a transaction that holds the writer until every save started by `saves` has done its
 * check and queued for the writer; then let the change commit, and the saves write after it.
 */
async function between<T>(change: (tx: Parameters<Parameters<Db["$transaction"]>[0]>[0]) => Promise<unknown>, saves: () => Promise<T>[]) {
  const lock = writeLockFor(sqlitePath(url));
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const holding = new Promise<void>((r) => (started = r));
  const changing = db.$transaction(async (tx) => {
    await change(tx);
    started();
    await held;
  });
  await holding;
  const running = saves();
  const settled = Promise.allSettled(running);
  for (let i = 0; lock.size < running.length; i++) {
    if (i > 2000) throw new Error(`only ${lock.size} of ${running.length} saves reached the writer`);
    await new Promise((r) => setTimeout(r, 5));
  }
  release();
  await changing;
  return settled;
}

const errorOf = (r: PromiseSettledResult<unknown>) => (r.status === "rejected" ? (r.reason as AppError) : null);

async function stepsOf(id: string) {
  return (await getTrajectory(id, db))!.steps;
}

beforeAll(async () => {
  ({ db, url } = await freshStudio());
  const images = await uiS1ScreenshotDir(UI_S1_TRAIN_JSONL);
  const r = await importFile({ file: UI_S1_TRAIN_JSONL, format: "ui-s1", screenshotsDir: images, db });
  if (!r.ok) throw new Error("import failed");
  ann = await person("annotator", "ann");
  other = await person("annotator", "other");
  const rows = await db.trajectory.findMany({ where: { stepCount: { gte: 2 } }, orderBy: { id: "asc" }, take: 4, select: { id: true } });
  for (const t of rows) {
    await db.trajectory.update({ where: { id: t.id }, data: { assigneeId: ann.id, status: "new" } });
    ids.push(t.id);
  }
});

describe("a save whose checked facts change before it writes", () => {
  it("is refused when the task was submitted meanwhile, and writes nothing", async () => {
    const [step] = await stepsOf(ids[0]!);
    const [result] = await between(
      (tx) => tx.trajectory.update({ where: { id: ids[0]! }, data: { status: "submitted" } }),
      () => [saveStepAnnotation({ actor: ann, stepId: step!.id, ...input(step!, "late") }, db)],
    );
    expect(errorOf(result!)?.code).toBe("forbidden");
    const [after] = await stepsOf(ids[0]!);
    expect(after!.version).toBe(step!.version);
    expect(after!.thought.text).toBe(step!.thought.text);
    expect(await db.auditEvent.count({ where: { action: "step.annotate", entityId: step!.id } })).toBe(0);
  });

  it("is refused when the task was given to someone else meanwhile", async () => {
    const [step] = await stepsOf(ids[1]!);
    const [result] = await between(
      (tx) => tx.trajectory.update({ where: { id: ids[1]! }, data: { assigneeId: other.id } }),
      () => [saveStepAnnotation({ actor: ann, stepId: step!.id, ...input(step!, "not mine any more") }, db)],
    );
    expect(errorOf(result!)?.code).toBe("forbidden");
    expect((await stepsOf(ids[1]!))[0]!.version).toBe(step!.version);
  });

  it("two saves of one step from the same version: one lands, the other is a 409 carrying the step as it is now", async () => {
    const [step] = await stepsOf(ids[2]!);
    const results = await between(
      (tx) => tx.trajectory.update({ where: { id: ids[2]! }, data: { leaseUntil: new Date(Date.now() + 60_000) } }),
      () => [
        saveStepAnnotation({ actor: ann, stepId: step!.id, ...input(step!, "first tab") }, db),
        saveStepAnnotation({ actor: ann, stepId: step!.id, ...input(step!, "second tab") }, db),
      ],
    );
    const landed = results.filter((r) => r.status === "fulfilled") as PromiseFulfilledResult<StepView>[];
    const refused = results.map(errorOf).filter((e) => e !== null);
    expect(landed).toHaveLength(1);
    expect(refused.map((e) => e.code)).toEqual(["conflict"]);
    const now = (await stepsOf(ids[2]!))[0]!;
    expect(now.version).toBe(step!.version + 1);
    expect(landed[0]!.value).toEqual(now);
    expect((refused[0]!.details as { current: StepView }).current).toEqual(now);
    expect(await db.auditEvent.count({ where: { action: "step.annotate", entityId: step!.id } })).toBe(1);
  });

  it("saves of two steps of a new task both land, and the task starts once", async () => {
    const [a, b] = await stepsOf(ids[3]!);
    const results = await between(
      (tx) => tx.trajectory.update({ where: { id: ids[3]! }, data: { leaseUntil: new Date(Date.now() + 60_000) } }),
      () => [
        saveStepAnnotation({ actor: ann, stepId: a!.id, ...input(a!, "step one") }, db),
        saveStepAnnotation({ actor: ann, stepId: b!.id, ...input(b!, "step two") }, db),
      ],
    );
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    const t = await db.trajectory.findUniqueOrThrow({ where: { id: ids[3]! } });
    expect(t.status).toBe("in_progress");
    expect(await db.auditEvent.count({ where: { action: "trajectory.start", entityId: ids[3]! } })).toBe(1);
    const [a2, b2] = await stepsOf(ids[3]!);
    expect([a2!.thought.purpose, b2!.thought.purpose]).toEqual(["step one", "step two"]);
    // What each save answered is the step as stored.
    expect((results[0] as PromiseFulfilledResult<StepView>).value).toEqual(a2);
    expect((results[1] as PromiseFulfilledResult<StepView>).value).toEqual(b2);
  });
});
