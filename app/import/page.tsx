import type { Metadata } from "next";
import { ImportForm } from "@/components/import/import-form";
import { RecentBatches } from "@/components/import/recent-batches";
import { pageActor } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Import" };

export default async function ImportPage() {
  await pageActor("/import", "import.run");
  return (
    <main className="page import-page">
      <div className="page-head">
        <h1>Import trajectories</h1>
        <span className="sub">All or nothing: a file with any problem imports nothing.</span>
      </div>
      <ImportForm />
      <RecentBatches />
    </main>
  );
}
