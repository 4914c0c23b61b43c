// Human work survives the documented move (docs/DEPLOY.md: export, then a studio-format import into the
// new database) and a pre-annotation job run afterwards. A source SQLite studio holds an approved
// trajectory whose thoughts a person typed (and a reviewer fixed), and an in-progress one a person
// partly wrote; it is exported once, imported into a fresh SQLite studio (runs everywhere) and a fresh
// private PostgreSQL studio (skipped, and counted, where PostgreSQL is not installed), and in each a
// pre-annotation job runs against a real HTTP model server. No field a person wrote may change, the
// approved status stays, and the job's summary says what it left alone and why.
import { readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fieldsWrittenByPeople } from "@/lib/domain/provenance";
import type { Actor } from "@/lib/domain/permissions";
import type { StepView } from "@/lib/domain/views";
import { saveStepAnnotation, saveTrajectoryAnnotation, submitTrajectory } from "./annotation";
import type { Db } from "../db";
import { exportDataset } from "../export";
import { importFile } from "../import";
import { saveModelSettings } from "../model";
import { getModelJob, startModelJob, waitForModelJob } from "../model/jobs";
import { claimReview, decideReview } from "../review";
import { getTrajectory } from "./trajectories";
import { defaultReply, startFakeModelServer, type FakeModelServer } from "../testing/fake-model-server";
import { blankPng, freshStudio } from "../testing/fixtures";
import { hasPostgres, startPostgres } from "../testing/postgres";

const APPROVED = "Move: turn on Wi-Fi (approved)";
const IN_PROGRESS = "Move: set an alarm (in progress)";
/** What the fake model answers for a thought (defaultReply's), so a prefilled field is recognisable. */
const MODEL_STATE = "The settings page is open.";

type Person = Actor;
let fake: FakeModelServer;
let exported: string;
/** The source studio's steps by trajectory instruction, as they were exported. */
const source = new Map<string, StepView[]>();

async function person(db: Db, role: Actor["role"], name: string): Promise<Person> {
  const u = await db.user.create({ data: { id: `u-${name}`, email: `${name}@test.local`, name, role } });
  return { id: u.id, email: u.email, name: u.name, role };
}

const typedThought = (who: string, i: number) => ({
  state: `${who} saw screen ${i}.`,
  nextAction: `${who} taps item ${i}.`,
  purpose: `${who} wants step ${i + 1}.`,
  text: `${who} saw screen ${i}. ${who} taps item ${i}. ${who} wants step ${i + 1}.`,
});

function input(s: StepView, patch: Partial<Pick<StepView, "thought" | "clearAction" | "verdict">>) {
  return {
    thought: patch.thought ?? s.thought,
    clearAction: patch.clearAction ?? s.clearAction,
    toolCall: s.toolCall,
    box: s.box,
    verdict: patch.verdict ?? s.verdict,
    version: s.version,
  };
}

async function trajectoryId(db: Db, instruction: string): Promise<string> {
  return (await db.trajectory.findFirstOrThrow({ where: { instruction } })).id;
}

/** Every field a person wrote in these steps, with its value: what no job may change. */
function humanFields(steps: StepView[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of steps)
    for (const f of fieldsWrittenByPeople(s.provenance)) {
      const value = f.startsWith("thought.") ? s.thought[f.slice("thought.".length) as keyof StepView["thought"]] : s[f as keyof StepView];
      out[`${s.index}:${f}`] = { value, provenance: s.provenance[f] };
    }
  return out;
}

/**
 * A SQLite studio where people did real work, exported with `--status all` as the move does: the
 * approved trajectory (3 steps: the annotator typed the thoughts of steps 1-2 and only the clear
 * action of step 3, past the cut; the reviewer fixed step 2's purpose while approving) and an
 * in-progress one (step 1's thought typed, step 2 untouched, step 3 only its verdict set).
 */
