import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CATALOGUE } from "@/lib/i18n";

// Issue 36: the studio ships no emoji font, and a machine without one (Debian's default) draws an
// emoji as an empty box. Nothing a person reads may need one: icons are inline SVG (components/ui/icons.tsx).

const ROOT = path.resolve(__dirname, "..");
/** Emoji and pictographs (Unicode's Extended_Pictographic), and the emoji-style variation selector. */
const EMOJI = /[\p{Extended_Pictographic}\u{FE0F}]/u;

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sources(rel);
    return /\.(tsx?|css|mdx?)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

function hits(text: string): string[] {
  return [...text].filter((c) => EMOJI.test(c)).map((c) => `${c} U+${c.codePointAt(0)!.toString(16).toUpperCase()}`);
}

describe("no emoji that needs a font we do not ship", () => {
  it("none in components/ or app/", () => {
    const files = [...sources("components"), ...sources("app")];
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) =>
      readFileSync(path.join(ROOT, f), "utf8")
        .split("\n")
        .flatMap((line, i) => hits(line).map((h) => `${f}:${i + 1} ${h}`)),
    );
    expect(found).toEqual([]);
  });

  it("none in the message catalogue, in either language", () => {
    const found = (["en", "zh"] as const).flatMap((locale) =>
      Object.entries(CATALOGUE[locale] as Record<string, string>).flatMap(([key, v]) => hits(v).map((h) => `${locale} ${key}: ${h}`)),
    );
    expect(found).toEqual([]);
  });

  it("recognises the emoji a person reported (💬 and ✂) and leaves the studio's symbols alone", () => {
    expect(hits("💬3 ✂ ⚠️")).toEqual(["💬 U+1F4AC", "✂ U+2702", "⚠ U+26A0", "️ U+FE0F"]);
    expect(hits("✓ • ● ← → ✕ ⌘ · …")).toEqual([]);
  });
});
