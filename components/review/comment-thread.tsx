"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorBox } from "@/components/ui/states";
import type { CommentView } from "@/lib/domain/review";
import { useT } from "@/lib/i18n/react";
import { patchResolved, postReply, reviewKeys } from "@/lib/queries/review";

/**
 * One comment with its replies, a reply box and Resolve / Reopen. Used on the review page and in the
 * editor's side panel, so the reviewer and the annotator talk in the same thread.
 */
export function CommentThread({
  comment,
  trajectoryId,
  tag,
  lead,
}: {
  comment: CommentView;
  trajectoryId: string;
  tag?: string;
  /** Said instead of "author body" when the page already words the comment (the send-back reason as "Sent back by …: reason"). */
  lead?: string;
}) {
  const t = useT();
  const client = useQueryClient();
  const [draft, setDraft] = useState("");
  const refresh = () => void client.invalidateQueries({ queryKey: reviewKeys.comments(trajectoryId) });
  const reply = useMutation({
    mutationFn: () => postReply(comment.id, { body: draft }),
    onSuccess: () => {
      setDraft("");
      refresh();
    },
  });
  const resolve = useMutation({ mutationFn: (isResolved: boolean) => patchResolved(comment.id, { isResolved }), onSuccess: refresh });
  return (
    <article className={`comment-thread${comment.isResolved ? " is-resolved" : ""}`} aria-label={`${comment.author}: ${comment.body}`}>
      <p className="comment">
        {tag && <span className="chip chip-reason">{tag}</span>}
        {lead ? (
          <span className="comment-body">{lead}</span>
        ) : (
          <>
            <b>{comment.author}</b> <span className="comment-body">{comment.body}</span>
          </>
        )}
        {comment.isResolved && <span className="chip">{t("review.comment.resolved")}</span>}
      </p>
      {comment.replies.length > 0 && (
        <ul className="comment-replies">
          {comment.replies.map((r) => (
            <li key={r.id}>
              <b>{r.author}</b> <span className="comment-body">{r.body}</span>
            </li>
          ))}
        </ul>
      )}
      <form
        className="comment-reply"
        onSubmit={(e) => {
          e.preventDefault();
          if (draft.trim()) reply.mutate();
        }}
      >
        <input
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder={t("review.comment.replyTo", { author: comment.author })}
          aria-label={t("review.comment.replyTo", { author: comment.author })}
        />
        <button type="submit" className="btn btn-small" disabled={!draft.trim() || reply.isPending}>
          {t("review.comment.reply")}
        </button>
        <button type="button" className="btn btn-small" disabled={resolve.isPending} onClick={() => resolve.mutate(!comment.isResolved)}>
          {comment.isResolved ? t("review.comment.reopen") : t("review.comment.resolve")}
        </button>
      </form>
      {reply.isError && <ErrorBox error={reply.error} />}
      {resolve.isError && <ErrorBox error={resolve.error} />}
    </article>
  );
}
