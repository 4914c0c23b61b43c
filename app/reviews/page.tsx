import type { Metadata } from "next";
import { ReviewQueue, type QueueNotice } from "@/components/review/review-queue";
import { isLocale, translator } from "@/lib/i18n";
import { pageActor } from "@/lib/server/pages";

export const metadata: Metadata = { title: "Review" };

const NOTICES = ["approve", "reject", "none"] as const;

export default async function ReviewsPage({ searchParams }: { searchParams: Promise<{ after?: string }> }) {
  const actor = await pageActor("/reviews", "trajectory.review");
  const t = translator(isLocale(actor.locale) ? actor.locale : "en");
  const { after } = await searchParams;
  const notice: QueueNotice = NOTICES.find((n) => n === after) ?? null;
  return (
    <main className="page">
      <div className="page-head">
        <h1>{t("review.queue.title")}</h1>
        <span className="sub">{t("review.queue.sub")}</span>
      </div>
      <ReviewQueue notice={notice} />
    </main>
  );
}
