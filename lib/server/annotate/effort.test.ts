// Time and effort (issue 26 item 5): the editor's reports add up per person and step, a report on
// a step outside the trajectory or on someone else's task changes nothing, and the dashboard's
// medians by person, app and action type are those of a hand-computed table.
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { dashboardTable } from "@/lib/domain/dashboard-tables";
import type { Actor } from "@/lib/domain/permissions";
import { CLI_ACTOR, recordAudit } from "../people/audit";
import type { Db } from "../db";
import { effortFigures, recordEffort } from "./effort";
import { importFile } from "../import";
import { createUser } from "../people";
import { auditActor } from "../people/session";
import { blankPng, freshStudio } from "../testing/fixtures";

let db: Db;
const people = {} as Record<"ann" | "bob" | "rev", Actor>;
let taobao: { id: string; steps: string[] };
let meituan: { id: string; steps: string[] };

beforeAll(async () => {
  ({ db } = await freshStudio());
  for (const [key, role] of [
    ["ann", "annotator"],
    ["bob", "annotator"],
    ["rev", "reviewer"],
  ] as const) {
    const { person } = await createUser({ actor: CLI_ACTOR, email: `${key}@example.com`, role }, db);
    people[key] = { id: person.id, email: person.email, name: key, role };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "effort-"));
  await writeFile(path.join(dir, "s.png"), await blankPng(1080, 2400));
  const line = (goal: string, app: string) =>
    JSON.stringify({
      goal,
      app,
      steps: [
        { action_content: { action: "click", coordinate: [10, 10] }, screenshot: "s.png" },
        { action_content: { action: "type", text: "hi" }, screenshot: "s.png" },
      ],
    });
  await writeFile(path.join(dir, "d.jsonl"), [line("a", "淘宝"), line("b", "美团")].join("\n"));
  await importFile({ file: path.join(dir, "d.jsonl"), format: "ui-s1", db });
  const load = async (app: string) => {
    const t = await db.trajectory.findFirstOrThrow({ where: { app }, include: { steps: { orderBy: { index: "asc" } } } });
    return { id: t.id, steps: t.steps.map((s) => s.id) };
  };
  taobao = await load("淘宝");
  meituan = await load("美团");
  await db.trajectory.update({ where: { id: taobao.id }, data: { assigneeId: people.ann.id } });
  await db.trajectory.update({ where: { id: meituan.id }, data: { assigneeId: people.bob.id } });
});

describe("active time reports", () => {
  it("add up per person and step", async () => {
    const [s0, s1] = taobao.steps as [string, string];
    await recordEffort({ actor: people.ann, trajectoryId: taobao.id, steps: [{ stepId: s0, activeMs: 10_000 }] }, db);
    await recordEffort(
      {
        actor: people.ann,
        trajectoryId: taobao.id,
        steps: [
          { stepId: s0, activeMs: 5_000 },
          { stepId: s1, activeMs: 40_000 },
        ],
      },
      db,
    );
    const rows = await db.stepEffort.findMany({ where: { userId: people.ann.id }, orderBy: { activeMs: "asc" } });
    expect(rows.map((r) => [r.stepId, r.activeMs, r.reports])).toEqual([
      [s0, 15_000, 2],
      [s1, 40_000, 1],
    ]);
  });

  it("refuses a step of another trajectory, someone else's task and an over-long report, and changes nothing", async () => {
    const before = await db.stepEffort.findMany({ orderBy: [{ userId: "asc" }, { stepId: "asc" }] });
    await expect(
      recordEffort(
        {
          actor: people.ann,
          trajectoryId: taobao.id,
          steps: [
            { stepId: taobao.steps[0]!, activeMs: 1 },
            { stepId: meituan.steps[0]!, activeMs: 1 },
          ],
        },
        db,
      ),
    ).rejects.toMatchObject({ code: "unprocessable" });
    await expect(
      recordEffort({ actor: people.ann, trajectoryId: meituan.id, steps: [{ stepId: meituan.steps[0]!, activeMs: 1 }] }, db),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      recordEffort({ actor: people.ann, trajectoryId: taobao.id, steps: [{ stepId: taobao.steps[0]!, activeMs: 10 * 60_000 }] }, db),
    ).rejects.toThrow();
    expect(await db.stepEffort.findMany({ orderBy: [{ userId: "asc" }, { stepId: "asc" }] })).toEqual(before);
  });

  it("the dashboard: medians per step by person, app and action type, saves from the audit trail; reviewers only", async () => {
    await recordEffort({ actor: people.bob, trajectoryId: meituan.id, steps: [{ stepId: meituan.steps[0]!, activeMs: 20_000 }] }, db);
    for (let i = 0; i < 3; i++)
      await recordAudit(db, { actor: auditActor(people.ann), action: "step.annotate", entityType: "step", entityId: taobao.steps[1]! });
    // ann: 15 s (click), 40 s (type); bob: 20 s (click)
    const f = await effortFigures({ actor: people.rev }, db);
    expect(f.overall).toEqual({ steps: 3, medianMs: 20_000, totalMs: 75_000, edits: 3 });
    expect(f.byPerson).toEqual([
      { email: "ann@example.com", steps: 2, medianMs: 27_500, totalMs: 55_000, edits: 3 },
      { email: "bob@example.com", steps: 1, medianMs: 20_000, totalMs: 20_000, edits: 0 },
    ]);
    expect(f.byApp.map((r) => [r.app, r.medianMs])).toEqual([
      ["淘宝", 27_500],
      ["美团", 20_000],
    ]);
    expect(f.byActionType.map((r) => [r.actionType, r.steps, r.medianMs])).toEqual([
      ["click", 2, 17_500],
      ["type", 1, 40_000],
    ]);
    expect(dashboardTable("effort-by-person", { effort: f }).rows[0]).toEqual(["ann@example.com", 2, 27_500, 55_000, 3]);
    await expect(effortFigures({ actor: people.ann }, db)).rejects.toMatchObject({ code: "forbidden" });
  });
});
