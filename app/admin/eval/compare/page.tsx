import type { Metadata } from "next";
import { EvalComparePanel } from "@/components/eval/eval-panels";
import { isLocale, translator } from "@/lib/i18n";
import { pageActor } from "@/lib/server/pages";
import "../../admin.css";

export const metadata: Metadata = { title: "Compare evaluation runs" };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** Two evaluation runs on the same set side by side: ?a=<run id>&b=<run id> (admin). */
export default async function EvalComparePage({
  searchParams,
}: {
  searchParams: Promise<{ a?: string | string[]; b?: string | string[] }>;
}) {
  const actor = await pageActor("/admin/eval/compare", "model.manage");
  const t = translator(isLocale(actor.locale) ? actor.locale : "en");
  const { a, b } = await searchParams;
  return (
    <main className="page admin-page">
      <div className="page-head">
        <h1>{t("eval.compare.title")}</h1>
      </div>
      <EvalComparePanel a={one(a)} b={one(b)} />
    </main>
  );
}
