import type { Metadata } from "next";
import { ModelJobs } from "@/components/admin/model-jobs";
import { ModelSettings } from "@/components/admin/model-settings";
import { isLocale, translator } from "@/lib/i18n";
import { pageActor } from "@/lib/server/pages";
import "../admin.css";

export const metadata: Metadata = { title: "Model" };

export default async function ModelPage() {
  const actor = await pageActor("/admin/model", "model.manage");
  const t = translator(isLocale(actor.locale) ? actor.locale : "en");
  return (
    <main className="page admin-page">
      <div className="page-head">
        <h1>{t("model.pageTitle")}</h1>
        <span className="sub">{t("model.pageSub")}</span>
      </div>
      <ModelSettings />
      <ModelJobs />
    </main>
  );
}
