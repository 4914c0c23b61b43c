import type { Actor } from "@/lib/domain/permissions";
import type { AuditFacets, AuditPage, AuditQuery, AuditRow } from "@/lib/domain/audit-log";
import { db as defaultDb, type Db } from "./db";
import { AppError } from "./errors";
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
    if (actor.role !== "admin") throw new AppError("not_found", `step ${q.entityId} does not exist`);
  }
  authorize(actor, "audit.read");
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
  const rows: AuditRow[] = events.map((e) => ({
    id: e.id,
    at: e.at.toISOString(),
    actorLabel: e.actorLabel,
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