async function buildSource(): Promise<void> {
  const a = await freshStudio();
  const db = a.db;
  await writeFile(path.join(a.dir, "s.png"), await blankPng(1080, 2400));
  const ann = await person(db, "annotator", "ann");
  const rev = await person(db, "reviewer", "rev");
  const line = (goal: string, n: number) =>
    JSON.stringify({
      goal,
      steps: Array.from({ length: n }, (_, i) => ({
        action_content: { action: "click", coordinate: [100 + i, 200], bbox: [50, 150, 250, 250] },
        screenshot: "s.png",
        thought: `Imported model thought ${i}.`,
      })),
    });
  const file = path.join(a.dir, "src.jsonl");
  await writeFile(file, `${line(APPROVED, 3)}\n${line(IN_PROGRESS, 3)}\n`);
  expect(await importFile({ file, format: "ui-s1", screenshotsDir: a.dir, db })).toMatchObject({ ok: true, trajectories: 2 });
  const t1 = await trajectoryId(db, APPROVED);
  const t2 = await trajectoryId(db, IN_PROGRESS);
  await db.trajectory.updateMany({ where: { id: { in: [t1, t2] } }, data: { assigneeId: ann.id } });

  const s1 = (await getTrajectory(t1, db)).steps;
  for (const s of s1.slice(0, 2))
    await saveStepAnnotation(
      {
        actor: ann,
        stepId: s.id,
        ...input(s, { thought: typedThought("Ann", s.index), clearAction: `Tap item ${s.index}.`, verdict: "corrected" }),
      },
      db,
    );
  await saveStepAnnotation({ actor: ann, stepId: s1[2]!.id, ...input(s1[2]!, { clearAction: "Ann's clear action." }) }, db);
  const t = await getTrajectory(t1, db);
  await saveTrajectoryAnnotation({ actor: ann, id: t1, outcome: "success", isDiscarded: false, cutAfter: 1, version: t.version }, db);
  await submitTrajectory({ actor: ann, id: t1 }, db);
  await claimReview({ actor: rev, id: t1 }, db);
  const review = await getTrajectory(t1, db);
  const fix = review.steps[1]!;
  await decideReview(
    {
      actor: rev,
      id: t1,
      decision: "approve",
      version: review.version,
      fixes: [{ stepId: fix.id, ...input(fix, { thought: { ...fix.thought, purpose: "Rev's purpose." } }) }],
    },
    db,
  );

  const s2 = (await getTrajectory(t2, db)).steps;
  await saveStepAnnotation({ actor: ann, stepId: s2[0]!.id, ...input(s2[0]!, { thought: typedThought("Ann", 0) }) }, db);
  await saveStepAnnotation({ actor: ann, stepId: s2[2]!.id, ...input(s2[2]!, { verdict: "good" }) }, db);

  const approved = await getTrajectory(t1, db);
  expect(approved.status).toBe("approved");
  source.set(APPROVED, approved.steps);
  source.set(IN_PROGRESS, (await getTrajectory(t2, db)).steps);
  // What the people wrote is recorded: who, how, and the step's version.
  expect(approved.steps[1]!.provenance["thought.purpose"]).toMatchObject({ source: "typed", by: "rev@test.local" });
  expect(approved.steps[0]!.provenance["thought.state"]).toMatchObject({ source: "typed", by: "ann@test.local" });
  expect(source.get(IN_PROGRESS)![2]!.provenance.verdict).toMatchObject({ source: "typed", by: "ann@test.local" });

  exported = path.join(await mkdtemp(path.join(os.tmpdir(), "move-")), "ds");
  await exportDataset({ outDir: exported, status: "all", db });
  await db.$disconnect();
}

