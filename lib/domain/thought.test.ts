import { describe, expect, it } from "vitest";
import { composeThought, splitSentences, splitThought } from "./thought";

describe("three-part thought", () => {
  it("composes Chinese parts into one text with full stops", () => {
    expect(composeThought({ state: "当前在淘宝首页", nextAction: "点击搜索框", purpose: "以便输入商品名称" })).toBe(
      "当前在淘宝首页。点击搜索框。以便输入商品名称。",
    );
  });
  it("composes English parts with spaces and keeps existing end marks", () => {
    expect(composeThought({ state: "The home screen is shown.", nextAction: "Open Gmail", purpose: "to read the mail!" })).toBe(
      "The home screen is shown. Open Gmail. to read the mail!",
    );
  });
  it("skips empty parts", () => {
    expect(composeThought({ state: "", nextAction: "Tap Back", purpose: "" })).toBe("Tap Back.");
  });
  it("splits sentences without breaking decimals or abbreviations", () => {
    expect(splitSentences("Price is 3.5 yuan. Tap it, e.g. the first one. Done")).toEqual([
      "Price is 3.5 yuan.",
      "Tap it, e.g. the first one.",
      "Done",
    ]);
    expect(splitSentences("当前在首页。点击搜索！为了搜索？")).toEqual(["当前在首页。", "点击搜索！", "为了搜索？"]);
  });
  it("splits a model thought into state / next action / purpose, or keeps it whole", () => {
    expect(splitThought("当前在闲鱼首页。需要搜索。点击搜索框。以便输入。")).toEqual({
      state: "当前在闲鱼首页。",
      nextAction: "需要搜索。点击搜索框。",
      purpose: "以便输入。",
    });
    expect(splitThought("Open the app.")).toEqual({ state: "Open the app.", nextAction: "", purpose: "" });
  });
});

/** splitSentences as first written (one string per character): the rewrite must split exactly as it did. */
function splitSentencesByCharacter(text: string): string[] {
  const chars = [...text.replace(/\r\n?/g, "\n")];
  const out: string[] = [];
  let buf = "";
  chars.forEach((ch, i) => {
    buf += ch;
    const next = chars[i + 1];
    const ends = /[。！？!?\n]/.test(ch) || (ch === "." && (next === undefined || /\s/.test(next)));
    const moreMarks = next !== undefined && /[。！？!?]/.test(next);
    if (!ends || moreMarks || /\b(e\.g|i\.e|etc|vs)\.$/i.test(buf)) return;
    if (buf.trim()) out.push(buf.trim());
    buf = "";
  });
  if (buf.trim()) out.push(buf.trim());
  return out;
}

describe("splitSentences", () => {
  it("splits exactly as the character-by-character version on 20,000 random texts", () => {
    // Pieces that exercise every rule: end marks alone and in runs, decimals, abbreviations, spaces of
    // several kinds, line ends of three kinds, CJK, emoji (surrogate pairs) right after a full stop.
    const pieces = [
      "。",
      "！",
      "？",
      "!",
      "?",
      ".",
      "..",
      "…",
      " ",
      "\u3000",
      "\t",
      "\n",
      "\r\n",
      "\r",
      "3.5",
      "e.g.",
      "E.G.",
      "i.e.",
      "etc.",
      "vs.",
      "cf.",
      "Tap",
      "it",
      "当前",
      "点击",
      "😀",
      "a",
      "x.y",
      "",
    ];
    let seed = 42;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let n = 0; n < 20_000; n++) {
      const text = Array.from({ length: rand(14) }, () => pieces[rand(pieces.length)]).join("");
      expect(splitSentences(text), JSON.stringify(text)).toEqual(splitSentencesByCharacter(text));
    }
  });
});
