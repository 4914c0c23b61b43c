import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import { CLI_ACTOR } from "./audit";
import type { Db } from "./db";
import { createUser } from "./people";
import { addComment, decideReview, listComments, reviewQueue } from "./review";
import { freshStudio, blankPng } from "./testing/fixtures";
import { importFile } from "./import";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

let db: Db;
let reviewer: Actor;
let annotator: Actor;
let other: Actor;
let trajectoryId: string;

async function actor(email: string, role: Actor["role"]): Promise<Actor> {
  const { person: user } = await createUser({ actor: CLI_ACTOR, email, role, password: "password-123" }, db);
  return { id: user.id, email: user.email, name: user.name, role };
}

beforeAll(async () => {
  ({ db } = await freshStudio());
  reviewer = await actor("rev@example.com", "reviewer");
  annotator = await actor("ann@example.com", "annotator");
  other = await actor("other@example.com", "annotator");
  const dir = await mkdtemp(path.join(os.tmpdir(), "review-"));
  await writeFile(path.join(dir, "a.png"), await blankPng(1080, 2400));
  await writeFile(path.join(dir, "d.jsonl"), `${JSON.stringify({ goal: "Open Gmail", steps: [{ action_content: { action: "open", text: "Gmail" }, screenshot: "a.png" }, { action_content: { action: "terminate", status: "success" }, screenshot: "a.png" }] })}\n`);
  await importFile({ file: path.join(dir, "d.jsonl"), format: "ui-s1", db });
  const t = await db.trajectory.findFirstOrThrow();
  trajectoryId = t.id;
  await db.trajectory.update({ where: { id: t.id }, data: { status: "submitted", assigneeId: annotator.id, submittedAt: new Date() } });
});

describe("review", () => {
  it("queues submitted work for reviewers only", async () => {
    expect((await reviewQueue(reviewer, db)).map((r) => r.id)).toEqual([trajectoryId]);
    await expect(reviewQueue(annotator, db)).rejects.toMatchObject({ code: "forbidden" });
  });

  it("refuses a send-back without a reason, a stale version, and annotators", async () => {
    const t = await db.trajectory.findUniqueOrThrow({ where: { id: trajectoryId } });
    await expect(decideReview(reviewer, trajectoryId, { decision: "reject", version: t.version }, db)).rejects.toThrow(/say why/);
    await expect(decideReview(reviewer, trajectoryId, { decision: "approve", version: t.version - 1 + 5 }, db)).rejects.toMatchObject({ code: "conflict" });
    await expect(decideReview(annotator, trajectoryId, { decision: "approve", version: t.version }, db)).rejects.toMatchObject({ code: "forbidden" });
    expect((await db.trajectory.findUniqueOrThrow({ where: { id: trajectoryId } })).status).toBe("submitted");
  });

  it("sends back with a comment, then approves the resubmission, each with an audit row", async () => {
    let t = await db.trajectory.findUniqueOrThrow({ where: { id: trajectoryId } });
    await decideReview(reviewer, trajectoryId, { decision: "reject", comment: "Step 1 needs a box", version: t.version }, db);
    t = await db.trajectory.findUniqueOrThrow({ where: { id: trajectoryId } });
    expect(t.status).toBe("rejected");
    expect((await listComments(annotator, trajectoryId, db)).map((c) => c.body)).toEqual(["Step 1 needs a box"]);
    // A decision on work that is not submitted is refused by the transition table.
    await expect(decideReview(reviewer, trajectoryId, { decision: "approve", version: t.version }, db)).rejects.toThrow(/cannot be approved/);
    await db.trajectory.update({ where: { id: trajectoryId }, data: { status: "submitted" } });
    await decideReview(reviewer, trajectoryId, { decision: "approve", version: t.version }, db);
    expect((await db.trajectory.findUniqueOrThrow({ where: { id: trajectoryId } })).status).toBe("approved");
    const audit = await db.auditEvent.findMany({ where: { entityId: trajectoryId, action: { startsWith: "review." } }, orderBy: { at: "asc" } });
    expect(audit.map((a) => [a.action, JSON.parse(a.beforeJson!).status, JSON.parse(a.afterJson!).status])).toEqual([
      ["review.reject", "submitted", "rejected"],
      ["review.approve", "submitted", "approved"],
    ]);
  });

  it("never lets someone review their own work", async () => {
    const { person: user } = await createUser({ actor: CLI_ACTOR, email: "boss@example.com", role: "admin", password: "password-123" }, db);
    const boss: Actor = { id: user.id, email: user.email, name: user.name, role: "admin" };
    await db.trajectory.update({ where: { id: trajectoryId }, data: { status: "submitted", assigneeId: boss.id } });
    const t = await db.trajectory.findUniqueOrThrow({ where: { id: trajectoryId } });
    await expect(decideReview(boss, trajectoryId, { decision: "approve", version: t.version }, db)).rejects.toThrow(/someone else has to review/);
    await db.trajectory.update({ where: { id: trajectoryId }, data: { assigneeId: annotator.id } });
  });

  it("lets only the assignee (or reviewers) comment and read", async () => {
    await addComment(annotator, { trajectoryId, stepIndex: 0, body: "Fixed the box" }, db);
    await expect(addComment(other, { trajectoryId, body: "sneaky" }, db)).rejects.toMatchObject({ code: "forbidden" });
    await expect(listComments(other, trajectoryId, db)).rejects.toMatchObject({ code: "forbidden" });
    await expect(addComment(annotator, { trajectoryId, stepIndex: 9, body: "x" }, db)).rejects.toThrow(/step 10 does not exist/);
  });
});
