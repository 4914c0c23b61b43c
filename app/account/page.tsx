import type { Metadata } from "next";
import { LanguageForm } from "@/components/account/language-form";
import { OwnTokens } from "@/components/account/own-tokens";
import { PasswordForm } from "@/components/account/password-form";
import { isLocale, translator } from "@/lib/i18n";
import { pageActor } from "@/lib/server/pages";
import "../admin/admin.css";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const actor = await pageActor("/account");
  const t = translator(isLocale(actor.locale) ? actor.locale : "en");
  return (
    <main className="page admin-page account-page">
      <div className="page-head">
        <h1>{t("account.title")}</h1>
        <span className="sub">
          {actor.name} · {actor.email} · {t(`role.${actor.role}`)}
        </span>
      </div>
      <LanguageForm />
      <PasswordForm />
      <OwnTokens />
    </main>
  );
}
