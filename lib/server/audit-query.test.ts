import { beforeAll, describe, expect, it } from "vitest";
import type { Actor, Role } from "@/lib/domain/permissions";
import { auditQueryInput, type AuditQuery } from "@/lib/domain/audit-log";
import { auditFacets, readAudit } from "./audit-query";
import type { Db } from "./db";
import { AppError } from "./errors";
import { freshStudio } from "./testing/fixtures";

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