/** The move into `db`, then pre-annotation jobs over both trajectories; the checks are the same on either database. */
function moveAndPrefill(target: () => { db: Db; admin: Actor }) {
  it("the studio-format import keeps who wrote each field and each step's version", async () => {
    const { db } = target();
    const r = await importFile({ file: path.join(exported, "trajectories.jsonl"), format: "studio", db });
    expect(r).toMatchObject({ ok: true, trajectories: 2, steps: 6 });
    for (const [instruction, before] of source) {
      const after = (await getTrajectory(await trajectoryId(db, instruction), db)).steps;
      expect(after.map((s) => [s.index, s.version, s.provenance])).toEqual(before.map((s) => [s.index, s.version, s.provenance]));
      expect(humanFields(after)).toEqual(humanFields(before));
    }
    // The version moves too: the in-progress trajectory's first step was saved once.
    const moved = (await getTrajectory(await trajectoryId(db, IN_PROGRESS), db)).steps;
    expect(moved[0]!.version).toBe(2);
    expect((await db.trajectory.findFirstOrThrow({ where: { instruction: APPROVED } })).status).toBe("approved");
  });

  it("a pre-annotation job afterwards changes no human field, leaves approved work alone and says why", async () => {
    const { db, admin } = target();
    const t1 = await trajectoryId(db, APPROVED);
    const t2 = await trajectoryId(db, IN_PROGRESS);
    const job = await startModelJob({ actor: admin, kind: "prefill", trajectoryIds: [t1, t2] }, db);
    await waitForModelJob(job.id);
    const done = await getModelJob({ actor: admin, id: job.id }, db);
    // 3 approved steps (not included), 2 in-progress steps a person wrote; 1 written.
    expect(done).toMatchObject({
      state: "succeeded",
      progress: { done: 6, total: 6 },
      skipped: 5,
      skippedBy: { "handed-in": 3, "person-wrote": 2 },
      includesSubmittedAndApproved: false,
      failures: 0,
    });
    const approved = await getTrajectory(t1, db);
    expect(approved.status).toBe("approved");
    expect(approved.steps.map((s) => [s.thought, s.clearAction, s.verdict, s.provenance])).toEqual(
      source.get(APPROVED)!.map((s) => [s.thought, s.clearAction, s.verdict, s.provenance]),
    );
    const progress = (await getTrajectory(t2, db)).steps;
    expect(humanFields(progress)).toEqual(humanFields(source.get(IN_PROGRESS)!));
    expect(progress[0]!.thought).toEqual(typedThought("Ann", 0));
    // Step 3's verdict is a person's: the step is theirs, its imported thought stays.
    expect(progress[2]!.thought).toEqual(source.get(IN_PROGRESS)![2]!.thought);
    // The one step no person wrote got the model's thought.
    expect(progress[1]!.thought.state).toBe(MODEL_STATE);
    expect(progress[1]!.provenance["thought.state"]).toMatchObject({ source: "prefilled", by: `model-job:${job.id}` });
  });

  it("with submitted and approved work included, the job fills only thoughts no person wrote and keeps the status", async () => {
    const { db, admin } = target();
    const t1 = await trajectoryId(db, APPROVED);
    const before = await getTrajectory(t1, db);
    const job = await startModelJob({ actor: admin, kind: "prefill", trajectoryIds: [t1], includeSubmittedAndApproved: true }, db);
    await waitForModelJob(job.id);
    expect(await getModelJob({ actor: admin, id: job.id }, db)).toMatchObject({
      state: "succeeded",
      progress: { done: 3, total: 3 },
      skipped: 2,
      skippedBy: { "person-wrote": 2 },
      includesSubmittedAndApproved: true,
    });
    const after = await getTrajectory(t1, db);
    expect(after.status).toBe("approved");
    expect(humanFields(after.steps)).toEqual(humanFields(before.steps));
    expect(after.steps.slice(0, 2)).toEqual(before.steps.slice(0, 2));
    // Step 3: only its clear action was a person's; the imported thought became the model's, the clear action stayed.
    const [, , third] = after.steps;
    expect(third!.clearAction).toBe("Ann's clear action.");
    expect(third!.provenance.clearAction).toMatchObject({ source: "typed", by: "ann@test.local" });
    expect(third!.thought.state).toBe(MODEL_STATE);
    expect(third!.provenance["thought.text"]).toMatchObject({ source: "prefilled" });
    // And the job's start names the choice in the audit trail.
    const start = await db.auditEvent.findFirstOrThrow({ where: { action: "model.prefill.start", entityId: job.id } });
    expect(JSON.parse(start.afterJson!)).toMatchObject({ includeSubmittedAndApproved: true });
  });

  it("started from the list's filters, counts only trajectories the job may write, approved ones only when included", async () => {
    const { db, admin } = target();
    // Approved alone: nothing to do unless included (its third step's thought is the model's by now).
    await expect(startModelJob({ actor: admin, kind: "prefill", matching: { q: "(approved)" } }, db)).rejects.toThrow(
      /No trajectory matching these filters has a step nobody has touched/,
    );
    // By filter, a trajectory is work to do only while a step's thought was written by nobody, neither a person nor an
    // earlier job: the in-progress trajectory's step 2 holds the model's words by now, so there is nothing left.
    await expect(startModelJob({ actor: admin, kind: "prefill", matching: { q: "Move:" } }, db)).rejects.toThrow(
      /No trajectory matching these filters has a step nobody has touched/,
    );
    // An admin who selects the work may have a job's thought asked again, and, including handed-in work, every step
    // that is nobody's; a person's field is never written either way.
    const ids = await Promise.all([...source.keys()].map((instruction) => trajectoryId(db, instruction)));
    const included = await startModelJob({ actor: admin, kind: "prefill", trajectoryIds: ids, includeSubmittedAndApproved: true }, db);
    expect(included).toMatchObject({ includesSubmittedAndApproved: true });
    expect(included.progress.total).toBeGreaterThan(0);
    await waitForModelJob(included.id);
    for (const [instruction, before] of source) {
      const after = (await getTrajectory(await trajectoryId(db, instruction), db)).steps;
      expect(humanFields(after)).toEqual(humanFields(before));
    }
    await expect(startModelJob({ actor: admin, kind: "judge", trajectoryIds: [], includeSubmittedAndApproved: true }, db)).rejects.toThrow(
      /for pre-annotation/,
    );
  });
}

