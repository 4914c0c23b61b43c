import { STATUS_LABELS, type TaskStatus } from "@/lib/domain/status";

export function StatusBadge({ status }: { status: TaskStatus }) {
  return <span className={`badge badge-${status}`}>{STATUS_LABELS[status]}</span>;
}

/** Outcome or verdict: a coloured word, or a dash when unknown. */
export function Badge({ value, title }: { value: string | null; title?: string }) {
  if (!value) return <span className="muted">—</span>;
  return (
    <span className={`badge badge-${value}`} title={title}>
      {value}
    </span>
  );
}
