import type { Metadata } from "next";
import { EvalRunPanel } from "@/components/eval/eval-panels";
import { isLocale, translator } from "@/lib/i18n";
import { pageActor } from "@/lib/server/pages";
import "../../admin.css";

export const metadata: Metadata = { title: "Evaluation run" };

/** One evaluation run: figures, confusion matrix, failure gallery over the screenshots, send to annotation (admin). */
export default async function EvalRunPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await pageActor(`/admin/eval/${id}`, "model.manage");
  const t = translator(isLocale(actor.locale) ? actor.locale : "en");
  return (
    <main className="page admin-page">
      <div className="page-head">
        <h1>{t("eval.run.title")}</h1>
      </div>
      <EvalRunPanel id={id} />
    </main>
  );
}
