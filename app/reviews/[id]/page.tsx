import type { Metadata } from "next";
import { ReviewView } from "@/components/review/review-view";
import { pageActor } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Review" };

export default async function ReviewPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await pageActor(`/reviews/${id}`, "trajectory.review");
  return (
    <main className="page">
      <ReviewView id={id} />
    </main>
  );
}
