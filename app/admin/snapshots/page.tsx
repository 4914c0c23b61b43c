import type { Metadata } from "next";
import Link from "next/link";
import { EvalSetsPanel, ReleasesPanel } from "@/components/snapshots/snapshots-panel";
import { isLocale, translator } from "@/lib/i18n";
import { pageActor } from "@/lib/server/pages";
import "../admin.css";

export const metadata: Metadata = { title: "Evaluation sets and releases" };

/** Frozen evaluation sets and dataset releases (admin: the export permission). */
export default async function SnapshotsPage() {
  const actor = await pageActor("/admin/snapshots", "export.run");
  const t = translator(isLocale(actor.locale) ? actor.locale : "en");
  return (
    <main className="page admin-page">
      <div className="page-head">
        <h1>{t("snapshots.title")}</h1>
        <span className="sub">{t("snapshots.sub")}</span>
        <Link href="/admin/eval">{t("eval.link")}</Link>
      </div>
      <ReleasesPanel />
      <EvalSetsPanel />
    </main>
  );
}
