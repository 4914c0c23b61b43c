import { randomBytes } from "node:crypto";
import { type Db, type Tx, Prisma } from "../db";

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
  await client.$executeRaw(auditStatement(e));
}

/**
 * The audit row's INSERT, in plain SQL both dialects run as written (every save writes one; Prisma's
 * create costs several times the insert). The id is time-ordered like the cuids Prisma made before.
 */
export function auditStatement(e: AuditInput): Prisma.Sql {
  const before = e.before === undefined ? null : JSON.stringify(e.before);
  const after = e.after === undefined ? null : JSON.stringify(e.after);
  return Prisma.sql`
    INSERT INTO "AuditEvent" ("id", "at", "actorId", "actorLabel", "action", "entityType", "entityId", "beforeJson", "afterJson", "ip")
    VALUES (${auditId()}, ${new Date()}, ${e.actor.id}, ${e.actor.label}, ${e.action}, ${e.entityType}, ${e.entityId ?? null}, ${before}, ${after}, ${e.ip ?? null})`;
}

let counter = 0;
/** A cuid-shaped id ("c", time, counter, randomness: 25 characters) that sorts by creation time as cuids do. */
export function auditId(now = Date.now()): string {
  counter = (counter + 1) % 36 ** 4;
  const time = now.toString(36).padStart(8, "0");
  const count = counter.toString(36).padStart(4, "0");
  const rand = randomBytes(8).toString("hex").slice(0, 12);
  return `c${time}${count}${BigInt(`0x${rand}`).toString(36).padStart(12, "0").slice(-12)}`;
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
