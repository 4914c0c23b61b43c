import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import type { StepFix } from "@/lib/domain/review";
import { saveStepAnnotation, saveTrajectoryAnnotation } from "../annotate";
import { CLI_ACTOR } from "../people/audit";
import type { Db } from "../db";
import { importFile } from "../import";
import { createUser } from "../people";
import {
  addComment,
  claimReview,
  decideReview,
  listComments,
  releaseReview,
  replyToComment,
  reviewContext,
  reviewQueue,
  setCommentResolved,
  startNextReview,
} from "./index";
import { freshStudio, blankPng } from "../testing/fixtures";
import { hasPostgres, startPostgres, type PostgresServer } from "../testing/postgres";
import { listMyTasks } from "../annotate/tasks";
import { getTrajectory } from "../annotate/trajectories";

async function actor(db: Db, email: string, role: Actor["role"]): Promise<Actor> {
  const { person: user } = await createUser({ actor: CLI_ACTOR, email, role, password: "password-123" }, db);
  return { id: user.id, email: user.email, name: user.name, role };
}

/** `count` two-step trajectories (a tap with the element's box as imported, then "done"), submitted by `annotator`. */
async function seedSubmitted(db: Db, annotator: Actor, count: number, tag: string): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "review-"));
  await writeFile(path.join(dir, "a.png"), await blankPng(1080, 2400));
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      goal: `${tag} ${i}`,
      steps: [
        { action_content: { action: "click", coordinate: [540, 300], bbox: [400, 250, 700, 350] }, screenshot: "a.png" },
        { action_content: { action: "terminate", status: "success" }, screenshot: "a.png" },
      ],
    }),
  );
  await writeFile(path.join(dir, "d.jsonl"), `${lines.join("\n")}\n`);
  const r = await importFile({ file: path.join(dir, "d.jsonl"), format: "ui-s1", db });
  expect(r.ok).toBe(true);
  const rows = await db.trajectory.findMany({ where: { instruction: { startsWith: `${tag} ` } }, orderBy: { instruction: "asc" } });
  let at = Date.now() - 60_000 * count;
  for (const t of rows)
    await db.trajectory.update({
      where: { id: t.id },
      data: { status: "submitted", assigneeId: annotator.id, submittedAt: new Date((at += 60_000)) },
    });
  return rows.map((t) => t.id);
}

const version = async (db: Db, id: string) => (await db.trajectory.findUniqueOrThrow({ where: { id } })).version;

/** A complete annotation of the seeded tap step, changed where `patch` says. */
async function fixOf(db: Db, trajectoryId: string, index: number, patch: Partial<StepFix> = {}): Promise<StepFix> {
  const s = (await getTrajectory(trajectoryId, db)).steps[index]!;
  return {
    stepId: s.id,
    version: s.version,
    thought: {
      state: "The search page is open.",
      nextAction: "Tap the search box.",
      purpose: "To type the query.",
      text: "The search page is open. Tap the search box. To type the query.",
    },
    clearAction: "Tap the search box.",
    toolCall: s.toolCall,
    box: s.box,
    verdict: "corrected",
    ...patch,
  };
}

