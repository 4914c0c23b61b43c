import type { Metadata } from "next";
import { ImportForm } from "@/components/import/import-form";
import { RecentBatches } from "@/components/import/recent-batches";
import { isLocale, translator } from "@/lib/i18n";
import { pageActor } from "@/lib/server/pages";

export const metadata: Metadata = { title: "Import" };

export default async function ImportPage() {
  const actor = await pageActor("/import", "import.run");
  const t = translator(isLocale(actor.locale) ? actor.locale : "en");
  return (
    <main className="page import-page">
      <div className="page-head">
        <h1>{t("import.title")}</h1>
        <span className="sub">{t("import.sub")}</span>
      </div>
      <ImportForm personId={actor.id} />
      <RecentBatches />
    </main>
  );
}
