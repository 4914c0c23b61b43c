import type { Metadata } from "next";
import { EvalEndpointsPanel, EvalRunsPanel } from "@/components/eval/eval-panels";
import { isLocale, translator } from "@/lib/i18n";
import { pageActor } from "@/lib/server/pages";
import "../admin.css";

export const metadata: Metadata = { title: "Evaluation runs" };

/** Evaluation runs: saved endpoints, starting a run on a frozen set, the runs and choosing two to compare (admin). */
export default async function EvalPage() {
  const actor = await pageActor("/admin/eval", "model.manage");
  const t = translator(isLocale(actor.locale) ? actor.locale : "en");
  return (
    <main className="page admin-page">
      <div className="page-head">
        <h1>{t("eval.title")}</h1>
        <span className="sub">{t("eval.sub")}</span>
      </div>
      <EvalRunsPanel />
      <EvalEndpointsPanel />
    </main>
  );
}
