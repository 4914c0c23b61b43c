import { beforeAll, describe, expect, it } from "vitest";
import type { Actor, Role } from "@/lib/domain/permissions";
import { auditQueryInput, type AuditQuery } from "@/lib/domain/audit-log";
import { auditFacets, readAudit } from "./audit-query";
import type { Db } from "../db";
import { AppError } from "../errors/errors";
import { freshStudio } from "../testing/fixtures";

const q = (filters: Partial<AuditQuery> = {}): AuditQuery => auditQueryInput.parse(filters);

let db: Db;
const people: Record<"admin" | "reviewer" | "annotator" | "other", Actor> = {} as never;
const steps = { own: "", others: "", unassigned: "" };

async function person(key: keyof typeof people, role: Role) {
  const email = `${key}@test.local`;
  const u = await db.user.create({ data: { id: `u-${key}`, email, name: key, role } });
  people[key] = { id: u.id, email, name: key, role };
}

async function trajectoryWithStep(n: number, assigneeId: string | null): Promise<string> {
  const project = await db.project.upsert({ where: { name: "p" }, create: { name: "p" }, update: {} });
  const t = await db.trajectory.create({
    data: { projectId: project.id, fingerprint: `fp-${n}`, source: "demo", app: "app", instruction: `task ${n}`, stepCount: 1, assigneeId },
  });
  const s = await db.step.create({
    data: { trajectoryId: t.id, index: 0, screenshotSha: "a".repeat(64), originalJson: "{}", toolCallJson: "{}" },
  });
  return s.id;
}

const event = (
  at: string,
  action: string,
  entityType: string,
  entityId: string | null,
  actorLabel: string,
  before?: string,
  after?: string,
) =>
  db.auditEvent.create({
    data: { at: new Date(at), action, entityType, entityId, actorLabel, beforeJson: before ?? null, afterJson: after ?? null },
  });

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

beforeAll(async () => {
  ({ db } = await freshStudio());
  await person("admin", "admin");
  await person("reviewer", "reviewer");
  await person("annotator", "annotator");
  await person("other", "annotator");
  await db.screenshot.create({ data: { sha256: "a".repeat(64), width: 1080, height: 2400, bytes: 1, mime: "image/png" } });
  steps.own = await trajectoryWithStep(1, people.annotator.id);
  steps.others = await trajectoryWithStep(2, people.other.id);
  steps.unassigned = await trajectoryWithStep(3, null);

  await event(
    "2026-03-01T09:00:00Z",
    "user.create",
    "user",
    "u-other",
    "admin@test.local",
    undefined,
    '{"email":"other@test.local","role":"annotator"}',
  );
  await event("2026-03-02T09:00:00Z", "user.update", "user", "u-other", "admin@test.local", '{"role":"annotator"}', '{"role":"reviewer"}');
  await event(
    "2026-03-03T09:00:00Z",
    "step.annotate",
    "step",
    steps.own,
    "annotator@test.local",
    '{"clearAction":"tap"}',
    '{"clearAction":"open"}',
  );
  await event(
    "2026-03-04T09:00:00Z",
    "step.annotate",
    "step",
    steps.own,
    "annotator@test.local",
    '{"clearAction":"open"}',
    '{"clearAction":"open app"}',
  );
  await event("2026-03-05T09:00:00Z", "step.annotate", "step", steps.others, "other@test.local", "not json {", '{"verdict":"harmful"}');
  await event("2026-03-06T09:00:00Z", "export.run", "export", "x", "cli");
});

