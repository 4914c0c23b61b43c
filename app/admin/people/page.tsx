import type { Metadata } from "next";
import { AllTokens } from "@/components/admin/all-tokens";
import { CreatePersonForm } from "@/components/admin/create-person-form";
import { PeopleTable } from "@/components/admin/people-table";
import { isLocale, translator } from "@/lib/i18n";
import { pageActor } from "@/lib/server/pages";
import "../admin.css";

export const metadata: Metadata = { title: "People" };

export default async function PeoplePage() {
  const actor = await pageActor("/admin/people", "people.manage");
  const t = translator(isLocale(actor.locale) ? actor.locale : "en");
  return (
    <main className="page admin-page">
      <div className="page-head">
        <h1>{t("people.pageTitle")}</h1>
        <span className="sub">{t("people.pageSub")}</span>
      </div>
      <CreatePersonForm />
      <PeopleTable currentUserId={actor.id} />
      <AllTokens />
    </main>
  );
}
