"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import { useT } from "@/lib/i18n/react";
import { reviewQueueQuery } from "@/lib/queries/review";

export function ReviewQueue() {
  const t = useT();
  const q = useQuery(reviewQueueQuery());
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorBox error={q.error} />;
  if (q.data.rows.length === 0) return <EmptyState title={t("review.queue.empty")} />;
  return (
    <table className="table">
      <thead>
        <tr>
          <th>{t("review.queue.app")}</th>
          <th>{t("review.queue.instruction")}</th>
          <th>{t("review.queue.steps")}</th>
          <th>{t("review.queue.annotator")}</th>
          <th>{t("review.queue.submitted")}</th>
        </tr>
      </thead>
      <tbody>
        {q.data.rows.map((r) => (
          <tr key={r.id}>
            <td>{r.app}</td>
            <td>
              <Link href={`/reviews/${r.id}`}>{r.instruction}</Link>
            </td>
            <td>{r.stepCount}</td>
            <td>{r.annotator ?? "—"}</td>
            <td>{r.submittedAt ? new Date(r.submittedAt).toLocaleString() : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
