import { readFileSync } from "node:fs";
import { COOKBOOK_DIR } from "@/fixtures";
import { describe, expect, it } from "vitest";
import { smartResize } from "./geometry";
import { mobileR1Response, mobileUseSystemPrompt, mobileUseUserText } from "./prompt";

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
    expect(text.endsWith('Step 1: {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1, 2]}}; Step 2: {"name": "mobile_use", "arguments": {"action": "system_button", "button": "Back"}}; ')).toBe(true);
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
