import type { Actor } from "@/lib/domain/permissions";
import {
  AUDIT_INSTRUCTION_CHARS,
  type AuditFacets,
  type AuditPage,
  type AuditQuery,
  type AuditRow,
  type AuditSubject,
} from "@/lib/domain/audit-log";
import { db as defaultDb, type Db } from "../db";
import { appError } from "../errors";
import { authorize } from "./session";

/** A recorded JSON column, parsed; text that is not valid JSON is returned as it is. */
function parseRecorded(json: string | null): unknown {
  if (json === null) return null;
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

/**
 * Who may read which part of the audit trail: the history of one step follows the step's
 * trajectory (annotators only their own assigned work; reviewers and admins any); everything else
 * needs audit.read (admins).
 */
async function authorizeAuditRead(actor: Actor, q: AuditQuery, prisma: Db): Promise<void> {
  if (q.entityType === "step" && q.entityId) {
    const step = await prisma.step.findUnique({
      where: { id: q.entityId },
      select: { trajectory: { select: { assigneeId: true, status: true } } },
    });
    if (step) return authorize(actor, "trajectory.read", step.trajectory);
    // A step that no longer exists: its history is for auditors only.
    if (actor.role !== "admin") throw appError("not_found", "error.auditStepMissing", { id: q.entityId });
  }
  authorize(actor, "audit.read");
}

/** The first AUDIT_INSTRUCTION_CHARS code points of an instruction, "…" when cut. */
function shortInstruction(text: string): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length > AUDIT_INSTRUCTION_CHARS ? `${chars.slice(0, AUDIT_INSTRUCTION_CHARS - 1).join("")}…` : chars.join("");
}

type Names = {
  steps: Map<string, { trajectoryId: string; index: number; instruction: string }>;
  trajectories: Map<string, string>;
  people: Map<string, { name: string; email: string }>;
};

/** The records a page of events names (steps, trajectories, people, actors), three queries whatever the page size. */
async function namesOf(events: { actorId: string | null; entityType: string; entityId: string | null }[], prisma: Db): Promise<Names> {
  const ids = (type: string) => [...new Set(events.filter((e) => e.entityType === type && e.entityId).map((e) => e.entityId!))];
  const personIds = [...new Set([...ids("user"), ...events.flatMap((e) => (e.actorId ? [e.actorId] : []))])];
  const [steps, trajectories, people] = await Promise.all([
    prisma.step.findMany({
      where: { id: { in: ids("step") } },
      select: { id: true, index: true, trajectoryId: true, trajectory: { select: { instruction: true } } },
    }),
    prisma.trajectory.findMany({ where: { id: { in: ids("trajectory") } }, select: { id: true, instruction: true } }),
    prisma.user.findMany({ where: { id: { in: personIds } }, select: { id: true, name: true, email: true } }),
  ]);
  return {
    steps: new Map(steps.map((s) => [s.id, { trajectoryId: s.trajectoryId, index: s.index, instruction: s.trajectory.instruction }])),
    trajectories: new Map(trajectories.map((t) => [t.id, t.instruction])),
    people: new Map(people.map((p) => [p.id, { name: p.name, email: p.email }])),
  };
}

function subjectOf(entityType: string, entityId: string | null, names: Names): AuditSubject | null {
  if (!entityId) return null;
  if (entityType === "step") {
    const s = names.steps.get(entityId);
    return s ? { kind: "step", trajectoryId: s.trajectoryId, instruction: shortInstruction(s.instruction), stepNumber: s.index + 1 } : null;
  }
  if (entityType === "trajectory") {
    const instruction = names.trajectories.get(entityId);
    return instruction === undefined ? null : { kind: "trajectory", instruction: shortInstruction(instruction) };
  }
  if (entityType === "user") {
    const p = names.people.get(entityId);
    return p ? { kind: "user", name: p.name, email: p.email } : null;
  }
  return null;
}

/** One page of audit events matching the filters, newest first (`filters`, not spread: the trail has an `actor` filter of its own). */
export async function readAudit(
  { actor, filters: q }: { actor: Actor; filters: AuditQuery },
  prisma: Db = defaultDb(),
): Promise<AuditPage> {
  await authorizeAuditRead(actor, q, prisma);
  const where = {
    ...(q.action ? { action: q.action } : {}),
    ...(q.entityType ? { entityType: q.entityType } : {}),
    ...(q.entityId ? { entityId: q.entityId } : {}),
    ...(q.actor ? { actorLabel: { contains: q.actor.toLowerCase() } } : {}),
    ...(q.from || q.to ? { at: { ...(q.from ? { gte: q.from } : {}), ...(q.to ? { lt: q.to } : {}) } } : {}),
  };
  const [total, events] = await Promise.all([
    prisma.auditEvent.count({ where }),
    prisma.auditEvent.findMany({ where, orderBy: [{ at: "desc" }, { id: "desc" }], skip: (q.page - 1) * q.pageSize, take: q.pageSize }),
  ]);
  const names = await namesOf(events, prisma);
  const rows: AuditRow[] = events.map((e) => ({
    id: e.id,
    at: e.at.toISOString(),
    actorLabel: e.actorLabel,
    actorName: (e.actorId && names.people.get(e.actorId)?.name) || null,
    subject: subjectOf(e.entityType, e.entityId, names),
    action: e.action,
    entityType: e.entityType,
    entityId: e.entityId,
    before: parseRecorded(e.beforeJson),
    after: parseRecorded(e.afterJson),
  }));
  return { rows, total, page: q.page, pageSize: q.pageSize };
}

/** The actions and entity types that occur in the trail, for the filter menus. */
export async function auditFacets({ actor }: { actor: Actor }, prisma: Db = defaultDb()): Promise<AuditFacets> {
  authorize(actor, "audit.read");
  const [actions, types] = await Promise.all([
    prisma.auditEvent.findMany({ distinct: ["action"], select: { action: true }, orderBy: { action: "asc" } }),
    prisma.auditEvent.findMany({ distinct: ["entityType"], select: { entityType: true }, orderBy: { entityType: "asc" } }),
  ]);
  return { actions: actions.map((a) => a.action), entityTypes: types.map((t) => t.entityType) };
}
