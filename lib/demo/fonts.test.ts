import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_FONT_DIR } from "./fonts";
import { buildTrajectory } from "./flows";
import { deriveSeed } from "./prng";

/** The code points a TrueType font maps to glyphs (cmap format 4 or 12, Windows Unicode). */
function codePoints(file: string): Set<number> {
  const buf = readFileSync(file);
  const tables = buf.readUInt16BE(4);
  let cmap = -1;
  for (let i = 0; i < tables; i++) {
    const rec = 12 + i * 16;
    if (buf.toString("latin1", rec, rec + 4) === "cmap") cmap = buf.readUInt32BE(rec + 8);
  }
  if (cmap < 0) throw new Error(`${file} has no cmap`);
  const out = new Set<number>();
  const subtables = buf.readUInt16BE(cmap + 2);
  for (let i = 0; i < subtables; i++) {
    const platform = buf.readUInt16BE(cmap + 4 + i * 8);
    const at = cmap + buf.readUInt32BE(cmap + 4 + i * 8 + 4);
    const format = buf.readUInt16BE(at);
    if (platform !== 3 && platform !== 0) continue;
    if (format === 12) {
      const groups = buf.readUInt32BE(at + 12);
      for (let g = 0; g < groups; g++) {
        const start = buf.readUInt32BE(at + 16 + g * 12);
        const end = buf.readUInt32BE(at + 20 + g * 12);
        for (let c = start; c <= end; c++) out.add(c);
      }
    } else if (format === 4) {
      const segs = buf.readUInt16BE(at + 6) / 2;
      for (let s = 0; s < segs; s++) {
        const end = buf.readUInt16BE(at + 14 + s * 2);
        const start = buf.readUInt16BE(at + 16 + segs * 2 + s * 2);
        for (let c = start; c <= end && c !== 0xffff; c++) out.add(c);
      }
    }
  }
  return out;
}

/** Every character the demo writes on its screens, over enough trajectories to meet every app and flow. */
function drawnCharacters(count: number): Set<string> {
  const chars = new Set<string>();
  for (let i = 0; i < count; i++) {
    for (const step of buildTrajectory(deriveSeed(7, i), i).steps) {
      for (const m of step.layout.svg.matchAll(/>([^<>]+)</g)) {
        const text = m[1]!
          .replace(/&lt;/g, "<")
          .replace(/&gt;/g, ">")
          .replace(/&quot;/g, '"')
          .replace(/&amp;/g, "&");
        for (const ch of text) if (ch.trim()) chars.add(ch);
      }
    }
  }
  return chars;
}

describe("demo font", () => {
  const drawn = drawnCharacters(120);

  it("the demo draws Chinese (the reason the font is there)", () => {
    expect([...drawn].filter((c) => /\p{Script=Han}/u.test(c)).length).toBeGreaterThan(200);
  });

  for (const weight of [400, 700]) {
    it(`studio-demo-sans-${weight}.ttf has a glyph for every character the demo draws`, () => {
      const have = codePoints(path.join(DEMO_FONT_DIR, `studio-demo-sans-${weight}.ttf`));
      const missing = [...drawn].filter((c) => !have.has(c.codePointAt(0)!));
      expect(missing.join(""), "re-run lib/demo/fonts/subset.py (see lib/demo/fonts/README.md)").toBe("");
    });
  }
});
