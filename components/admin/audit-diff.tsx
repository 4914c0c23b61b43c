import { auditFieldName, auditValueText, isHiddenAuditField } from "@/lib/i18n/audit-words";
import { useFormat, useT } from "@/lib/i18n/react";
import { fieldChanges } from "@/lib/queries/audit";

const SHOWN = 160;
const clip = (s: string) => (s.length > SHOWN ? `${s.slice(0, SHOWN)}…` : s);

/**
 * The fields an audit row changed, as before → after (a field that was set shows only its value,
 * a removed one only its old value, struck through), each named in the person's language with its
 * value formatted for people (lib/i18n/audit-words.ts); ids the studio keeps for itself are left out.
 * Values are always rendered as text (React escapes them), clipped for the table with the full text in the tooltip.
 */
export function AuditDiff({ before, after }: { before: unknown; after: unknown }) {
  const t = useT();
  const format = useFormat();
  const changes = fieldChanges(before, after, (field, v) => auditValueText(field, v, t, format)).filter(
    (c) => !isHiddenAuditField(c.field),
  );
  if (changes.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="diff">
      {changes.map((c, i) => {
        const name = c.field ? auditFieldName(c.field, t) : null;
        return (
          <li key={`${c.field}-${i}`}>
            {c.field &&
              (name ? (
                <span className="diff-field">{name}:</span>
              ) : (
                <code className="diff-field" data-i18n="data">
                  {c.field}:
                </code>
              ))}{" "}
            {c.kind !== "set" && (
              <span className={c.kind === "removed" ? "diff-before diff-removed" : "diff-before"} title={c.before} data-i18n="data">
                {clip(c.before)}
              </span>
            )}
            {c.kind === "changed" && (
              <>
                {" "}
                <span className="diff-arrow">→</span>{" "}
              </>
            )}
            {c.kind !== "removed" && (
              <span className="diff-after" title={c.after} data-i18n="data">
                {clip(c.after)}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
