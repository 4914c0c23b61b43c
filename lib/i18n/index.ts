import { admin } from "./messages/admin";
import { auditWords } from "./messages/audit-words";
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
import { IntlMessageFormat } from "intl-messageformat";
import { intlLocale } from "./format";

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
    ...auditWords.en,
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
    ...auditWords.zh,
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
/**
 * Translate `key`, filling `vars`. Names in `keep` are still used to choose plurals but are printed as
 * `{name}`, for the caller to fill with a React node (components/ui/format.tsx: fillNodes).
 */
export type Translate = (key: MessageKey, vars?: Record<string, string | number>, keep?: readonly string[]) => string;

export function isLocale(x: unknown): x is Locale {
  return typeof x === "string" && (LOCALES as readonly string[]).includes(x);
}

/** One element of a parsed ICU message (FormatJS's AST, without importing its parser package). */
type IcuElement = ReturnType<IntlMessageFormat["getAst"]>[number];

/** A compiled message: its formatter and every argument name it reads (plural and select ones included). */
type Compiled = { format: IntlMessageFormat; args: string[] };

/** Messages are plain text around ICU arguments; `<token>` and the like are text, not rich-text tags. */
const PARSE_OPTIONS = { ignoreTag: true } as const;

/** Parses `text` as an ICU message (throws on a syntax error), as the translator and the catalogue test read it. */
export function parseMessage(text: string, locale: Locale): IcuElement[] {
  return new IntlMessageFormat(text, intlLocale(locale), undefined, PARSE_OPTIONS).getAst();
}

/** Every argument name `ast` reads, nested plural and select branches included, in order of first use. */
export function messageArguments(ast: IcuElement[], into = new Set<string>()): string[] {
  for (const el of ast) {
    if ("options" in el) for (const option of Object.values(el.options)) messageArguments(option.value, into);
    // Literal text has a `value` too; an argument's (number, date, plural...) is its name.
    if ("value" in el && !isLiteral(el)) into.add(el.value);
  }
  return [...into];
}

const LITERAL_TYPE = parseMessage("x", "en")[0]!.type;
const isLiteral = (el: IcuElement) => el.type === LITERAL_TYPE;

const ARGUMENT = parseMessage("{x}", "en")[0]!;

/** The name under which an argument's value is printed; its own name is what plurals choose by. */
const shownName = (name: string) => `${name}@shown`;

/**
 * Every place an argument is printed reads it under `shownName`: a plain `{count}` stays so, and `#`
 * inside a plural becomes one too, so a count reads exactly as the caller gave it (numbers are
 * formatted by lib/i18n/format.ts first, `nf(n)`), while the branch is still chosen by its numeric
 * value under the argument's own name ("1" is one; "1,234" is not a plain number and reads as other,
 * which is right for every count of a thousand or more in both languages). Printing apart from
 * choosing lets a component keep `{count}` in the text for a React node (bold) and still get the plural.
 */
function printedArguments(ast: IcuElement[], count?: string): IcuElement[] {
  return ast.flatMap((el): IcuElement[] => {
    if (!("value" in el)) return count === undefined ? [el] : [{ ...ARGUMENT, value: shownName(count) } as IcuElement]; // #
    if (el.type === ARGUMENT.type) return [{ ...el, value: shownName(el.value) } as IcuElement];
    if (!("options" in el)) return [el];
    const inner = "pluralType" in el && !el.offset ? el.value : count;
    const options = Object.fromEntries(Object.entries(el.options).map(([k, o]) => [k, { ...o, value: printedArguments(o.value, inner) }]));
    return [{ ...el, options } as IcuElement];
  });
}

const compiled = new Map<string, Compiled | null>();

/** The compiled message of `key` in `locale` (cached), or null when its text is not valid ICU. */
function compile(locale: Locale, key: string, text: string): Compiled | null {
  const cacheKey = `${locale}:${key}`;
  let c = compiled.get(cacheKey);
  if (c === undefined) {
    try {
      const ast = parseMessage(text, locale);
      c = { format: new IntlMessageFormat(printedArguments(ast), intlLocale(locale)), args: messageArguments(ast) };
    } catch {
      c = null; // the catalogue test names such a message; the UI shows its text rather than crash
    }
    compiled.set(cacheKey, c);
  }
  return c;
}

/**
 * A translate function for `locale`. Messages are ICU (intl-messageformat): `{name}` arguments and
 * `{n, plural, one {# step} other {# steps}}`. An argument missing from `vars` stays in the text as
 * `{name}` (components fill such ones with React nodes, components/ui/format.tsx); a missing plural
 * count reads as the `other` branch with `{n}` for its number.
 */
export function translator(locale: Locale): Translate {
  const messages: Record<string, string> = CATALOGUE[locale];
  return (key, vars, keep) => {
    // A key the catalogue lacks (a code added elsewhere before its message) prints as the key, never crashes.
    const own = messages[key];
    const text: string | undefined = own ?? CATALOGUE.en[key];
    if (text === undefined) return key;
    const c = compile(own !== undefined ? locale : "en", key, text);
    if (!c) return text;
    const values: Record<string, string | number> = {};
    for (const name of c.args) {
      values[name] = vars && name in vars ? vars[name]! : `{${name}}`;
      values[shownName(name)] = keep?.includes(name) ? `{${name}}` : values[name];
    }
    return String(c.format.format(values));
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
