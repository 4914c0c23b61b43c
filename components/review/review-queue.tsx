"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { HelpOverlay } from "@/components/editor/help-overlay";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import { reviewQueueShortcuts } from "@/lib/canvas/review-shortcuts";
import { useFormat, useT } from "@/lib/i18n/react";
import { postNextReview, reviewQueueQuery } from "@/lib/queries/review";
import { useShortcuts } from "@/components/shortcuts/use-shortcuts";
import "@/components/editor/editor.css";

/** After a decision with nothing left, or a "Start next review" that found nothing. */
export type QueueNotice = "approve" | "reject" | "none" | null;

export function ReviewQueue({ notice = null }: { notice?: QueueNotice }) {
  const t = useT();
  const format = useFormat();
  const router = useRouter();
  const q = useQuery(reviewQueueQuery());
  const next = useMutation({ mutationFn: postNextReview });
  const [isHelpOpen, setHelpOpen] = useState(false);
  const startNext = async () => {
    const id = await next.mutateAsync().catch(() => undefined);
    if (id) router.push(`/reviews/${id}`);
  };
  const shortcuts = useMemo(() => reviewQueueShortcuts({ startNext: () => void startNext(), help: () => setHelpOpen((v) => !v) }), []); // eslint-disable-line react-hooks/exhaustive-deps
  useShortcuts<void>(shortcuts, () => undefined, !isHelpOpen);
  const message = next.data === null || notice === "none" ? t("review.next.none") : notice ? t(`review.after.${notice}.none`) : null;
  return (
    <>
      <div className="row queue-actions">
        <button type="button" className="btn btn-primary" onClick={() => void startNext()} disabled={next.isPending}>
          {next.isPending ? t("review.next.starting") : t("review.next")} <span className="kbd kbd-on-primary">N</span>
        </button>
      </div>
      {message && (
        <p className="notice" role="status">
          {message}
        </p>
      )}
      {next.isError && <ErrorBox error={next.error} />}
      {q.isPending ? (
        <Loading />
      ) : q.isError ? (
        <ErrorBox error={q.error} />
      ) : q.data.rows.length === 0 ? (
        <EmptyState title={t("review.queue.empty")} />
      ) : (
        <table className="table" aria-label={t("review.queue.title")}>
          <thead>
            <tr>
              <th>{t("review.queue.app")}</th>
              <th>{t("review.queue.instruction")}</th>
              <th>{t("review.queue.steps")}</th>
              <th>{t("review.queue.annotator")}</th>
              <th>{t("review.queue.submitted")}</th>
              <th>{t("review.queue.reviewer")}</th>
            </tr>
          </thead>
          <tbody>
            {q.data.rows.map((r) => (
              <tr key={r.id}>
                <td data-i18n="data">{r.app}</td>
                <td>
                  <Link href={r.adjudicate ? `/reviews/${r.id}/adjudicate` : `/reviews/${r.id}`} data-i18n="data">
                    {r.instruction}
                  </Link>
                  {r.isResubmission && <span className="chip chip-since">{t("review.queue.resubmitted")}</span>}
                  {r.adjudicate > 0 && (
                    <Link href={`/reviews/${r.id}/adjudicate`} className="chip chip-since">
                      {t("review.queue.adjudicate", { n: r.adjudicate })}
                    </Link>
                  )}
                </td>
                <td>{r.stepCount}</td>
                <td data-i18n="data">{r.annotator ?? "—"}</td>
                <td>{format.dateTime(r.submittedAt)}</td>
                <td data-i18n="data">{r.reviewer ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {isHelpOpen && <HelpOverlay shortcuts={shortcuts} onClose={() => setHelpOpen(false)} />}
    </>
  );
}
