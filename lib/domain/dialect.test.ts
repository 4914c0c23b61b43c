import { describe, expect, it } from "vitest";
import {
  detectActionDialect,
  detectResponseDialect,
  dumpJson,
  isUnchangedStep,
  renderAction,
  renderResponse,
  STUDIO_DIALECT,
  stepDialect,
  trajectoryDialect,
  UI_S1_DIALECT,
} from "./dialect";
import { mobileR1Response } from "./prompt";
import type { ToolCall } from "./tool-call";

const click: ToolCall = { action: "click", coordinate: [540, 1200] };
const typed: ToolCall = { action: "type", text: "北京 天气" };

// The Mobile-R1 release (FORMATS.md §1.4): no newline between blocks, the call JSON-encoded again.
const release =
  '<think>\n现在在手机主屏,下一步要点击“笔记”图标\n</think><action>\n点击“笔记”应用图标\n</action><tool_call>\n"{\\"name\\": \\"mobile_use\\", \\"arguments\\": {\\"action\\": \\"click\\", \\"coordinate\\": [540, 1200]}}"\n</tool_call>';
const uiS1 = '<think>\nThe search box is at the top.\n</think>\n<action>\n{"action": "click", "coordinate": [540, 1200]}\n</action>';
const compact =
  '<think>想</think><action>点</action><tool_call>{"name":"mobile_use","arguments":{"action":"type","text":"\\u5317\\u4eac \\u5929\\u6c14"}}</tool_call>';

describe("detectResponseDialect + renderResponse", () => {
  const cases: { name: string; text: string; parts: { thought: string; clearAction: string; call: ToolCall } }[] = [
    {
      name: "Mobile-R1 release",
      text: release,
      parts: { thought: "现在在手机主屏,下一步要点击“笔记”图标", clearAction: "点击“笔记”应用图标", call: click },
    },
    {
      name: "studio layout (mobileR1ResponseText)",
      text: mobileR1Response("State. Next. Purpose.", "Tap the search box", click),
      parts: { thought: "State. Next. Purpose.", clearAction: "Tap the search box", call: click },
    },
    { name: "UI-S1 format_response", text: uiS1, parts: { thought: "The search box is at the top.", clearAction: "", call: click } },
    { name: "compact JSON, ASCII escapes, no newlines", text: compact, parts: { thought: "想", clearAction: "点", call: typed } },
    {
      name: "whitespace around the blocks (a trailing newline)",
      text: `\n${uiS1}\n`,
      parts: { thought: "The search box is at the top.", clearAction: "", call: click },
    },
  ];
  it.each(cases)("$name: reading the layout and writing the same parts gives the text back byte for byte", ({ text, parts }) => {
    const d = detectResponseDialect(text)!;
    expect(d).toBeDefined();
    expect(renderResponse(d, parts)).toBe(text);
  });

  it("reads each property of the layout", () => {
    expect(detectResponseDialect(release)).toMatchObject({
      innerNewline: true,
      separators: ["", ""],
      callShape: "mobile_use",
      callQuoted: true,
      json: { spaced: true, asciiOnly: false },
      blocks: [
        { tag: "think", holds: "thought" },
        { tag: "action", holds: "clearAction" },
        { tag: "tool_call", holds: "call" },
      ],
    });
    expect(detectResponseDialect(uiS1)).toEqual(UI_S1_DIALECT);
    expect(detectResponseDialect(mobileR1Response("a", "b", click))).toEqual(STUDIO_DIALECT);
    expect(detectResponseDialect(compact)).toMatchObject({
      innerNewline: false,
      callQuoted: false,
      json: { spaced: false, asciiOnly: true },
    });
    expect(detectResponseDialect("no tags at all")).toBeUndefined();
  });

  it("a corrected call in the release's layout keeps the double encoding and the tag layout", () => {
    const d = detectResponseDialect(release)!;
    const out = renderResponse(d, { thought: "想", clearAction: "输入", call: typed });
    expect(out).toBe(
      '<think>\n想\n</think><action>\n输入\n</action><tool_call>\n"{\\"name\\": \\"mobile_use\\", \\"arguments\\": {\\"action\\": \\"type\\", \\"text\\": \\"北京 天气\\"}}"\n</tool_call>',
    );
    // What a reader of the release does: JSON-decode the block twice.
    const inner = /<tool_call>\n([\s\S]*)\n<\/tool_call>/.exec(out)![1]!;
    expect(JSON.parse(JSON.parse(inner) as string)).toEqual({ name: "mobile_use", arguments: typed });
  });

  it("a step keeps its own layout (a trailing newline), with the trajectory's escaping", () => {
    const traj = { ...STUDIO_DIALECT, json: { spaced: true, asciiOnly: true } };
    const d = stepDialect({ response: `${release}\n` }, traj);
    expect(d).toMatchObject({ after: "\n", callQuoted: true, json: { asciiOnly: true } });
    expect(stepDialect({}, traj)).toBe(traj);
    expect(stepDialect({ response: "no tags" }, traj)).toBe(traj);
  });

  it("a trajectory's escaping is read from any step that shows it", () => {
    const plain = mobileR1Response("a", "b", click);
    // Step 1's call shows nothing either way (all ASCII); step 2 escapes: a corrected step 1 escapes too.
    const d = trajectoryDialect([{}, { response: plain }, { response: compact }], UI_S1_DIALECT);
    expect(d).toEqual({ ...STUDIO_DIALECT, json: { spaced: true, asciiOnly: true } });
    expect(trajectoryDialect([{ response: plain }, { response: release }], UI_S1_DIALECT).json.asciiOnly).toBe(false);
    expect(trajectoryDialect([{}, { response: "plain" }], UI_S1_DIALECT)).toBe(UI_S1_DIALECT);
  });
});

