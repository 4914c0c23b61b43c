import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { CATALOGUE, LOCALE_NAMES } from "./index";

const FONTS = path.join(process.cwd(), "public", "fonts");

/** Reads a UIntBase128 (WOFF2's variable-length integer) at `at`: its value and the next offset. */
function base128(buf: Buffer, at: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const byte = buf.readUInt8(at + i);
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) return [value, at + i + 1];
  }
  throw new Error("UIntBase128 longer than 5 bytes");
}

/**
 * The `cmap` table of a WOFF2 font, unpacked with nothing but Node's Brotli: the table directory
 * gives each table's length in the decompressed stream (transformed glyf/loca and hmtx count by
 * their transformed length), and cmap (known tag 0) is never transformed.
 */
function woff2Cmap(file: string): Buffer {
  const buf = readFileSync(file);
  if (buf.toString("latin1", 0, 4) !== "wOF2") throw new Error(`${file} is not WOFF2`);
  const numTables = buf.readUInt16BE(12);
  const compressedSize = buf.readUInt32BE(20);
  let at = 48;
  const tables: { tag: number | string; length: number }[] = [];
  for (let i = 0; i < numTables; i++) {
    const flags = buf.readUInt8(at++);
    const known = flags & 0x3f;
    let tag: number | string = known;
    if (known === 0x3f) {
      tag = buf.toString("latin1", at, at + 4);
      at += 4;
    }
    let origLength: number;
    [origLength, at] = base128(buf, at);
    const version = (flags >> 6) & 3;
    // glyf (10) and loca (11) are transformed at version 0; every other table at a non-zero version.
    const transformed = known === 10 || known === 11 ? version === 0 : version !== 0;
    let length = origLength;
    if (transformed) [length, at] = base128(buf, at);
    tables.push({ tag, length });
  }
  const stream = brotliDecompressSync(buf.subarray(at, at + compressedSize));
  let offset = 0;
  for (const t of tables) {
    if (t.tag === 0) return stream.subarray(offset, offset + t.length);
    offset += t.length;
  }
  throw new Error(`${file} has no cmap`);
}

/** The code points a cmap maps to glyphs (format 4 or 12 subtables, Unicode or Windows platform). */
function codePoints(cmap: Buffer): Set<number> {
  const out = new Set<number>();
  const subtables = cmap.readUInt16BE(2);
  for (let i = 0; i < subtables; i++) {
    const platform = cmap.readUInt16BE(4 + i * 8);
    const at = cmap.readUInt32BE(4 + i * 8 + 4);
    if (platform !== 3 && platform !== 0) continue;
    const format = cmap.readUInt16BE(at);
    if (format === 12) {
      const groups = cmap.readUInt32BE(at + 12);
      for (let g = 0; g < groups; g++) {
        const start = cmap.readUInt32BE(at + 16 + g * 12);
        const end = cmap.readUInt32BE(at + 20 + g * 12);
        for (let c = start; c <= end; c++) out.add(c);
      }
    } else if (format === 4) {
      const segs = cmap.readUInt16BE(at + 6) / 2;
      for (let s = 0; s < segs; s++) {
        const end = cmap.readUInt16BE(at + 14 + s * 2);
        const start = cmap.readUInt16BE(at + 16 + segs * 2 + s * 2);
        for (let c = start; c <= end && c !== 0xffff; c++) out.add(c);
      }
    }
  }
  return out;
}

describe("the UI's bundled Chinese font", () => {
  const wanted = new Set<string>();
  // The formatter writes characters of its own (2026年11月25日, 秒, 小时): its CJK characters count too.
  const formatter = [...readFileSync(path.join(process.cwd(), "lib", "i18n", "format.ts"), "utf8")].filter(
    (ch) => ch.codePointAt(0)! >= 0x3000,
  );
  for (const text of [...Object.values(CATALOGUE.zh), ...Object.values(LOCALE_NAMES), formatter.join("")])
    for (const ch of text) if (ch.trim()) wanted.add(ch);

  it.each([400, 700])("weight %i holds every character of the Chinese catalogue (else run npm run fonts:ui)", (weight) => {
    const have = codePoints(woff2Cmap(path.join(FONTS, `studio-ui-sc-${weight}.woff2`)));
    const missing = [...wanted].filter((ch) => !have.has(ch.codePointAt(0)!));
    expect(missing.join(""), "characters of lib/i18n/messages (zh) missing from the font").toBe("");
    // Imported data too: every hanzi of GB 2312 (ordinary simplified Chinese, e.g. the demo's 打开饿了么，点一份汉堡外卖).
    const decoder = new TextDecoder("gbk");
    const gb2312: string[] = [];
    for (let row = 0xb0; row <= 0xf7; row++)
      for (let cell = 0xa1; cell <= 0xfe; cell++) {
        const ch = decoder.decode(new Uint8Array([row, cell]));
        if (/^[\u4e00-\u9fff]$/.test(ch)) gb2312.push(ch);
      }
    expect(gb2312.length).toBe(6763);
    expect(gb2312.filter((ch) => !have.has(ch.codePointAt(0)!)).join(""), "GB 2312 hanzi missing from the font").toBe("");
    // A subset, not the whole 10 MB family (the browser fetches it only for pages with CJK text).
    expect(have.size).toBeLessThan(8_000);
    expect(statSync(path.join(FONTS, `studio-ui-sc-${weight}.woff2`)).size).toBeLessThan(1_200_000);
  });

  it("is first in the Chinese UI's font stack, with its licence beside it", () => {
    const css = readFileSync(path.join(process.cwd(), "app", "globals.css"), "utf8");
    for (const weight of [400, 700]) expect(css).toContain(`url("/fonts/studio-ui-sc-${weight}.woff2") format("woff2")`);
    const zhStack = /:lang\(zh[^)]*\)[^{]*\{[^}]*--font:\s*([^;]+);/.exec(css)?.[1] ?? "";
    expect(zhStack.split(",")[0]?.trim()).toBe('"Studio UI SC"');
    expect(readFileSync(path.join(FONTS, "OFL.txt"), "utf8")).toContain("SIL Open Font License");
  });
});
