import { admin } from "./messages/admin";
import { common } from "./messages/common";
import { dashboard } from "./messages/dashboard";
import { editor } from "./messages/editor";
import { imports } from "./messages/import";
import { list } from "./messages/list";
import { model } from "./messages/model";
import { review } from "./messages/review";
import { viewer } from "./messages/viewer";

/**
 * One message catalogue for every UI string, in English and Simplified Chinese. Each feature keeps
 * its messages in lib/i18n/messages/<feature>.ts; the English object defines the keys and the Chinese
 * one must have exactly the same keys (the type checker enforces it). Data (instructions, thoughts)
 * is never translated.
 */
export const LOCALES = ["en", "zh"] as const;
export type Locale = (typeof LOCALES)[number];
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", zh: "简体中文" };

export const CATALOGUE = {
  en: { ...common.en, ...dashboard.en, ...admin.en, ...review.en, ...editor.en, ...list.en, ...viewer.en, ...imports.en, ...model.en },
  zh: { ...common.zh, ...dashboard.zh, ...admin.zh, ...review.zh, ...editor.zh, ...list.zh, ...viewer.zh, ...imports.zh, ...model.zh },
};

export type MessageKey = keyof (typeof CATALOGUE)["en"];
export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

export function isLocale(x: unknown): x is Locale {
  return typeof x === "string" && (LOCALES as readonly string[]).includes(x);
}

/** A translate function for `locale`: `{name}` placeholders are filled from `vars`. */
export function translator(locale: Locale): Translate {
  const messages: Record<string, string> = CATALOGUE[locale];
  return (key, vars) => {
    const text = messages[key] ?? CATALOGUE.en[key];
    return vars ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : text;
  };
}
