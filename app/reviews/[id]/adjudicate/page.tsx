import type { Metadata } from "next";
import { Adjudication } from "@/components/review/adjudication";
import { pageActor } from "@/lib/server/pages";

export const metadata: Metadata = { title: "Adjudicate" };

export default async function AdjudicatePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await pageActor(`/reviews/${id}/adjudicate`, "trajectory.review");
  return (
    <main className="page">
      <Adjudication id={id} />
    </main>
  );
}
