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
