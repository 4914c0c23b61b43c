"use client";

import { useQuery } from "@tanstack/react-query";
import { CommentThread } from "@/components/review/comment-thread";
import { openCommentsByStep } from "@/lib/domain/review";
import { useT } from "@/lib/i18n/react";
import { commentsQuery } from "@/lib/queries/review";
import { myTasksQuery } from "@/lib/queries/tasks";

/**
 * What reviewers said, at the top of the editor's side panel: why the task came back, the current
 * step's comments (reply, resolve), and which other steps still have open ones. It sits in the side
 * panel's own flow, so it always has room (never a grid row of its own under the canvas).
 */
export function ReviewNotes({
  trajectoryId,
  stepIndex,
  onPickStep,
}: {
  trajectoryId: string;
  stepIndex: number;
  onPickStep: (index: number) => void;
}) {
  const t = useT();
  const comments = useQuery(commentsQuery(trajectoryId));
  const tasks = useQuery({ ...myTasksQuery(), retry: false });
  const rows = comments.data?.rows ?? [];
  if (rows.length === 0) return null;
  const sentBack = tasks.data?.tasks.find((x) => x.id === trajectoryId)?.sentBack ?? null;
  const task = rows.filter((c) => c.stepIndex === null);
  const here = rows.filter((c) => c.stepIndex === stepIndex);
  const openHere = here.filter((c) => !c.isResolved);
  const resolvedHere = here.filter((c) => c.isResolved);
  const elsewhere = [...openCommentsByStep(rows)].filter(([i]) => i !== stepIndex).sort(([a], [b]) => a - b);
  return (
    <section className="review-notes" aria-label={t("review.comments")}>
      {task.length > 0 && (
        <div className="notes-group">
          <h3>{t("review.comment.taskTitle")}</h3>
          {task.map((c) => (
            <CommentThread
              key={c.id}
              comment={c}
              trajectoryId={trajectoryId}
              tag={sentBack && sentBack.reason === c.body ? t("review.comment.reason") : undefined}
            />
          ))}
        </div>
      )}
      {here.length > 0 && (
        <div className="notes-group" role="group" aria-label={t("review.comment.stepTitle", { n: stepIndex + 1 })}>
          <h3>{t("review.comment.stepTitle", { n: stepIndex + 1 })}</h3>
          {openHere.map((c) => (
            <CommentThread key={c.id} comment={c} trajectoryId={trajectoryId} />
          ))}
          {resolvedHere.length > 0 && (
            <details>
              <summary>{t("review.comment.resolvedCount", { n: resolvedHere.length })}</summary>
              {resolvedHere.map((c) => (
                <CommentThread key={c.id} comment={c} trajectoryId={trajectoryId} />
              ))}
            </details>
          )}
        </div>
      )}
      {elsewhere.length > 0 && (
        <div className="notes-group">
          <h3>{t("review.comment.otherSteps")}</h3>
          <ul className="notes-steps">
            {elsewhere.map(([i, count]) => (
              <li key={i}>
                <button type="button" className="link-btn" onClick={() => onPickStep(i)}>
                  {t("review.comment.goTo", { n: i + 1, count })}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
