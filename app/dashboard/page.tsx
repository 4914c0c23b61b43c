import type { Metadata } from "next";
import { AgreementPanel } from "@/components/dashboard/agreement";
import { Dashboard } from "@/components/dashboard/dashboard";
import { EffortPanel } from "@/components/dashboard/effort";
import { GoldPanel } from "@/components/dashboard/gold";
import { JudgeAgreement } from "@/components/dashboard/judge-agreement";
import { isLocale, translator } from "@/lib/i18n";
import { optionalActor, pageActor } from "@/lib/server/pages";

/** The tab's title in the person's language (issue 36: the Chinese page's title was English). */
export async function generateMetadata(): Promise<Metadata> {
  const actor = await optionalActor();
  return { title: translator(isLocale(actor?.locale) ? actor.locale : "en")("dashboard.title") };
}

export default async function DashboardPage() {
  const actor = await pageActor("/dashboard", "trajectory.review");
  const t = translator(isLocale(actor.locale) ? actor.locale : "en");
  return (
    <main className="page">
      <div className="page-head">
        <h1>{t("dashboard.title")}</h1>
        <span className="sub">{t("dashboard.sub")}</span>
      </div>
      <Dashboard />
      <EffortPanel />
      <AgreementPanel />
      <GoldPanel />
      <JudgeAgreement />
    </main>
  );
}
