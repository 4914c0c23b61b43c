// The studio's one CSV writer, read back the way a spreadsheet or an RFC 4180 reader does: a bare CR, LF or CRLF
// outside quotes ends a record. Every control character, in a cell, must come back in the same cell of the same row.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { toCsv } from "./csv";

/** Strict: any line break outside quotes ends a record, and every record must have as many cells as the header. */
const readBack = (text: string) => parse(text, { bom: true, record_delimiter: ["\r\n", "\n", "\r"] }) as string[][];

const CONTROLS = [...Array.from({ length: 0x20 }, (_, i) => i), 0x7f].map((c) => String.fromCharCode(c));

describe("toCsv", () => {
  it('quotes a cell holding a carriage return: an app named "\\rCR App" stays one row of six', () => {
    const rows = [
      ["Clock", 1],
      ["\rCR App", 2],
      ["Mail", 3],
      ["a\r\nb", 4],
      ['quote " and, comma', 5],
      ["淘宝", 6],
    ];
    const back = readBack(toCsv(["app", "n"], rows));
    expect(back).toHaveLength(7);
    // escape_formulas puts a ' before a cell starting with CR, as before any text a spreadsheet would run.
    expect(back.slice(1)).toEqual(rows.map(([app, n]) => [app === "\rCR App" ? "'\rCR App" : app, String(n)]));
  });

  it("every control character (0x00-0x1F and 0x7F) inside a cell reads back as the same rows", () => {
    const rows = CONTROLS.map((c, i) => [`before${c}after`, i, `${c}`.repeat(2) + "x", null]);
    const back = readBack(toCsv(["text", "n", "twice", "empty"], rows));
    expect(back[0]).toEqual(["text", "n", "twice", "empty"]);
    expect(back.slice(1)).toEqual(
      rows.map(([text, n, twice]) => [
        text,
        String(n),
        // a cell starting with a tab or a carriage return is a formula to a spreadsheet: it gets a leading '
        /^[\t\r]/.test(String(twice)) ? `'${twice}` : twice,
        "",
      ]),
    );
  });
});

describe("the one CSV writer", () => {
  it("is the only module that imports csv-stringify", () => {
    const sources = ["app", "components", "lib", "scripts", "server", "bench", "e2e"].flatMap((dir) =>
      readdirSync(dir, { recursive: true, encoding: "utf8" })
        .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !f.includes("generated"))
        .map((f) => path.join(dir, f)),
    );
    const users = sources.filter((f) => /from ["']csv-stringify/.test(readFileSync(f, "utf8")));
    expect(users).toEqual([path.join("lib", "server", "export", "csv.ts")]);
  });
});
