import { z } from "zod";
import { hasRefusedCharacter, REFUSED_CHARACTER_MESSAGE } from "./limits";

// Wire shapes of the audit API: route handlers shape their answers with these, the client parses them.

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((s) => !hasRefusedCharacter(s), REFUSED_CHARACTER_MESSAGE)
    .optional();

/**
 * Filters of GET /api/audit. `actor` matches part of the actor's label (an email, "cli", "system");
 * `from` is inclusive and `to` exclusive (ISO dates or date-times).
 */
export const auditQueryInput = z.object({
  action: text(100),
  entityType: text(50),
  entityId: text(200),
  actor: text(200),
  from: z.coerce.date().optional(),
  to: z.coerce.date().optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.infer<typeof auditQueryInput>;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a day (YYYY-MM-DD)")
  .optional();

/** The audit page's filters as its URL keeps them: the API's filters, but dates as calendar days in the browser's time zone. */
export const auditFiltersSchema = auditQueryInput
  .pick({ action: true, entityType: true, entityId: true, actor: true, page: true })
  .extend({ from: day, to: day });
export type AuditFilters = z.infer<typeof auditFiltersSchema>;

/** Longest instruction an audit row carries (code points; longer ones end in "…"): enough to recognise the task. */
export const AUDIT_INSTRUCTION_CHARS = 80;

/**
 * What an audit row touches, in words a person recognises (the id stays in `entityId`): a step by
 * its trajectory's instruction and its 1-based number, a trajectory by its instruction, a person by
 * name and email. Null for other records, or when the record no longer exists.
 */
export const auditSubjectSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("step"), trajectoryId: z.string(), instruction: z.string(), stepNumber: z.number().int().min(1) }),
  z.object({ kind: z.literal("trajectory"), instruction: z.string() }),
  z.object({ kind: z.literal("user"), name: z.string(), email: z.string() }),
]);
export type AuditSubject = z.infer<typeof auditSubjectSchema>;

export const auditRowSchema = z.object({
  id: z.string(),
  at: z.string(),
  actorLabel: z.string(),
  /** The actor's name today, when the actor is a person who still exists. */
  actorName: z.string().nullable(),
  subject: auditSubjectSchema.nullable(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string().nullable(),
  /** The recorded JSON, parsed; a value that is not valid JSON comes back as its raw text. */
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;

export const auditPageSchema = z.object({ rows: z.array(auditRowSchema), total: z.number(), page: z.number(), pageSize: z.number() });
export type AuditPage = z.infer<typeof auditPageSchema>;

export const auditFacetsSchema = z.object({ actions: z.array(z.string()), entityTypes: z.array(z.string()) });
export type AuditFacets = z.infer<typeof auditFacetsSchema>;

export const AUDIT_PAGE_SIZE = 50;