describe("review on SQLite", () => {
  let db: Db;
  let reviewer: Actor;
  let reviewer2: Actor;
  let annotator: Actor;
  let other: Actor;

  beforeAll(async () => {
    ({ db } = await freshStudio());
    reviewer = await actor(db, "rev@example.com", "reviewer");
    reviewer2 = await actor(db, "rev2@example.com", "reviewer");
    annotator = await actor(db, "ann@example.com", "annotator");
    other = await actor(db, "other@example.com", "annotator");
  });

  it("queues submitted work for reviewers only, oldest first, with who is reviewing it", async () => {
    const ids = await seedSubmitted(db, annotator, 2, "queue");
    expect((await reviewQueue({ actor: reviewer }, db)).filter((r) => ids.includes(r.id)).map((r) => [r.id, r.reviewer])).toEqual([
      [ids[0], null],
      [ids[1], null],
    ]);
    await claimReview({ actor: reviewer2, id: ids[1]! }, db);
    expect((await reviewQueue({ actor: reviewer }, db)).find((r) => r.id === ids[1])?.reviewer).toBe("rev2@example.com");
    await expect(reviewQueue({ actor: annotator }, db)).rejects.toMatchObject({ code: "forbidden" });
    await db.trajectory.updateMany({ where: { id: { in: ids } }, data: { status: "approved" } });
  });

  it("refuses a send-back without a reason, fixes with a send-back, a stale version, and annotators; nothing changes", async () => {
    const [id] = await seedSubmitted(db, annotator, 1, "refuse");
    const v = await version(db, id!);
    await expect(decideReview({ actor: reviewer, id: id!, decision: "reject", version: v }, db)).rejects.toThrow(/say why/);
    await expect(
      decideReview({ actor: reviewer, id: id!, decision: "reject", comment: "no", version: v, fixes: [await fixOf(db, id!, 0)] }, db),
    ).rejects.toThrow(/fixes go with an approval/);
    await expect(decideReview({ actor: reviewer, id: id!, decision: "approve", version: v + 5 }, db)).rejects.toMatchObject({
      code: "conflict",
    });
    await expect(decideReview({ actor: annotator, id: id!, decision: "approve", version: v }, db)).rejects.toMatchObject({
      code: "forbidden",
    });
    const t = await db.trajectory.findUniqueOrThrow({ where: { id: id! } });
    expect([t.status, t.version]).toEqual(["submitted", v]);
    expect(await db.reviewDecision.count({ where: { trajectoryId: id! } })).toBe(0);
  });

  it("never lets someone review their own work", async () => {
    const boss = await actor(db, "boss@example.com", "admin");
    const [id] = await seedSubmitted(db, boss, 1, "own");
    await expect(decideReview({ actor: boss, id: id!, decision: "approve", version: await version(db, id!) }, db)).rejects.toThrow(
      /someone else has to review/,
    );
    expect(await startNextReview({ actor: boss }, db)).not.toBe(id); // and "Start next review" never hands it to them
    await db.trajectory.update({ where: { id: id! }, data: { status: "approved" } });
  });

  it("sends back with a reason, shows the resubmission's changes since that decision (outcome included), then approves", async () => {
    const [id] = await seedSubmitted(db, annotator, 1, "loop");
    expect((await reviewContext({ actor: reviewer, id: id! }, db)).lastDecision).toBeNull();
    await decideReview(
      { actor: reviewer, id: id!, decision: "reject", comment: "Step 1: say which box you tap", version: await version(db, id!) },
      db,
    );
    expect((await db.trajectory.findUniqueOrThrow({ where: { id: id! } })).status).toBe("rejected");
    expect((await listComments({ actor: annotator, trajectoryId: id! }, db)).map((c) => [c.stepIndex, c.body])).toEqual([
      [null, "Step 1: say which box you tap"],
    ]);
    // My tasks: the sent-back work comes first, with the reason, ahead of work under way.
    const [underWay] = await seedSubmitted(db, annotator, 1, "under-way");
    await db.trajectory.update({ where: { id: underWay! }, data: { status: "in_progress" } });
    const mine = await listMyTasks({ actor: annotator }, db);
    expect(mine.tasks[0]).toMatchObject({
      id,
      sentBack: { reason: "Step 1: say which box you tap", reviewer: "rev@example.com" },
      openComments: 1,
    });
    expect(mine.tasks.find((x) => x.id === underWay)).toMatchObject({ status: "in_progress", sentBack: null });
    await db.trajectory.update({ where: { id: underWay! }, data: { status: "approved" } });
    // A decision on work that is not submitted is refused by the transition table.
    await expect(decideReview({ actor: reviewer, id: id!, decision: "approve", version: await version(db, id!) }, db)).rejects.toThrow(
      /cannot be approved/,
    );

    // The annotator fixes step 1's clear action and sets the outcome, then resubmits.
    const { stepId: _s, ...fix } = await fixOf(db, id!, 0, { verdict: "good" });
    await saveStepAnnotation({ actor: annotator, stepId: _s, ...fix }, db);
    await saveTrajectoryAnnotation(
      { actor: annotator, id: id!, outcome: "success", isDiscarded: false, cutAfter: null, version: await version(db, id!) },
      db,
    );
    expect((await listMyTasks({ actor: annotator }, db)).tasks[0]).toMatchObject({
      id,
      status: "in_progress",
      sentBack: { reason: "Step 1: say which box you tap" },
    });
    await db.trajectory.update({ where: { id: id! }, data: { status: "submitted" } });

    const ctx = await reviewContext({ actor: reviewer, id: id! }, db);
    expect(ctx.lastDecision).toMatchObject({ decision: "reject", reason: "Step 1: say which box you tap", reviewer: "rev@example.com" });
    expect(ctx.sinceLast!.trajectory).toEqual([{ field: "outcome", before: null, after: "success" }]);
    expect(ctx.sinceLast!.steps.map((s) => [s.index, s.fields.map((f) => f.field)])).toEqual([
      [0, ["thought.state", "thought.nextAction", "thought.purpose", "thought.text", "clearAction", "verdict"]],
    ]);
    expect(ctx.sinceLast!.steps[0]!.fields.find((f) => f.field === "clearAction")).toEqual({
      field: "clearAction",
      before: "",
      after: "Tap the search box.",
    });
    // Chips: what a person changed. The imported box was not touched, so no "box" chip; step 2 was not edited at all.
    const steps = (await getTrajectory(id!, db)).steps;
    expect(ctx.personChanges[steps[0]!.id]).toEqual(["thought", "clearAction"]);
    expect(ctx.personChanges[steps[1]!.id]).toEqual([]);

    await decideReview({ actor: reviewer, id: id!, decision: "approve", version: await version(db, id!) }, db);
    expect((await db.trajectory.findUniqueOrThrow({ where: { id: id! } })).status).toBe("approved");
    const after = await reviewContext({ actor: reviewer, id: id! }, db);
    expect(after.lastDecision?.decision).toBe("approve");
    expect(after.sinceLast).toEqual({ trajectory: [], steps: [] });
    const audit = await db.auditEvent.findMany({ where: { entityId: id!, action: { startsWith: "review." } }, orderBy: { at: "asc" } });
    expect(audit.map((a) => [a.action, JSON.parse(a.beforeJson!).status, JSON.parse(a.afterJson!).status])).toEqual([
      ["review.reject", "submitted", "rejected"],
      ["review.approve", "submitted", "approved"],
    ]);
  });

  it("fix and approve: the reviewer's edits are saved in the same action and audited as theirs", async () => {
    const [id] = await seedSubmitted(db, annotator, 1, "fix");
    const v = await version(db, id!);
    // An incomplete fix (no thought) is refused naming the step, and nothing is written.
    const bad = await fixOf(db, id!, 0, { thought: { state: "", nextAction: "", purpose: "", text: "" } });
    await expect(decideReview({ actor: reviewer, id: id!, decision: "approve", version: v, fixes: [bad] }, db)).rejects.toThrow(
      /Step 1: the fix is incomplete/,
    );
    const stale = { ...(await fixOf(db, id!, 0)), version: 99 };
    await expect(decideReview({ actor: reviewer, id: id!, decision: "approve", version: v, fixes: [stale] }, db)).rejects.toMatchObject({
      code: "conflict",
    });
    expect((await db.trajectory.findUniqueOrThrow({ where: { id: id! } })).status).toBe("submitted");
    expect(await db.auditEvent.count({ where: { action: "step.annotate", actorLabel: "rev@example.com" } })).toBe(0);

    const fix = await fixOf(db, id!, 0, { toolCall: { action: "click", coordinate: [550, 300] } });
    const r = await decideReview({ actor: reviewer, id: id!, decision: "approve", version: v, fixes: [fix] }, db);
    expect(r).toMatchObject({ status: "approved", fixedSteps: [1] });
    const step = await db.step.findUniqueOrThrow({ where: { id: fix.stepId } });
    expect([JSON.parse(step.toolCallJson), step.clearAction, step.version]).toEqual([
      { action: "click", coordinate: [550, 300] },
      "Tap the search box.",
      fix.version + 1,
    ]);
    const edit = await db.auditEvent.findFirstOrThrow({ where: { action: "step.annotate", entityId: fix.stepId } });
    expect(edit.actorLabel).toBe("rev@example.com");
    expect(JSON.parse(edit.afterJson!)).toMatchObject({
      via: "review.fix",
      toolCall: { action: "click", coordinate: [550, 300] },
      stepIndex: 0,
    });
    const approval = await db.auditEvent.findFirstOrThrow({ where: { action: "review.approve", entityId: id! } });
    expect(JSON.parse(approval.afterJson!)).toMatchObject({ fixedSteps: [1] });
    expect((await reviewContext({ actor: reviewer, id: id! }, db)).personChanges[fix.stepId]).toEqual([
      "thought",
      "clearAction",
      "toolCall",
    ]);
  });

  it("claims: one reviewer per task, a lapsed claim is free again, and a decision on someone else's claim is refused", async () => {
    const ids = await seedSubmitted(db, annotator, 2, "claim");
    await db.trajectory.updateMany({ where: { status: "submitted", id: { notIn: ids } }, data: { status: "approved" } });
    const now = Date.now();
    const a = await startNextReview({ actor: reviewer }, db, new Date(now));
    expect(a).toBe(ids[0]);
    expect(await startNextReview({ actor: reviewer }, db, new Date(now))).toBe(a); // own claim first
    expect(await startNextReview({ actor: reviewer2 }, db, new Date(now))).toBe(ids[1]);
    const third = await actor(db, "rev3@example.com", "reviewer");
    expect(await startNextReview({ actor: third }, db, new Date(now + 5 * 60_000))).toBeNull();
    await expect(claimReview({ actor: third, id: a! }, db, new Date(now + 5 * 60_000))).rejects.toThrow(/rev@example.com is reviewing/);
    await expect(
      decideReview({ actor: third, id: a!, decision: "approve", version: await version(db, a!) }, db, new Date(now + 5 * 60_000)),
    ).rejects.toMatchObject({ code: "conflict" });
    // Eleven minutes without a heartbeat: the claim lapsed, the third reviewer gets it.
    expect(await startNextReview({ actor: third }, db, new Date(now + 11 * 60_000))).toBe(a);
    const claims = await db.auditEvent.findMany({ where: { action: "review.claim", entityId: a! }, orderBy: { at: "asc" } });
    expect(claims.map((c) => c.actorLabel)).toEqual(["rev@example.com", "rev3@example.com"]);
    // Leaving without deciding frees it at once (only one's own claim).
    await releaseReview({ actor: reviewer2, id: a! }, db);
    expect((await db.trajectory.findUniqueOrThrow({ where: { id: a! } })).reviewLeaseById).toBe(third.id);
    await releaseReview({ actor: reviewer2, id: ids[1]! }, db);
    expect(await startNextReview({ actor: reviewer }, db, new Date(now + 11 * 60_000))).toBe(ids[1]);
    await decideReview({ actor: third, id: a!, decision: "approve", version: await version(db, a!) }, db, new Date(now + 11 * 60_000));
    expect((await db.trajectory.findUniqueOrThrow({ where: { id: a! } })).reviewLeaseById).toBeNull();
    await db.trajectory.updateMany({ where: { id: { in: ids } }, data: { status: "approved" } });
  });

  it("concurrent 'Start next review' never hands one task to two reviewers", async () => {
    await concurrentClaims(db, annotator, "race-sqlite");
  });

  it("comments: replies and resolve by the assignee and reviewers, nobody else", async () => {
    const [id] = await seedSubmitted(db, annotator, 1, "comments");
    const c = await addComment({ actor: reviewer, trajectoryId: id!, stepIndex: 0, body: "Which box?" }, db);
    await expect(addComment({ actor: other, trajectoryId: id!, body: "sneaky" }, db)).rejects.toMatchObject({ code: "forbidden" });
    await expect(listComments({ actor: other, trajectoryId: id! }, db)).rejects.toMatchObject({ code: "forbidden" });
    await expect(addComment({ actor: annotator, trajectoryId: id!, stepIndex: 9, body: "x" }, db)).rejects.toThrow(
      /step 10 does not exist/,
    );
    await expect(replyToComment({ actor: other, commentId: c.id, body: "me too" }, db)).rejects.toMatchObject({ code: "forbidden" });
    await expect(replyToComment({ actor: annotator, commentId: c.id, body: "  " }, db)).rejects.toThrow(/a reply needs text/);
    await expect(replyToComment({ actor: annotator, commentId: "nope", body: "x" }, db)).rejects.toMatchObject({ code: "not_found" });
    const replied = await replyToComment({ actor: annotator, commentId: c.id, body: "The search box; fixed." }, db);
    expect(replied.replies.map((r) => [r.author, r.body])).toEqual([["ann@example.com", "The search box; fixed."]]);
    await expect(setCommentResolved({ actor: other, commentId: c.id, isResolved: true }, db)).rejects.toMatchObject({ code: "forbidden" });
    expect((await setCommentResolved({ actor: annotator, commentId: c.id, isResolved: true }, db)).isResolved).toBe(true);
    expect((await listComments({ actor: reviewer, trajectoryId: id! }, db)).map((x) => [x.body, x.isResolved, x.replies.length])).toEqual([
      ["Which box?", true, 1],
    ]);
    const audit = await db.auditEvent.findMany({ where: { entityId: id!, action: { startsWith: "comment." } }, orderBy: { at: "asc" } });
    expect(audit.map((a) => [a.action, a.actorLabel])).toEqual([
      ["comment.create", "rev@example.com"],
      ["comment.reply", "ann@example.com"],
      ["comment.resolve", "ann@example.com"],
    ]);
  });
});

