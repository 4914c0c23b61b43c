import type { Metadata } from "next";
import { ReviewQueue } from "@/components/review/review-queue";
import { isLocale, translator } from "@/lib/i18n";
import { pageActor } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Review" };

export default async function ReviewsPage() {
  const actor = await pageActor("/reviews", "trajectory.review");
  const t = translator(isLocale(actor.locale) ? actor.locale : "en");
  return (
    <main className="page">
      <div className="page-head">
        <h1>{t("review.queue.title")}</h1>
        <span className="sub">{t("review.queue.sub")}</span>
      </div>
      <ReviewQueue />
    </main>
  );
}
