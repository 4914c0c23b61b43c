"use client";

import { createContext, useContext, useMemo, type ReactNode } from "react";
import { translator, type Locale, type Translate } from "./index";

const I18nContext = createContext<{ locale: Locale; t: Translate }>({ locale: "en", t: translator("en") });

/** Provides the signed-in person's language to client components. */
export function I18nProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  const value = useMemo(() => ({ locale, t: translator(locale) }), [locale]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

/** The translate function for the current person's language. */
export function useT(): Translate {
  return useContext(I18nContext).t;
}

export function useLocale(): Locale {
  return useContext(I18nContext).locale;
}
