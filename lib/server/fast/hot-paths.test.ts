// The API's hot paths in plain SQL (the session lookup, the editor's trajectory read, the step
// save's update and audit row, the dashboard's counts) give the same answers on SQLite and on
// PostgreSQL: real databases, a real import, real sign-ins through better-auth's handler.
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/domain/permissions";
import { baseUrl } from "../people/auth";
import { authHandler } from "../http/auth-handler";
import { CLI_ACTOR } from "../people/audit";
import { saveStepAnnotation } from "../annotate";
import { DASHBOARD_MAX_AGE_MS, getDashboard } from "../annotate/dashboard";
import type { Db } from "../db";
import { AppError } from "../errors/errors";
import { importFile } from "../import";
import { createUser } from "../people";
import { getActor } from "../people/session";
import { mobileR1Dataset } from "../testing/dataset";
import { freshStudio } from "../testing/fixtures";
import { hasPostgres, startPostgres } from "../testing/postgres";
import { getTrajectory, getTrajectoryFor } from "../annotate/trajectories";

function suite(open: () => Promise<Db>) {
  let db: Db;
  let annotator: Actor;
  let trajectoryId: string;
  beforeAll(async () => {
    db = await open();
    const src = await mkdtemp(path.join(os.tmpdir(), "hot-paths-"));
    await mobileR1Dataset(src, 30, 4);
    expect(await importFile({ file: path.join(src, "data.jsonl"), format: "mobile-r1", db })).toMatchObject({ ok: true });
    const { person } = await createUser({ actor: CLI_ACTOR, email: "hot@example.com", role: "annotator", password: "correct horse" }, db);
    annotator = { id: person.id, email: person.email, name: person.name, role: "annotator", locale: "en" };
    const t = await db.trajectory.findFirstOrThrow({ orderBy: { id: "asc" } });
    trajectoryId = t.id;
    await db.trajectory.update({ where: { id: t.id }, data: { assigneeId: person.id } });
  }, 120_000);
  afterAll(async () => {
    await db?.$disconnect();
  });

  it("knows a signed-in person from their cookie", async () => {
    const res = await authHandler(
      new Request(`${baseUrl()}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: baseUrl(), "x-forwarded-for": "10.6.0.1" },
        body: JSON.stringify({ email: "hot@example.com", password: "correct horse" }),
      }),
    );
    expect(res.status).toBe(200);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(await getActor(new Headers({ cookie }))).toEqual(annotator);
  });

  it("reads a trajectory as Prisma stored it: every field, steps in order, screenshot sizes", async () => {
    const view = await getTrajectoryFor({ actor: annotator, id: trajectoryId }, db);
    const t = await db.trajectory.findUniqueOrThrow({
      where: { id: trajectoryId },
      include: { project: true, assignee: true, steps: { orderBy: { index: "asc" }, include: { screenshot: true } } },
    });
    expect(view).toMatchObject({
      id: t.id,
      project: t.project.name,
      app: t.app,
      instruction: t.instruction,
      status: t.status,
      isDiscarded: false,
      cutAfter: null,
      assignee: "hot@example.com",
      version: t.version,
    });
    expect(view.steps.map((s) => [s.id, s.index, s.screenshot.width, s.screenshot.height, s.version])).toEqual(
      t.steps.map((s) => [s.id, s.index, s.screenshot.width, s.screenshot.height, s.version]),
    );
    const someone: Actor = { ...annotator, id: "someone-else", email: "else@example.com" };
    await expect(getTrajectoryFor({ actor: someone, id: trajectoryId }, db)).rejects.toMatchObject({ code: "forbidden" });
    await expect(getTrajectoryFor({ actor: annotator, id: "missing" }, db)).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses to answer from a stored step that no longer fits the view: our bug, named, not a client error", async () => {
    const t = await db.trajectory.findFirstOrThrow({ where: { id: { not: trajectoryId } }, orderBy: { id: "asc" } });
    const step = await db.step.findFirstOrThrow({ where: { trajectoryId: t.id }, orderBy: { index: "desc" } });
    await db.step.update({ where: { id: step.id }, data: { toolCallJson: JSON.stringify({ action: "teleport" }) } });
    try {
      const read = getTrajectory(t.id, db);
      await expect(read).rejects.toThrow(new RegExp(`stored trajectory ${t.id} failed validation: steps\\.${step.index}\\.toolCall`));
      await expect(read).rejects.not.toBeInstanceOf(AppError);
    } finally {
      await db.step.update({ where: { id: step.id }, data: { toolCallJson: step.toolCallJson } });
    }
    expect((await getTrajectory(t.id, db)).steps[step.index]?.toolCall).toEqual(JSON.parse(step.toolCallJson));
  });

  it("saves a step once per version, writes its audit row, refuses the stale save with the current step, and the dashboard counts the edit", async () => {
    const before = await getTrajectory(trajectoryId, db);
    const step = before.steps[0]!;
    const edit = { ...step, thought: { ...step.thought, text: `${step.thought.text} (edited)` } };
    const input = {
      version: step.version,
      thought: edit.thought,
      clearAction: step.clearAction,
      toolCall: step.toolCall,
      box: step.box,
      verdict: step.verdict,
    };
    const saved = await saveStepAnnotation({ actor: annotator, stepId: step.id, ...input }, db);
    expect(saved.version).toBe(step.version + 1);
    expect(saved.thought.text).toBe(edit.thought.text);
    const row = await db.step.findUniqueOrThrow({ where: { id: step.id } });
    expect(row.updatedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    const audit = await db.auditEvent.findMany({ where: { action: "step.annotate", entityId: step.id } });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.id).toMatch(/^c[0-9a-z]{24}$/);
    expect(audit[0]!.at.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.parse(audit[0]!.afterJson!)).toMatchObject({ version: step.version + 1 });
    expect(audit[0]!.afterJson).toContain("(edited)");

    const stale = await saveStepAnnotation({ actor: annotator, stepId: step.id, ...input }, db).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(AppError);
    expect(stale).toMatchObject({ code: "conflict", details: { current: { version: step.version + 1 } } });
    expect(await db.auditEvent.count({ where: { action: "step.annotate" } })).toBe(1);

    const reviewer: Actor = { id: "r", email: "r@example.com", name: "R", role: "reviewer", locale: "en" };
    const dash = await getDashboard({ actor: reviewer }, db);
    expect(dash.daily.at(-1)).toMatchObject({ stepEdits: 1 });
    expect(dash.daily.slice(0, -1).every((d) => d.stepEdits === 0)).toBe(true);
    expect(Object.values(dash.verdicts).reduce((a, b) => a + b, 0)).toBe(await db.step.count());
    expect(dash.annotators).toEqual([expect.objectContaining({ email: "hot@example.com", assigned: 1, inProgress: 1 })]);

    // One count answers for DASHBOARD_MAX_AGE_MS; after that the next request counts again and sees the change since.
    const t0 = new Date(Date.now() + 10 * DASHBOARD_MAX_AGE_MS);
    const [a, b] = await Promise.all([getDashboard({ actor: reviewer }, db, t0), getDashboard({ actor: reviewer }, db, t0)]);
    expect(a).toBe(b);
    await db.trajectory.updateMany({ where: { assigneeId: null }, data: { assigneeId: annotator.id } });
    expect(await getDashboard({ actor: reviewer }, db, new Date(t0.getTime() + DASHBOARD_MAX_AGE_MS - 1))).toBe(a);
    const later = await getDashboard({ actor: reviewer }, db, new Date(t0.getTime() + DASHBOARD_MAX_AGE_MS));
    expect(later).not.toBe(a);
    expect(later.annotators[0]!.assigned).toBe(await db.trajectory.count());
    await expect(getDashboard({ actor: annotator }, db)).rejects.toMatchObject({ code: "forbidden" });
  });
}

describe("hot paths on SQLite", () => {
  suite(async () => (await freshStudio()).db);
});

describe.skipIf(!hasPostgres)("hot paths on PostgreSQL", () => {
  let server: ReturnType<typeof startPostgres>;
  beforeAll(() => {
    server = startPostgres();
  }, 120_000);
  afterAll(() => server?.stop());
  suite(async () => (await server.freshDb()).db);
});
