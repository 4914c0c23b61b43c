import { admin } from "./messages/admin";
import { canvas } from "./messages/canvas";
import { common } from "./messages/common";
import { dashboard } from "./messages/dashboard";
import { editor } from "./messages/editor";
import { errors } from "./messages/errors";
import { imports } from "./messages/import";
import { importProblems } from "./messages/import-problems";
import { keyboard } from "./messages/keyboard";
import { lane } from "./messages/lane";
import { layout } from "./messages/layout";
import { list } from "./messages/list";
import { model } from "./messages/model";
import { review } from "./messages/review";
import { snapshots } from "./messages/snapshots";
import { evalRuns } from "./messages/eval";
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
  en: {
    ...common.en,
    ...dashboard.en,
    ...admin.en,
    ...review.en,
    ...editor.en,
    ...list.en,
    ...viewer.en,
    ...imports.en,
    ...importProblems.en,
    ...keyboard.en,
    ...layout.en,
    ...errors.en,
    ...canvas.en,
    ...model.en,
    ...lane.en,
    ...snapshots.en,
    ...evalRuns.en,
  },
  zh: {
    ...common.zh,
    ...dashboard.zh,
    ...admin.zh,
    ...review.zh,
    ...editor.zh,
    ...list.zh,
    ...viewer.zh,
    ...imports.zh,
    ...importProblems.zh,
    ...keyboard.zh,
    ...layout.zh,
    ...errors.zh,
    ...canvas.zh,
    ...model.zh,
    ...lane.zh,
    ...snapshots.zh,
    ...evalRuns.zh,
  },
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
    // A key the catalogue lacks (a code added elsewhere before its message) prints as the key, never crashes.
    const text: string = messages[key] ?? CATALOGUE.en[key] ?? key;
    return vars ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : text;
  };
}

/** Is `key` in the catalogue (codes built at run time, such as `problem.${code}`)? */
export function isMessageKey(key: string): key is MessageKey {
  return key in CATALOGUE.en;
}

/** A message to translate later: its key and placeholder values (nested references are translated first; a list joins with spaces). */
export type MessageRef = { key: MessageKey; vars?: Record<string, string | number | MessageRef | MessageRef[]> };

/** The message in `locale`, placeholders filled. */
export function localize(ref: MessageRef, locale: Locale | Translate): string {
  const t = typeof locale === "function" ? locale : translator(locale);
  const text = (v: string | number | MessageRef | MessageRef[]): string | number =>
    // Sentences join with a space, except after a Chinese full stop.
    Array.isArray(v)
      ? v
          .map((r) => localize(r, t))
          .join(" ")
          .replace(/([。！？]) /g, "$1")
      : typeof v === "object"
        ? localize(v, t)
        : v;
  const vars = Object.fromEntries(Object.entries(ref.vars ?? {}).map(([k, v]) => [k, text(v)]));
  return t(ref.key, vars);
}
