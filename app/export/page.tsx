import type { Metadata } from "next";
import Link from "next/link";
import { ExportPanel } from "@/components/export/export-panel";
import { isLocale, translator } from "@/lib/i18n";
import { optionalActor, pageActor } from "@/lib/server/pages";
import "../admin/admin.css";

/** The tab's title in the person's language (issue 36: the Chinese page's title was English). */
export async function generateMetadata(): Promise<Metadata> {
  const actor = await optionalActor();
  return { title: translator(isLocale(actor?.locale) ? actor.locale : "en")("nav.export") };
}

export default async function ExportPage() {
  const actor = await pageActor("/export", "export.run");
  const t = translator(isLocale(actor.locale) ? actor.locale : "en");
  return (
    <main className="page admin-page">
      <div className="page-head">
        <h1>{t("export.title")}</h1>
        <span className="sub">{t("export.sub")}</span>
        <Link href="/admin/snapshots">{t("snapshots.link")}</Link>
      </div>
      <ExportPanel />
    </main>
  );
}
