"use client";

import { useState } from "react";
import { ErrorBox } from "@/components/ui/states";
import { LOCALE_NAMES, LOCALES, isLocale } from "@/lib/i18n";
import { useLocale, useT } from "@/lib/i18n/react";
import { useUpdateMe } from "@/lib/queries/people";

/** The UI language, saved on the person; the page reloads so the server renders it in the new language. */
export function LanguageForm() {
  const t = useT();
  const locale = useLocale();
  const [choice, setChoice] = useState(locale);
  const update = useUpdateMe();
  return (
    <section className="panel panel-pad account-section" aria-labelledby="language-title">
      <h2 id="language-title">{t("account.language")}</h2>
      <p className="hint">{t("account.languageHint")}</p>
      <form
        className="form-row"
        onSubmit={(e) => {
          e.preventDefault();
          update.mutate({ locale: choice }, { onSuccess: () => window.location.reload() });
        }}
      >
        <label className="field">
          <span>{t("account.language")}</span>
          <select className="select" value={choice} onChange={(e) => isLocale(e.target.value) && setChoice(e.target.value)}>
            {LOCALES.map((l) => (
              <option key={l} value={l}>
                {LOCALE_NAMES[l]}
              </option>
            ))}
          </select>
        </label>
        <button className="btn btn-primary" type="submit" disabled={update.isPending || choice === locale}>
          {t("account.saveLanguage")}
        </button>
      </form>
      {update.error && <ErrorBox error={update.error} />}
    </section>
  );
}