beforeAll(async () => {
  fake = await startFakeModelServer();
  fake.setResponder(defaultReply);
  for (const k of ["STUDIO_MODEL_URL", "STUDIO_MODEL_NAME", "STUDIO_MODEL_KEY"]) delete process.env[k];
  await buildSource();
}, 60_000);

afterAll(async () => {
  await fake?.close();
});

describe("the move SQLite -> SQLite, then pre-annotation", () => {
  let db: Db;
  let admin: Actor;
  beforeAll(async () => {
    ({ db } = await freshStudio());
    admin = await person(db, "admin", "admin");
    await saveModelSettings({ actor: admin, baseUrl: fake.baseUrl, model: "qwen2.5-vl-7b", concurrency: 2, timeoutMs: 5_000 }, db);
  });
  moveAndPrefill(() => ({ db, admin }));
});

describe("provenance in a studio-format file", () => {
  it("is checked on import: a bad entry is refused naming the line, step and field, and nothing is written", async () => {
    const { db } = await freshStudio();
    const lines = readFileSync(path.join(exported, "trajectories.jsonl"), "utf8").trim().split("\n");
    const cases: [(step: Record<string, unknown>) => void, string, RegExp][] = [
      [
        (s) => ((s.provenance as Record<string, Record<string, unknown>>)["thought.state"]!.at = "yesterday"),
        "provenance.thought.state.at",
        /ISO 8601/,
      ],
      [(s) => ((s.provenance as Record<string, unknown>).notes = { source: "typed", at: "2026-01-01T00:00:00Z" }), "provenance", /notes/],
      [
        (s) => ((s.provenance as Record<string, Record<string, unknown>>)["thought.state"]!.by = "x".repeat(301)),
        "provenance.thought.state.by",
        /at most 300/,
      ],
      [(s) => (s.version = 0), "version", /expected number to be >0/],
    ];
    for (const [i, [spoil, field, message]] of cases.entries()) {
      const records = lines.map((l) => JSON.parse(l) as { instruction: string; steps: Record<string, unknown>[] });
      const approved = records.findIndex((r) => r.instruction === APPROVED);
      spoil(records[approved]!.steps[0]!);
      const file = path.join(path.dirname(exported), `bad-${i}.jsonl`);
      await writeFile(file, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
      const r = await importFile({ file, format: "studio", screenshotsDir: path.join(exported, "screenshots"), db });
      expect(r.ok, field).toBe(false);
      if (r.ok) continue;
      expect(r.problems, field).toEqual([
        expect.objectContaining({ line: approved + 1, step: 0, field, message: expect.stringMatching(message) }),
      ]);
    }
    expect(await db.trajectory.count()).toBe(0);
    expect(await db.step.count()).toBe(0);
  });
});

describe.skipIf(!hasPostgres)("the move SQLite -> PostgreSQL, then pre-annotation", () => {
  let server: ReturnType<typeof startPostgres>;
  let db: Db;
  let admin: Actor;
  beforeAll(async () => {
    server = startPostgres();
    ({ db } = await server.freshDb());
    admin = await person(db, "admin", "admin");
    await saveModelSettings({ actor: admin, baseUrl: fake.baseUrl, model: "qwen2.5-vl-7b", concurrency: 2, timeoutMs: 5_000 }, db);
  }, 120_000);
  afterAll(async () => {
    await db?.$disconnect();
    server?.stop();
  });
  moveAndPrefill(() => ({ db, admin }));
});
