// Issue 11, finding 5: an admin who edited and submitted someone's task (or assigned it to themself,
// edited it and handed it back) could then approve it. Real database, real use cases, and the
// decision through the real POST /api/reviews/:id route with API tokens.
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as reviewRoute } from "@/app/api/reviews/[id]/route";
import type { StepAnnotation } from "@/lib/domain/annotation";
import type { Actor } from "@/lib/domain/permissions";
import { saveStepAnnotation, saveTrajectoryAnnotation, submitTrajectory } from "../annotate";
import { assignTrajectories } from "../annotate/assign";
import { CLI_ACTOR } from "../people/audit";
import type { Db } from "../db";
import { importFile } from "../import";
import { createUser } from "../people";
import { startNextReview } from "./index";
import { createToken } from "../people/tokens";
import { blankPng, freshStudio } from "../testing/fixtures";

let db: Db;
const people = {} as Record<"boss" | "boss2" | "rev" | "ann", Actor & { token: string }>;

const DONE: Record<number, StepAnnotation> = {
  0: {
    thought: {
      state: "The home screen is open.",
      nextAction: "Open the Gmail app.",
      purpose: "To read mail.",
      text: "The home screen is open. Open the Gmail app to read mail.",
    },
    clearAction: "Open Gmail.",
    toolCall: { action: "open", text: "Gmail" },
    box: null,
    verdict: "good",
  },
  1: {
    thought: {
      state: "Gmail is open.",
      nextAction: "The task is complete.",
      purpose: "Nothing is left to do.",
      text: "Gmail is open. The task is complete.",
    },
    clearAction: "Finish the task.",
    toolCall: { action: "terminate", status: "success" },
    box: null,
    verdict: "good",
  },
};

async function complete(who: Actor, id: string, steps = [0, 1]) {
  for (const index of steps) {
    const s = await db.step.findFirstOrThrow({ where: { trajectoryId: id, index } });
    await saveStepAnnotation({ actor: who, stepId: s.id, ...DONE[index]!, version: s.version }, db);
  }
}
async function finishAndSubmit(who: Actor, id: string) {
  const t = await db.trajectory.findUniqueOrThrow({ where: { id } });
  await saveTrajectoryAnnotation({ actor: who, id, outcome: "success", isDiscarded: false, cutAfter: null, version: t.version }, db);
  await submitTrajectory({ actor: who, id }, db);
}
async function decide(who: keyof typeof people, id: string, decision: "approve" | "reject") {
  const { version } = await db.trajectory.findUniqueOrThrow({ where: { id } });
  const res = await reviewRoute(
    new Request(`http://127.0.0.1:3000/api/reviews/${id}`, {
      method: "POST",
      headers: { authorization: `Bearer ${people[who].token}`, "content-type": "application/json" },
      body: JSON.stringify({ decision, version, ...(decision === "reject" ? { comment: "Redo step 1." } : {}) }),
    }),
    { params: Promise.resolve({ id }) },
  );
  return { status: res.status, body: (await res.json()) as { error?: { message: string } } };
}

let ids: string[];
beforeAll(async () => {
  ({ db } = await freshStudio());
  for (const [key, role] of [
    ["boss", "admin"],
    ["boss2", "admin"],
    ["rev", "reviewer"],
    ["ann", "annotator"],
  ] as const) {
    const { person: user } = await createUser({ actor: CLI_ACTOR, email: `${key}@example.com`, role, password: "password-123" }, db);
    people[key] = {
      id: user.id,
      email: user.email,
      name: user.name,
      role,
      token: (await createToken({ actor: CLI_ACTOR, user: user.email, name: "t" }, db)).token,
    };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "guard-"));
  await writeFile(path.join(dir, "a.png"), await blankPng(1080, 2400));
  const line = (goal: string) =>
    `${JSON.stringify({
      goal,
      steps: [
        { action_content: { action: "open", text: "Gmail" }, screenshot: "a.png" },
        { action_content: { action: "terminate", status: "success" }, screenshot: "a.png" },
      ],
    })}\n`;
  await writeFile(path.join(dir, "d.jsonl"), ["t1", "t2", "t3", "t4", "t5"].map(line).join(""));
  await importFile({ file: path.join(dir, "d.jsonl"), format: "ui-s1", db });
  ids = (await db.trajectory.findMany({ orderBy: { instruction: "asc" } })).map((t) => t.id);
  await assignTrajectories({ actor: people.boss, trajectoryIds: ids, assignee: "ann@example.com" }, db);
});

