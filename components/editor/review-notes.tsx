"use client";

import { useQuery } from "@tanstack/react-query";
import { useT } from "@/lib/i18n/react";
import { commentsQuery } from "@/lib/queries/review";

/**
 * What reviewers said: the reason work was sent back (a trajectory comment) and comments on steps.
 * Shown above the editor so an annotator sees why the task came back before changing anything.
 */
export function ReviewNotes({ trajectoryId, onPickStep }: { trajectoryId: string; onPickStep: (index: number) => void }) {
  const t = useT();
  const comments = useQuery(commentsQuery(trajectoryId));
  const rows = comments.data?.rows ?? [];
  if (rows.length === 0) return null;
  return (
    <section className="review-notes" aria-label={t("review.comments")}>
      <strong>{t("review.comments")}</strong>
      <ul>
        {rows.map((c) => (
          <li key={c.id}>
            {c.stepIndex !== null && (
              <button type="button" className="btn btn-ghost step-link" onClick={() => onPickStep(c.stepIndex!)}>
                #{c.stepIndex + 1}
              </button>
            )}
            <b>{c.author}</b> <span>{c.body}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
