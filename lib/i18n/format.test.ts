import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import {
  DATE_PATTERNS,
  formatCalendarDay,
  parseCalendarDay,
  formatDate,
  formatDateTime,
  formatDay,
  formatDuration,
  formatNumber,
  formatPercent,
  formatTime,
} from "./format";

// A late-evening instant: a 12-hour clock would say 11:50 PM, and UTC vs Shanghai crosses midnight.
const AT = "2026-11-25T23:50:00.000Z";

describe("one formatter for dates, times, durations and numbers", () => {
  it("writes the Chinese date and time as 2026年11月25日 23:50, 24-hour", () => {
    expect(formatDateTime(AT, "zh", { timeZone: "UTC" })).toBe("2026年11月25日 23:50");
    expect(formatDateTime(AT, "zh", { timeZone: "Asia/Shanghai" })).toBe("2026年11月26日 07:50");
    expect(formatDate(AT, "zh", { timeZone: "UTC" })).toBe("2026年11月25日");
    expect(formatTime(AT, "zh", { timeZone: "UTC" })).toBe("23:50");
    expect(formatDay("2026-03-05", "zh")).toBe("3月5日");
  });

  it("writes English one way too: day month year, 24-hour, no AM/PM", () => {
    expect(formatDateTime(AT, "en", { timeZone: "UTC" })).toBe("25 Nov 2026, 23:50");
    expect(formatDateTime("2026-01-02T00:05:00Z", "en", { timeZone: "UTC" })).toBe("2 Jan 2026, 00:05");
    expect(formatDate(AT, "en", { timeZone: "UTC" })).toBe("25 Nov 2026");
    expect(formatDay("2026-09-05", "en")).toBe("5 Sep");
  });

  it("matches the patterns the Chinese page walk checks, and shows a dash for no date", () => {
    for (const locale of ["zh", "en"] as const) {
      expect(formatDateTime(AT, locale)).toMatch(DATE_PATTERNS[locale].dateTime);
      expect(formatDate(Date.parse(AT), locale)).toMatch(DATE_PATTERNS[locale].date);
      expect(formatDateTime(null, locale)).toBe("—");
      expect(formatDateTime("not a date", locale)).toBe("—");
    }
  });

  it("writes numbers, shares and durations in the person's language", () => {
    expect(formatNumber(1234567, "zh")).toBe("1,234,567");
    expect(formatNumber(1234567, "en")).toBe("1,234,567");
    expect(formatPercent(0.1234, "zh")).toBe("12.3%");
    expect(formatDuration(850, "en")).toBe("850 ms");
    expect(formatDuration(850, "zh")).toBe("850 毫秒");
    expect(formatDuration(1234, "zh")).toBe("1.2 秒");
    expect(formatDuration(185_000, "en")).toBe("3 min 5 s");
    expect(formatDuration(185_000, "zh")).toBe("3 分 5 秒");
    expect(formatDuration(2 * 3600_000 + 10 * 60_000, "zh")).toBe("2 小时 10 分");
  });
});

describe("a day typed into a date field", () => {
  it("is shown in the language's one date style and read back from it, or from the ISO form", () => {
    expect(formatCalendarDay("2026-11-05", "zh")).toBe("2026年11月5日");
    expect(formatCalendarDay("2026-11-05", "en")).toBe("5 Nov 2026");
    for (const typed of ["2026年11月5日", "2026 年 11 月 5 日", "5 Nov 2026", "05 november 2026", "2026-11-05", "2026/11/5"])
      expect(parseCalendarDay(typed), typed).toBe("2026-11-05");
    // What it shows reads back as the same day, in both languages.
    for (const locale of ["zh", "en"] as const) expect(parseCalendarDay(formatCalendarDay("2024-02-29", locale))).toBe("2024-02-29");
    for (const bad of ["", "11/05/2026", "2026-02-30", "31 Feb 2026", "tomorrow", "2026年13月1日"])
      expect(parseCalendarDay(bad), bad).toBeNull();
  });
});

describe("the lint rule that keeps it one formatter", () => {
  // The probes are files that do not exist, so they are linted without the type-aware rules (which need a file the
  // TypeScript project holds; scripts/lint-layers.test.ts probes those).
  const eslint = new ESLint({
    cwd: process.cwd(),
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: { "@typescript-eslint/no-floating-promises": "off", "@typescript-eslint/no-misused-promises": "off" },
    },
  });
  const lint = async (code: string, filePath: string) =>
    (await eslint.lintText(code, { filePath }))[0]!.messages.filter((m) => m.ruleId === "no-restricted-properties").length;

  it("refuses toLocaleString and Intl formatters in components and app, but not in the formatter itself", async () => {
    const code = [
      "export const a = new Date().toLocaleString();",
      "export const b = (1).toLocaleString();",
      "export const c = new Date().toLocaleTimeString();",
      'export const d = new Intl.DateTimeFormat("en").format(new Date());',
      'export const e = new Intl.NumberFormat("en").format(1);',
    ].join("\n");
    expect(await lint(code, "components/ui/some-widget.tsx")).toBe(5);
    expect(await lint(code, "app/some/page.tsx")).toBe(5);
    expect(await lint(code, "lib/i18n/format.ts")).toBe(0);
  }, 60_000);
});