describe("nobody reviews work they edited or submitted", () => {
  it("refuses an admin who edited a step of someone's task, even after the annotator submitted it", async () => {
    const id = ids[0]!;
    await complete(people.boss, id, [0]); // the admin fixes step 1 on the annotator's task
    await complete(people.ann, id, [1]);
    await finishAndSubmit(people.ann, id);
    for (const decision of ["approve", "reject"] as const) {
      const r = await decide("boss", id, decision);
      expect(r.status).toBe(403);
      expect(r.body.error?.message).toMatch(/you edited step 1.*someone else has to review it/);
    }
    expect((await db.trajectory.findUniqueOrThrow({ where: { id } })).status).toBe("submitted");
    expect((await decide("rev", id, "approve")).status).toBe(200);
  });

  it("refuses an admin who submitted someone's task", async () => {
    const id = ids[1]!;
    await complete(people.ann, id);
    const t = await db.trajectory.findUniqueOrThrow({ where: { id } });
    await saveTrajectoryAnnotation(
      { actor: people.ann, id, outcome: "success", isDiscarded: false, cutAfter: null, version: t.version },
      db,
    );
    await submitTrajectory({ actor: people.boss, id }, db);
    const r = await decide("boss", id, "approve");
    expect(r.status).toBe(403);
    expect(r.body.error?.message).toMatch(/you submitted it/);
    expect((await decide("boss2", id, "approve")).status).toBe(200);
  });

  it("refuses an admin who assigned the task to themself, edited it and handed it back", async () => {
    const id = ids[2]!;
    await assignTrajectories({ actor: people.boss, trajectoryIds: [id], assignee: "boss@example.com" }, db);
    await complete(people.boss, id);
    await assignTrajectories({ actor: people.boss, trajectoryIds: [id], assignee: "ann@example.com" }, db);
    await finishAndSubmit(people.ann, id);
    expect((await db.trajectory.findUniqueOrThrow({ where: { id } })).assigneeId).toBe(people.ann.id);
    const approve = await decide("boss", id, "approve");
    expect(approve.status).toBe(403);
    expect(approve.body.error?.message).toMatch(/you edited steps 1, 2/);
    expect((await decide("boss", id, "reject")).status).toBe(403);
    const audit = await db.auditEvent.count({ where: { entityId: id, action: { startsWith: "review." } } });
    expect(audit).toBe(0);
    expect((await decide("rev", id, "reject")).status).toBe(200);
  });

  it("still lets an admin review work they only assigned", async () => {
    const id = ids[3]!;
    await complete(people.ann, id);
    await finishAndSubmit(people.ann, id);
    expect((await decide("boss", id, "approve")).status).toBe(200);
  });

  it("'Start next review' skips work the admin edited and hands it to someone who did not", async () => {
    const id = ids[4]!;
    await complete(people.boss, id, [0]);
    await complete(people.ann, id, [1]);
    await finishAndSubmit(people.ann, id);
    const waiting = await db.trajectory.findMany({ where: { status: "submitted" }, select: { id: true } });
    expect(waiting.map((t) => t.id)).toEqual([id]);
    expect(await startNextReview({ actor: people.boss }, db)).toBeNull();
    expect(await startNextReview({ actor: people.boss2 }, db)).toBe(id);
  });
});