describe("dumpJson and the action field", () => {
  it.each([
    [{ spaced: true, asciiOnly: false }, '{"a": [1, 2], "t": "北京"}'],
    [{ spaced: false, asciiOnly: false }, '{"a":[1,2],"t":"北京"}'],
    [{ spaced: true, asciiOnly: true }, '{"a": [1, 2], "t": "\\u5317\\u4eac"}'],
  ])("prints %o as Python's json.dumps does", (style, expected) => {
    expect(dumpJson({ a: [1, 2], t: "北京" }, style)).toBe(expected);
  });

  it("reads an action string's spacing and shape, and writes a corrected call the same way", () => {
    const release = '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [540, 1200]}}';
    const d = detectActionDialect(release)!;
    expect(renderAction(d, click)).toBe(release);
    const escaped = '{"name":"mobile_use","arguments":{"action":"type","text":"\\u5317\\u4eac \\u5929\\u6c14"}}';
    expect(renderAction(detectActionDialect(escaped)!, typed)).toBe(escaped);
    expect(renderAction(detectActionDialect({ action: "click", coordinate: [1, 2] })!, click)).toEqual(click);
    expect(detectActionDialect("not json")).toBeUndefined();
  });
});

describe("isUnchangedStep", () => {
  const original = { thought: "t", clearAction: "c", toolCall: click, box: [1, 2, 3, 4] as [number, number, number, number] };
  const step = {
    thought: { state: "", nextAction: "", purpose: "", text: "t" },
    clearAction: "c",
    toolCall: { coordinate: [540, 1200], action: "click" } as ToolCall,
    box: [1, 2, 3, 4] as [number, number, number, number],
    original,
  };
  it("is unchanged when every written field equals the import (key order aside), changed when any differs", () => {
    expect(isUnchangedStep(step)).toBe(true);
    expect(isUnchangedStep({ ...step, thought: { ...step.thought, text: "t2" } })).toBe(false);
    expect(isUnchangedStep({ ...step, clearAction: "c2" })).toBe(false);
    expect(isUnchangedStep({ ...step, toolCall: { action: "click", coordinate: [541, 1200] } })).toBe(false);
    expect(isUnchangedStep({ ...step, box: null })).toBe(false);
    expect(isUnchangedStep({ ...step, box: null, original: { ...original, box: undefined } })).toBe(true);
  });
});