describe("audit trail for admins", () => {
  it("lists everything newest first with before/after parsed, and keeps text that is not JSON as text", async () => {
    const page = await readAudit({ actor: people.admin, filters: q() }, db);
    expect(page.total).toBe(6);
    expect(page.rows.map((r) => r.action)).toEqual([
      "export.run",
      "step.annotate",
      "step.annotate",
      "step.annotate",
      "user.update",
      "user.create",
    ]);
    const broken = page.rows.find((r) => r.entityId === steps.others)!;
    expect(broken.before).toBe("not json {");
    expect(broken.after).toEqual({ verdict: "harmful" });
    expect(page.rows.find((r) => r.action === "user.update")).toMatchObject({
      before: { role: "annotator" },
      after: { role: "reviewer" },
      at: "2026-03-02T09:00:00.000Z",
    });
    expect(page.rows.at(-1)!.before).toBeNull();
  });

  it("filters by action, entity type and id, actor and date range, and pages", async () => {
    expect((await readAudit({ actor: people.admin, filters: q({ action: "step.annotate" }) }, db)).total).toBe(3);
    expect((await readAudit({ actor: people.admin, filters: q({ entityType: "user" }) }, db)).rows.map((r) => r.action)).toEqual([
      "user.update",
      "user.create",
    ]);
    expect((await readAudit({ actor: people.admin, filters: q({ entityId: steps.own }) }, db)).total).toBe(2);
    // actor matches part of the label, whatever the case typed
    expect((await readAudit({ actor: people.admin, filters: q({ actor: "ANNOTATOR@" }) }, db)).total).toBe(2);
    expect((await readAudit({ actor: people.admin, filters: q({ actor: "cli" }) }, db)).rows.map((r) => r.action)).toEqual(["export.run"]);
    // from inclusive, to exclusive
    const range = await readAudit(
      { actor: people.admin, filters: auditQueryInput.parse({ from: "2026-03-02T09:00:00Z", to: "2026-03-04T09:00:00Z" }) },
      db,
    );
    expect(range.rows.map((r) => r.at)).toEqual(["2026-03-03T09:00:00.000Z", "2026-03-02T09:00:00.000Z"]);
    const combined = await readAudit({ actor: people.admin, filters: q({ action: "step.annotate", actor: "other" }) }, db);
    expect(combined.rows.map((r) => r.entityId)).toEqual([steps.others]);

    const second = await readAudit({ actor: people.admin, filters: auditQueryInput.parse({ page: "2", pageSize: "4" }) }, db);
    expect(second).toMatchObject({ total: 6, page: 2, pageSize: 4 });
    expect(second.rows.map((r) => r.action)).toEqual(["user.update", "user.create"]);
  });

  it("offers the actions and entity types that occur", async () => {
    expect(await auditFacets({ actor: people.admin }, db)).toEqual({
      actions: ["export.run", "step.annotate", "user.create", "user.update"],
      entityTypes: ["export", "step", "user"],
    });
    expect(await codeOf(auditFacets({ actor: people.reviewer }, db))).toBe("forbidden");
  });

  it("refuses bad filters before touching the trail", () => {
    expect(() => auditQueryInput.parse({ from: "yesterday" })).toThrow();
    expect(() => auditQueryInput.parse({ pageSize: "1000" })).toThrow();
  });
});

describe("a step's own history", () => {
  it("an annotator reads the history of a step of their own trajectory", async () => {
    const page = await readAudit({ actor: people.annotator, filters: q({ entityType: "step", entityId: steps.own }) }, db);
    expect(page.total).toBe(2);
    expect(page.rows.map((r) => [r.before, r.after])).toEqual([
      [{ clearAction: "open" }, { clearAction: "open app" }],
      [{ clearAction: "tap" }, { clearAction: "open" }],
    ]);
  });

  it("an annotator may not read another annotator's or unassigned steps, nor the rest of the trail", async () => {
    expect(await codeOf(readAudit({ actor: people.annotator, filters: q({ entityType: "step", entityId: steps.others }) }, db))).toBe(
      "forbidden",
    );
    expect(await codeOf(readAudit({ actor: people.annotator, filters: q({ entityType: "step", entityId: steps.unassigned }) }, db))).toBe(
      "forbidden",
    );
    expect(await codeOf(readAudit({ actor: people.annotator, filters: q({ entityType: "step", entityId: "no-such-step" }) }, db))).toBe(
      "not_found",
    );
    expect(await codeOf(readAudit({ actor: people.annotator, filters: q({ entityType: "step" }) }, db))).toBe("forbidden");
    expect(await codeOf(readAudit({ actor: people.annotator, filters: q({ entityId: steps.own }) }, db))).toBe("forbidden");
    expect(await codeOf(readAudit({ actor: people.annotator, filters: q() }, db))).toBe("forbidden");
  });

  it("the history follows the assignment: reassigning the trajectory moves who may read it", async () => {
    const step = await db.step.findUniqueOrThrow({ where: { id: steps.others } });
    await db.trajectory.update({ where: { id: step.trajectoryId }, data: { assigneeId: people.annotator.id } });
    expect((await readAudit({ actor: people.annotator, filters: q({ entityType: "step", entityId: steps.others }) }, db)).total).toBe(1);
    expect(await codeOf(readAudit({ actor: people.other, filters: q({ entityType: "step", entityId: steps.others }) }, db))).toBe(
      "forbidden",
    );
    await db.trajectory.update({ where: { id: step.trajectoryId }, data: { assigneeId: people.other.id } });
  });

  it("reviewers read any step's history but not the rest of the trail; admins read all", async () => {
    expect((await readAudit({ actor: people.reviewer, filters: q({ entityType: "step", entityId: steps.others }) }, db)).total).toBe(1);
    expect((await readAudit({ actor: people.reviewer, filters: q({ entityType: "step", entityId: steps.unassigned }) }, db)).total).toBe(0);
    expect(await codeOf(readAudit({ actor: people.reviewer, filters: q({ entityType: "user" }) }, db))).toBe("forbidden");
    expect((await readAudit({ actor: people.admin, filters: q({ entityType: "step", entityId: "no-such-step" }) }, db)).total).toBe(0);
  });
});