/**
 * Six reviewers press "Start next review" at once (twice each) over four submitted tasks: every task
 * goes to exactly one reviewer, two reviewers get nothing, and nobody holds two.
 */
async function concurrentClaims(db: Db, annotator: Actor, tag: string) {
  await db.trajectory.updateMany({ where: { status: "submitted" }, data: { status: "approved" } });
  const ids = await seedSubmitted(db, annotator, 4, tag);
  const reviewers = await Promise.all(Array.from({ length: 6 }, (_, i) => actor(db, `${tag}-${i}@example.com`, "reviewer")));
  const now = new Date();
  const got = await Promise.all(
    [...reviewers, ...reviewers].map((r) => startNextReview({ actor: r }, db, now).then((id) => [r.email, id] as const)),
  );
  const byReviewer = new Map<string, Set<string>>();
  for (const [email, id] of got) if (id) byReviewer.set(email, new Set([...(byReviewer.get(email) ?? []), id]));
  expect([...byReviewer.values()].every((s) => s.size === 1)).toBe(true);
  const claimed = [...byReviewer.values()].map((s) => [...s][0]!);
  expect(claimed.sort()).toEqual([...ids].sort());
  const rows = await db.trajectory.findMany({ where: { id: { in: ids } }, select: { id: true, reviewLeaseById: true } });
  expect(new Set(rows.map((r) => r.reviewLeaseById)).size).toBe(4);
  // The audit trail agrees: every claim of a task was made by the one reviewer who holds it.
  const holder = new Map(rows.map((r) => [r.id, r.reviewLeaseById]));
  const audit = await db.auditEvent.findMany({ where: { action: "review.claim", entityId: { in: ids } } });
  expect(new Set(audit.map((a) => a.entityId))).toEqual(new Set(ids));
  expect(audit.filter((a) => a.actorId !== holder.get(a.entityId!))).toEqual([]);
}

// PostgreSQL: a private server started for this test (Debian's postgresql package); skipped where it is missing.
describe.skipIf(!hasPostgres)("review on PostgreSQL", () => {
  let server: PostgresServer | undefined;
  let db: Db;
  beforeAll(async () => {
    server = startPostgres();
    ({ db } = await server.freshDb());
  }, 60_000);
  afterAll(async () => {
    await db?.$disconnect();
    server?.stop();
  });

  it("concurrent 'Start next review' never hands one task to two reviewers", async () => {
    const annotator = await actor(db, "ann@example.com", "annotator");
    await concurrentClaims(db, annotator, "race-pg");
  });
});
