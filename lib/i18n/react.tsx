"use client";

import { createContext, useContext, useMemo, type ReactNode } from "react";
import { formatter, type Formatter } from "./format";
import { translator, type Locale, type Translate } from "./index";

const I18nContext = createContext<{ locale: Locale; t: Translate; format: Formatter }>({
  locale: "en",
  t: translator("en"),
  format: formatter("en"),
});

/** Provides the signed-in person's language to client components. */
export function I18nProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  const value = useMemo(() => ({ locale, t: translator(locale), format: formatter(locale) }), [locale]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The translate function for the current person's language. */
export function useT(): Translate {
  return useContext(I18nContext).t;
}

export function useLocale(): Locale {
  return useContext(I18nContext).locale;
}

/** Dates, times, durations and numbers in the current person's language (lib/i18n/format). */
export function useFormat(): Formatter {
  return useContext(I18nContext).format;
}