describe("audit rows name what they touch", () => {
  it("a step by its task's instruction (shortened) and 1-based number, a task by its instruction, a person by name and email", async () => {
    const { db: own } = await freshStudio();
    const admin = await own.user.create({ data: { id: "u-boss", email: "boss@test.local", name: "Lin Boss", role: "admin" } });
    const ann = await own.user.create({ data: { id: "u-ann", email: "ann@test.local", name: "王安", role: "annotator" } });
    await own.screenshot.create({ data: { sha256: "b".repeat(64), width: 1080, height: 2400, bytes: 1, mime: "image/png" } });
    const project = await own.project.create({ data: { name: "p" } });
    const long = `在设置中打开蓝牙，然后把手机名称改成“客厅音箱”，最后返回主屏幕并确认蓝牙图标出现在状态栏里。${"再检查一遍。".repeat(10)}`;
    const traj = await own.trajectory.create({
      data: { projectId: project.id, fingerprint: "fp-x", source: "demo", app: "Settings", instruction: long, stepCount: 3 },
    });
    const step = await own.step.create({
      data: { trajectoryId: traj.id, index: 2, screenshotSha: "b".repeat(64), originalJson: "{}", toolCallJson: "{}" },
    });
    const at = (s: string) => new Date(`2026-05-0${s}T10:00:00Z`);
    await own.auditEvent.createMany({
      data: [
        { at: at("1"), actorId: admin.id, actorLabel: admin.email, action: "user.create", entityType: "user", entityId: ann.id },
        { at: at("2"), actorId: ann.id, actorLabel: ann.email, action: "trajectory.submit", entityType: "trajectory", entityId: traj.id },
        { at: at("3"), actorId: ann.id, actorLabel: ann.email, action: "step.annotate", entityType: "step", entityId: step.id },
        { at: at("4"), actorId: null, actorLabel: "cli", action: "step.annotate", entityType: "step", entityId: "gone-step" },
        { at: at("5"), actorId: null, actorLabel: "system", action: "export.run", entityType: "export", entityId: "exp-1" },
      ],
    });
    const boss: Actor = { id: admin.id, email: admin.email, name: admin.name, role: "admin" };
    const rows = (await readAudit({ actor: boss, filters: q() }, own)).rows;
    const byAction = (a: string, id: string) => rows.find((r) => r.action === a && r.entityId === id)!;

    const stepRow = byAction("step.annotate", step.id);
    expect(stepRow.subject).toEqual({ kind: "step", trajectoryId: traj.id, stepNumber: 3, instruction: expect.any(String) });
    const shown = stepRow.subject?.kind === "step" ? stepRow.subject.instruction : "";
    expect([...shown]).toHaveLength(80);
    expect(shown.endsWith("…")).toBe(true);
    expect(long.startsWith(shown.slice(0, -1))).toBe(true);
    expect(stepRow).toMatchObject({ actorLabel: "ann@test.local", actorName: "王安", entityId: step.id });

    expect(byAction("trajectory.submit", traj.id).subject).toMatchObject({ kind: "trajectory" });
    expect(byAction("user.create", ann.id)).toMatchObject({
      actorName: "Lin Boss",
      subject: { kind: "user", name: "王安", email: "ann@test.local" },
    });
    // A record that no longer exists, or a kind without a name, keeps its id and names nothing.
    expect(byAction("step.annotate", "gone-step")).toMatchObject({ subject: null, actorName: null, actorLabel: "cli" });
    expect(byAction("export.run", "exp-1")).toMatchObject({ subject: null, entityId: "exp-1" });
  });
});
