import type { Metadata } from "next";
import { ReviewView, type AfterDecision } from "@/components/review/review-view";
import { pageActor } from "@/lib/server/pages";

export const metadata: Metadata = { title: "Review" };

export default async function ReviewPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ after?: string }>;
}) {
  const { id } = await params;
  const { after } = await searchParams;
  await pageActor(`/reviews/${id}`, "trajectory.review");
  const decided: AfterDecision = after === "approve" || after === "reject" ? after : null;
  return (
    <main className="page">
      <ReviewView id={id} after={decided} />
    </main>
  );
}
