import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_ACTOR, recordAudit } from "../people/audit";
import { getDashboard } from "./dashboard";
import { importFile } from "../import";
import { createUser } from "../people";
import { blankPng, freshStudio } from "../testing/fixtures";

describe("dashboard", () => {
  it("counts work by app and status, verdicts, each annotator's pipeline and the last two weeks", async () => {
    const { db } = await freshStudio();
    const dir = await mkdtemp(path.join(os.tmpdir(), "dash-"));
    await writeFile(path.join(dir, "s.png"), await blankPng(1080, 2400));
    const line = (goal: string, app: string) =>
      JSON.stringify({
        goal,
        app,
        steps: [
          { action_content: { action: "open", text: app }, screenshot: "s.png" },
          { action_content: { action: "wait", time: 1 }, screenshot: "s.png" },
        ],
      });
    await writeFile(path.join(dir, "d.jsonl"), [line("a", "淘宝"), line("b", "淘宝"), line("c", "美团")].join("\n"));
    await importFile({ file: path.join(dir, "d.jsonl"), format: "ui-s1", db });
    const { person: ann } = await createUser({ actor: CLI_ACTOR, email: "ann@example.com", role: "annotator" }, db);
    const { person: boss } = await createUser({ actor: CLI_ACTOR, email: "boss@example.com", role: "admin" }, db);
    const [a, b] = await db.trajectory.findMany({ where: { app: "淘宝" }, orderBy: { instruction: "asc" } });
    await db.trajectory.update({ where: { id: a!.id }, data: { status: "approved", assigneeId: ann.id } });
    await db.trajectory.update({ where: { id: b!.id }, data: { status: "rejected", assigneeId: ann.id } });
    await db.step.updateMany({ where: { trajectoryId: a!.id }, data: { verdict: "corrected" } });
    await db.step.updateMany({ where: { trajectoryId: b!.id, index: 0 }, data: { verdict: "harmful" } });
    const now = new Date();
    await recordAudit(db, { actor: CLI_ACTOR, action: "review.approve", entityType: "trajectory", entityId: a!.id });
    await recordAudit(db, { actor: CLI_ACTOR, action: "review.reject", entityType: "trajectory", entityId: b!.id });
    await recordAudit(db, { actor: CLI_ACTOR, action: "step.annotate", entityType: "step", entityId: "x" });

    const d = await getDashboard({ actor: { id: boss.id, email: boss.email, name: "B", role: "admin" } }, db, now);
    expect(d.byApp).toEqual([
      { app: "淘宝", new: 0, in_progress: 0, submitted: 0, approved: 1, rejected: 1 },
      { app: "美团", new: 1, in_progress: 0, submitted: 0, approved: 0, rejected: 0 },
    ]);
    expect(d.verdicts).toEqual({ unreviewed: 3, good: 0, corrected: 2, harmful: 1, neutral: 0 });
    expect(d.annotators).toEqual([{ email: "ann@example.com", assigned: 2, inProgress: 0, submitted: 0, approved: 1, sentBack: 1 }]);
    expect(d.review).toEqual({ approved: 1, sentBack: 1 });
    expect(d.daily).toHaveLength(14);
    expect(d.daily.at(-1)).toEqual({ day: now.toISOString().slice(0, 10), stepEdits: 1, submitted: 0, approved: 1, sentBack: 1 });
    await expect(getDashboard({ actor: { id: ann.id, email: ann.email, name: "A", role: "annotator" } }, db)).rejects.toMatchObject({
      code: "forbidden",
    });
  });
});
