import { fieldChanges } from "@/lib/queries/audit";

const SHOWN = 160;
const clip = (s: string) => (s.length > SHOWN ? `${s.slice(0, SHOWN)}…` : s);

/**
 * The fields an audit row changed, as before → after (a field that was set shows only its value,
 * a removed one only its old value, struck through). Values are always rendered as text (React
 * escapes them), clipped for the table with the full text in the tooltip.
 */
export function AuditDiff({ before, after }: { before: unknown; after: unknown }) {
  const changes = fieldChanges(before, after);
  if (changes.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="diff" data-i18n="data">
      {changes.map((c, i) => (
        <li key={`${c.field}-${i}`}>
          {c.field && <code className="diff-field">{c.field}:</code>}{" "}
          {c.kind !== "set" && (
            <span className={c.kind === "removed" ? "diff-before diff-removed" : "diff-before"} title={c.before}>
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
            <span className="diff-after" title={c.after}>
              {clip(c.after)}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
