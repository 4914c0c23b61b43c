import type { Locale } from "./index";

/**
 * The one place dates, times, durations and numbers become text (ESLint forbids toLocaleString,
 * Intl.DateTimeFormat and friends elsewhere, so every page writes them alike).
 *
 * One style per language, 24-hour clock in both:
 * - zh: `2026年11月25日 23:50`, date `2026年11月25日`, day `11月25日`, time `23:50`
 * - en: `25 Nov 2026, 23:50`, date `25 Nov 2026`, day `25 Nov`, time `23:50`
 *
 * The pattern is assembled from numeric parts rather than left to the runtime's locale data, so it
 * is the same in every browser and Node version (ICU differs on "Sept", commas and AM/PM).
 */

/** What a date is given as: an ISO string (the API's), epoch milliseconds, or a Date. */
export type DateInput = string | number | Date;

/** Options every date function takes; `timeZone` is an IANA name (the runtime's own zone when left out). */
export type DateOptions = { timeZone?: string };

/** The BCP 47 tag numbers are formatted with for a studio locale. */
export const intlLocale = (locale: Locale): string => (locale === "zh" ? "zh-CN" : "en-US");

const EN_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** The placeholder shown where there is no date (or no number). */
export const NONE = "—";

type Parts = { year: number; month: number; day: number; hour: number; minute: number };

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar fields of `date` in `timeZone` (local wall-clock time when undefined). */
function partsOf(date: Date, timeZone: string | undefined): Parts {
  const key = timeZone ?? "";
  let f = partsFormatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      hourCycle: "h23",
      ...(timeZone ? { timeZone } : {}),
    });
    partsFormatters.set(key, f);
  }
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(date)) if (p.type !== "literal") out[p.type] = Number(p.value);
  return { year: out.year ?? 0, month: out.month ?? 1, day: out.day ?? 1, hour: (out.hour ?? 0) % 24, minute: out.minute ?? 0 };
}

function toDate(value: DateInput | null | undefined): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

const pad = (n: number) => String(n).padStart(2, "0");
const clock = (p: Parts) => `${pad(p.hour)}:${pad(p.minute)}`;
const calendarDate = (p: Parts, locale: Locale) =>
  locale === "zh" ? `${p.year}年${p.month}月${p.day}日` : `${p.day} ${EN_MONTHS[p.month - 1] ?? "?"} ${p.year}`;

/** Date and time of day (24-hour, minutes) in `locale`; a dash for no date or an invalid one. */
export function formatDateTime(value: DateInput | null | undefined, locale: Locale, opts: DateOptions = {}): string {
  const d = toDate(value);
  if (!d) return NONE;
  const p = partsOf(d, opts.timeZone);
  return locale === "zh" ? `${calendarDate(p, locale)} ${clock(p)}` : `${calendarDate(p, locale)}, ${clock(p)}`;
}

/** The calendar date alone (year, month, day) in `locale`. */
export function formatDate(value: DateInput | null | undefined, locale: Locale, opts: DateOptions = {}): string {
  const d = toDate(value);
  return d ? calendarDate(partsOf(d, opts.timeZone), locale) : NONE;
}

/** Month and day without the year (chart axes): `11月25日` / `25 Nov`. A bare `YYYY-MM-DD` is read as that calendar day, whatever the zone. */
export function formatDay(value: DateInput | null | undefined, locale: Locale, opts: DateOptions = {}): string {
  const bare = typeof value === "string" ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  const p = bare
    ? { year: Number(bare[1]), month: Number(bare[2]), day: Number(bare[3]), hour: 0, minute: 0 }
    : (() => {
        const d = toDate(value);
        return d ? partsOf(d, opts.timeZone) : null;
      })();
  if (!p) return NONE;
  return locale === "zh" ? `${p.month}月${p.day}日` : `${p.day} ${EN_MONTHS[p.month - 1] ?? "?"}`;
}

/** A calendar day given as `YYYY-MM-DD` (no time, no zone) in `locale`'s date style: `2026年11月25日` / `25 Nov 2026`; a dash when it is not one. */
export function formatCalendarDay(iso: string, locale: Locale): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return NONE;
  return calendarDate({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: 0, minute: 0 }, locale);
}

/**
 * A calendar day a person typed, as `YYYY-MM-DD`, or null when it is none: the language's own style
 * (`2026年11月25日`, `25 Nov 2026`), or the ISO form `2026-11-25` (also with `/` or `.`) in either.
 * Only real days pass (no 31 February).
 */
