import { isMessageKey, type Translate } from "./index";
import type { Formatter } from "./format";

// The audit trail for people (issue 36): actions and fields by name in the person's language, numbers,
// shares and times through the app's formatter, and the ids a record keeps for itself left out.

/** An action's name (`step.annotate` -> "Step saved"); one the catalogue does not name stays as recorded. */
export function auditActionName(action: string, t: Translate): string {
  const key = `audit.act.${action}`;
  return isMessageKey(key) ? t(key) : action;
}

/** A field's name (`stepAccuracy` -> "step accuracy"); `null` for one the catalogue does not name. */
export function auditFieldName(field: string, t: Translate): string | null {
  const key = `audit.field.${field}`;
  return isMessageKey(key) ? t(key) : null;
}

/** Fields that hold a share in 0..1: shown as a percentage. */
const SHARE = /(accuracy|rate|share|progress|agreement|alpha)$/i;
/** Fields whose value is a word the catalogue names (a status, a verdict): which catalogue prefix. */
const NAMED_VALUES: Record<string, string[]> = {
  status: ["status.", "review.status."],
  verdict: ["badge."],
  outcome: ["outcome.", "badge."],
  role: ["role."],
};
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * A field's recorded value as a person reads it: numbers and shares formatted, times in the person's
 * date style, yes/no in words, a status or verdict by its name; anything else as text (JSON for objects).
 */
export function auditValueText(field: string, value: unknown, t: Translate, format: Formatter): string {
  if (value === undefined || value === null) return "—";
  if (typeof value === "boolean") return t(value ? "audit.value.yes" : "audit.value.no");
  if (typeof value === "number") return SHARE.test(field) && value >= 0 && value <= 1 ? format.percent(value) : format.number(value);
  if (typeof value === "string") {
    if (ISO_TIME.test(value)) return format.dateTime(value);
    for (const prefix of NAMED_VALUES[field] ?? []) {
      const key = `${prefix}${value}`;
      if (isMessageKey(key)) return t(key);
    }
    return value;
  }
  return JSON.stringify(value);
}

/**
 * Whether a field is an id (`assigneeId`, `commentId`): a key the studio keeps for itself, never shown.
 * The person it names is recorded beside it (`assignee`), and the row's subject names the record.
 */
export function isHiddenAuditField(field: string): boolean {
  return /Id$/.test(field);
}
