import { describe, expect, it } from "vitest";
import { CATALOGUE, LOCALES, messageArguments, parseMessage } from "./index";

/** Every feature catalogue file, to check that each is merged and that no two define the same key. */
const FEATURES = import.meta.glob<{ [name: string]: { en: Record<string, string>; zh: Record<string, string> } }>("./messages/*.ts", {
  eager: true,
});

/**
 * Chinese values that may legitimately be plain ASCII words: identifiers, formats and names the
 * annotators see in English in their data and tools too.
 */
const ASCII_ALLOWED = new Set(["JSON", "API", "JSONL", "MB", "max_pixels", "Trajectory Studio"]);

describe("merged message catalogue", () => {
  const en: Record<string, string> = CATALOGUE.en;
  const zh: Record<string, string> = CATALOGUE.zh;

  it("has exactly the same keys in English and Chinese", () => {
    const enKeys = Object.keys(en).sort();
    const zhKeys = Object.keys(zh).sort();
    expect(
      zhKeys.filter((k) => !(k in en)),
      "keys only in zh",
    ).toEqual([]);
    expect(
      enKeys.filter((k) => !(k in zh)),
      "keys only in en",
    ).toEqual([]);
  });

  it("merges every feature file, and no key is defined by two of them", () => {
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    for (const [file, mod] of Object.entries(FEATURES)) {
      for (const cat of Object.values(mod)) {
        if (!cat || typeof cat !== "object" || !("en" in cat) || !("zh" in cat)) continue;
        for (const key of Object.keys(cat.en)) {
          const prev = owner.get(key);
          if (prev && prev !== file) clashes.push(`${key}: ${prev} and ${file}`);
          owner.set(key, file);
          expect(en[key], `${file} ${key} merged`).toBe(cat.en[key]);
        }
      }
    }
    expect(clashes).toEqual([]);
    expect(owner.size).toBe(Object.keys(en).length);
  });

  it("has no empty values in either language", () => {
    expect(
      Object.entries(en)
        .filter(([, v]) => v.trim() === "")
        .map(([k]) => k),
    ).toEqual([]);
    expect(
      Object.entries(zh)
        .filter(([, v]) => v.trim() === "")
        .map(([k]) => k),
    ).toEqual([]);
  });

  it("leaves no English sentence untranslated in Chinese", () => {
    // Three or more words of plain ASCII letters, with no Chinese in them, is an English leftover.
    const suspicious = Object.entries(zh)
      .filter(([, v]) => !ASCII_ALLOWED.has(v))
      .filter(([, v]) => /^[\x20-\x7e]*$/.test(v) && (v.match(/[A-Za-z]+/g) ?? []).length >= 3)
      .map(([k, v]) => `${k}: ${v}`);
    expect(suspicious).toEqual([]);
  });

  it("parses every message of every language as ICU", () => {
    const broken: string[] = [];
    for (const locale of LOCALES) {
      for (const [key, text] of Object.entries(CATALOGUE[locale] as Record<string, string>)) {
        try {
          parseMessage(text, locale);
        } catch (e) {
          broken.push(`${locale} ${key}: ${String(e)} in ${text}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("uses the same arguments in the Chinese text as in the English one", () => {
    const args = (text: string, locale: "en" | "zh") => messageArguments(parseMessage(text, locale)).sort();
    const broken = Object.keys(en)
      .filter((k) => JSON.stringify(args(en[k]!, "en")) !== JSON.stringify(args(zh[k] ?? "", "zh")))
      .map((k) => `${k}: ${en[k]} → ${zh[k]}`);
    expect(broken).toEqual([]);
  });
});
