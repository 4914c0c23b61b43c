import { readFileSync } from "node:fs";
import { COOKBOOK_DIR } from "@/fixtures";
import { describe, expect, it } from "vitest";
import { smartResize } from "./geometry";
import { actionsOfferedBy, declaredActions, mobileR1Response, mobileUseSystemPrompt, mobileUseUserText } from "./prompt";

const REFERENCE = COOKBOOK_DIR;

/** The text between `<|im_start|>system\n` and the first `<|im_end|>` of a cookbook reference. */
function referenceSystem(file: string): string {
  const text = readFileSync(`${REFERENCE}/${file}`, "utf8");
  const start = "<|im_start|>system\n";
  expect(text.startsWith(start)).toBe(true);
  return text.slice(start.length, text.indexOf("<|im_end|>"));
}

describe("mobileUseSystemPrompt (golden: Qwen cookbook output)", () => {
  it.each([
    ["qwen-cookbook-mobile-en-1080x2400.txt", 1080, 2400],
    ["qwen-cookbook-mobile-zh-720x1280.txt", 720, 1280],
  ])("%s byte for byte", (file, width, height) => {
    const resized = smartResize({ width, height });
    expect(mobileUseSystemPrompt(resized)).toBe(referenceSystem(file));
  });

  it("announces the resized resolution it is given", () => {
    expect(mobileUseSystemPrompt({ width: 672, height: 1484 })).toContain("* The screen's resolution is 672x1484.\\n");
  });
});

describe("mobileUseUserText", () => {
  it("matches the English cookbook example's user turn", () => {
    const text = mobileUseUserText("Open the file manager app and view the au_uu_SzH3yR2.mp3 file in MUSIC Folder", [
      { action: "open", text: "File Manager" },
    ]);
    expect(text).toBe(
      'The user query:  Open the file manager app and view the au_uu_SzH3yR2.mp3 file in MUSIC Folder\nTask progress (You have done the following operation on the current device): Step 1: {"name": "mobile_use", "arguments": {"action": "open", "text": "File Manager"}}; ',
    );
  });

  it("numbers steps from 1 and ends every step with '; '", () => {
    const text = mobileUseUserText("x", [
      { action: "click", coordinate: [1, 2] },
      { action: "system_button", button: "Back" },
    ]);
    expect(
      text.endsWith(
        'Step 1: {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1, 2]}}; Step 2: {"name": "mobile_use", "arguments": {"action": "system_button", "button": "Back"}}; ',
      ),
    ).toBe(true);
  });

  it("keeps non-ASCII text unescaped (ensure_ascii=False)", () => {
    expect(mobileUseUserText("打开闲鱼", [{ action: "open", text: "闲鱼" }])).toContain('"text": "闲鱼"');
  });
});

describe("mobileR1Response", () => {
  it("lays out think, action and tool_call on their own lines", () => {
    expect(mobileR1Response("t", "a", { action: "wait", time: 2 })).toBe(
      '<think>\nt\n</think>\n<action>\na\n</action>\n<tool_call>\n{"name": "mobile_use", "arguments": {"action": "wait", "time": 2}}\n</tool_call>',
    );
  });
});

describe("action space", () => {
  it("the cookbook prompt offers the nine mobile_use actions and not answer", () => {
    expect(actionsOfferedBy(mobileUseSystemPrompt({ width: 1092, height: 2408 }))).toEqual([
      "key",
      "click",
      "long_press",
      "swipe",
      "type",
      "system_button",
      "open",
      "wait",
      "terminate",
    ]);
  });
  it("the ui-s1 space adds answer(text) after type, as UI-S1's RAW_SPACE does, and changes nothing else but the text argument's note", () => {
    const base = mobileUseSystemPrompt({ width: 1092, height: 2408 });
    const withAnswer = mobileUseSystemPrompt({ width: 1092, height: 2408 }, "ui-s1");
    expect(actionsOfferedBy(withAnswer)).toEqual([...declaredActions("ui-s1")]);
    expect(declaredActions("ui-s1")).toEqual([
      "key",
      "click",
      "long_press",
      "swipe",
      "type",
      "answer",
      "system_button",
      "open",
      "wait",
      "terminate",
    ]);
    expect(withAnswer).toContain("\\n* `answer`: Output the specified answer.\\n* `system_button`");
    expect(withAnswer).toContain("Required only by `action=key`, `action=type`, `action=answer`, and `action=open`.");
    const strip = (s: string) =>
      s.replace("\\n* `answer`: Output the specified answer.", "").replace(', "answer"', "").replace(" `action=answer`,", "");
    expect(strip(withAnswer)).toBe(base);
  });
  it("reads nothing from a text without a tool", () => {
    expect(actionsOfferedBy("You are a helpful assistant.")).toEqual([]);
  });
});
