import type { Db, Tx } from "./db";

export type AuditActor = { id: string | null; label: string };
export const CLI_ACTOR: AuditActor = { id: null, label: "cli" };
export const SYSTEM_ACTOR: AuditActor = { id: null, label: "system" };

export type AuditInput = {
  actor: AuditActor;
  action: string;
  entityType: string;
  entityId?: string | null;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
};

/**
 * Record one change: who, when, what, and the before/after of the fields it touched. Call it inside
 * the same transaction as the change so a change never lands without its audit row.
 */
export async function recordAudit(client: Db | Tx, e: AuditInput): Promise<void> {
  await client.auditEvent.create({
    data: {
      actorId: e.actor.id,
      actorLabel: e.actor.label,
      action: e.action,
      entityType: e.entityType,
      entityId: e.entityId ?? null,
      beforeJson: e.before === undefined ? null : JSON.stringify(e.before),
      afterJson: e.after === undefined ? null : JSON.stringify(e.after),
      ip: e.ip ?? null,
    },
  });
}

/** The fields of `after` whose values differ from `before`, as {before, after} pairs for the audit row. */
export function changedFields<T extends Record<string, unknown>>(before: T, after: Partial<T>): { before: Partial<T>; after: Partial<T> } {
  const b: Partial<T> = {};
  const a: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      b[key] = before[key];
      a[key] = after[key];
    }
  }
  return { before: b, after: a };
}
