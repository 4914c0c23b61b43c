import type { Metadata } from "next";
import Link from "next/link";
import { ExportPanel } from "@/components/export/export-panel";
import { isLocale, translator } from "@/lib/i18n";
import { pageActor } from "@/lib/server/pages";
import "../admin/admin.css";

export const metadata: Metadata = { title: "Export" };

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
