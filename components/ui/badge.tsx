"use client";

import type { TaskStatus } from "@/lib/domain/status";
import type { MessageKey } from "@/lib/i18n";
import { useT } from "@/lib/i18n/react";

export function StatusBadge({ status }: { status: TaskStatus }) {
  const t = useT();
  return <span className={`badge badge-${status}`}>{t(`status.${status}`)}</span>;
}

/** Outcomes and verdicts the catalogue names; any other value is shown as it is. */
const BADGE_KEYS: Record<string, MessageKey> = {
  success: "badge.success",
  failure: "badge.failure",
  unreviewed: "badge.unreviewed",
  good: "badge.good",
  corrected: "badge.corrected",
  harmful: "badge.harmful",
  neutral: "badge.neutral",
};

/** Outcome or verdict: a coloured word, or a dash when unknown. */
export function Badge({ value, title }: { value: string | null; title?: string }) {
  const t = useT();
  if (!value) return <span className="muted">—</span>;
  const key = Object.hasOwn(BADGE_KEYS, value) ? BADGE_KEYS[value] : undefined;
  return (
    <span className={`badge badge-${value}`} title={title}>
      {key ? t(key) : value}
    </span>
  );
}