export function parseCalendarDay(text: string): string | null {
  const s = text.trim();
  let y: number, mo: number, d: number;
  const iso = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s);
  const zh = /^(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日?$/.exec(s);
  const en = /^(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?,?\s+(\d{4})$/.exec(s);
  if (iso || zh) [y, mo, d] = (iso ?? zh)!.slice(1, 4).map(Number) as [number, number, number];
  else if (en) {
    const month = EN_MONTHS.findIndex((name) => name.toLowerCase() === en[2]!.toLowerCase());
    if (month < 0) return null;
    [y, mo, d] = [Number(en[3]), month + 1, Number(en[1])];
  } else return null;
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) return null;
  return `${y}-${pad(mo)}-${pad(d)}`;
}

/** The time of day, 24-hour `HH:MM`, the same in both languages. */
export function formatTime(value: DateInput | null | undefined, _locale: Locale, opts: DateOptions = {}): string {
  const d = toDate(value);
  return d ? clock(partsOf(d, opts.timeZone)) : NONE;
}

const numberFormatters = new Map<string, Intl.NumberFormat>();

/** A number with the language's grouping (`12,345` in both, `1.5`), `options` as Intl.NumberFormat's. */
export function formatNumber(n: number | null | undefined, locale: Locale, options?: Intl.NumberFormatOptions): string {
  if (n === null || n === undefined || Number.isNaN(n)) return NONE;
  const key = `${locale}|${JSON.stringify(options ?? {})}`;
  let f = numberFormatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(intlLocale(locale), options);
    numberFormatters.set(key, f);
  }
  return f.format(n);
}

/** A share (0..1) as a percentage with at most one decimal: `0.125` -> `12.5%`. */
export function formatPercent(share: number | null | undefined, locale: Locale): string {
  return formatNumber(share, locale, { style: "percent", maximumFractionDigits: 1 });
}

/**
 * A duration given in milliseconds: under a second in ms, under a minute in seconds with one
 * decimal, then minutes and seconds, then hours and minutes (`850 ms`, `1.2 s`, `3 min 5 s`,
 * `2 h 10 min`; zh `850 毫秒`, `1.2 秒`, `3 分 5 秒`, `2 小时 10 分`).
 */
export function formatDuration(ms: number | null | undefined, locale: Locale): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return NONE;
  const u = locale === "zh" ? { ms: "毫秒", s: "秒", min: "分", h: "小时" } : { ms: "ms", s: "s", min: "min", h: "h" };
  if (ms < 1000) return `${formatNumber(Math.round(ms), locale)} ${u.ms}`;
  if (ms < 60_000) return `${formatNumber(ms / 1000, locale, { maximumFractionDigits: 1 })} ${u.s}`;
  const totalS = Math.round(ms / 1000);
  if (totalS < 3600) {
    const s = totalS % 60;
    return `${Math.floor(totalS / 60)} ${u.min}${s ? ` ${s} ${u.s}` : ""}`;
  }
  const totalMin = Math.round(totalS / 60);
  const min = totalMin % 60;
  return `${formatNumber(Math.floor(totalMin / 60), locale)} ${u.h}${min ? ` ${min} ${u.min}` : ""}`;
}

/** Every formatter above bound to one language (what `useFormat()` hands to components). */
export type Formatter = {
  locale: Locale;
  dateTime: (value: DateInput | null | undefined) => string;
  date: (value: DateInput | null | undefined) => string;
  day: (value: DateInput | null | undefined) => string;
  time: (value: DateInput | null | undefined) => string;
  number: (n: number | null | undefined, options?: Intl.NumberFormatOptions) => string;
  percent: (share: number | null | undefined) => string;
  duration: (ms: number | null | undefined) => string;
};

/** The formatters for `locale` (and `timeZone`, the runtime's own when left out). */
export function formatter(locale: Locale, opts: DateOptions = {}): Formatter {
  return {
    locale,
    dateTime: (v) => formatDateTime(v, locale, opts),
    date: (v) => formatDate(v, locale, opts),
    day: (v) => formatDay(v, locale, opts),
    time: (v) => formatTime(v, locale, opts),
    number: (n, options) => formatNumber(n, locale, options),
    percent: (s) => formatPercent(s, locale),
    duration: (ms) => formatDuration(ms, locale),
  };
}

/** The zh date-time pattern, for checks that every date on a Chinese page is written one way. */
export const DATE_PATTERNS: Record<Locale, { dateTime: RegExp; date: RegExp }> = {
  zh: { dateTime: /^\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}$/, date: /^\d{4}年\d{1,2}月\d{1,2}日$/ },
  en: { dateTime: /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/, date: /^\d{1,2} [A-Z][a-z]{2} \d{4}$/ },
};
