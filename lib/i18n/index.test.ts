import { describe, expect, it } from "vitest";
import { translator } from "./index";

describe("message catalogue", () => {
  it("translates and fills placeholders in both languages", () => {
    expect(translator("en")("forbidden.body", { role: "annotator" })).toMatch(/Your role \(annotator\)/);
    expect(translator("zh")("nav.signOut")).toBe("退出登录");
    expect(translator("zh")("forbidden.body", { role: "标注员" })).toContain("（标注员）");
  });
});
