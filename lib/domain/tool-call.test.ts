import { describe, expect, it } from "vitest";
import { describeToolCall, formatMobileUseCall, mapPoints, pyJsonDumps, screenProblems, toolCallSchema } from "./tool-call";

describe("toolCallSchema", () => {
  it("accepts every action of mobile_use plus answer", () => {
    const calls = [
      { action: "click", coordinate: [1, 2] },
      { action: "long_press", coordinate: [1, 2], time: 2 },
      { action: "swipe", coordinate: [1, 2], coordinate2: [3, 4] },
      { action: "type", text: "" },
      { action: "key", text: "volume_up" },
      { action: "system_button", button: "Menu" },
      { action: "open", text: "微信" },
      { action: "wait", time: 0.5 },
      { action: "terminate", status: "failure" },
      { action: "answer", text: "42" },
    ];
    for (const c of calls) expect(toolCallSchema.safeParse(c).success, JSON.stringify(c)).toBe(true);
  });
  it("rejects extra or missing arguments", () => {
    expect(toolCallSchema.safeParse({ action: "click", coordinate: [1, 2], text: "x" }).success).toBe(false);
    expect(toolCallSchema.safeParse({ action: "swipe", coordinate: [1, 2] }).success).toBe(false);
    expect(toolCallSchema.safeParse({ action: "click", coordinate: [1, Number.NaN] }).success).toBe(false);
    expect(toolCallSchema.safeParse({ action: "system_button", button: "back" }).success).toBe(false);
  });
});

describe("tool call helpers", () => {
  it("prints the call as Python json.dumps does (the cookbook's spacing)", () => {
    expect(formatMobileUseCall({ action: "open", text: "File Manager" })).toBe(
      '{"name": "mobile_use", "arguments": {"action": "open", "text": "File Manager"}}',
    );
    expect(formatMobileUseCall({ action: "type", text: "闲鱼" })).toBe(
      '{"name": "mobile_use", "arguments": {"action": "type", "text": "闲鱼"}}',
    );
  });
  it("finds points that leave the screenshot", () => {
    expect(screenProblems({ action: "click", coordinate: [1081, 5] }, { width: 1080, height: 2400 })).toEqual([
      { field: "coordinate", message: "[1081, 5] lies outside the 1080x2400 screenshot" },
    ]);
    expect(screenProblems({ action: "swipe", coordinate: [0, 0], coordinate2: [5, -1] }, { width: 10, height: 10 })[0]!.field).toBe(
      "coordinate2",
    );
    expect(screenProblems({ action: "click", coordinate: [1080, 2400] }, { width: 1080, height: 2400 })).toEqual([]);
  });
  it("maps points and describes calls", () => {
    expect(mapPoints({ action: "swipe", coordinate: [1, 2], coordinate2: [3, 4] }, ([x, y]) => [x * 2, y * 2])).toEqual({
      action: "swipe",
      coordinate: [2, 4],
      coordinate2: [6, 8],
    });
    expect(describeToolCall({ action: "long_press", coordinate: [10.4, 20.6], time: 2 })).toBe("long_press (10, 21) 2s");
  });
});

describe("pyJsonDumps", () => {
  // As first written (entries, map, join): the appending version must print the same for any value.
  const asWritten = (value: unknown): string => {
    if (value === null || typeof value !== "object") return JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map(asWritten).join(", ")}]`;
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${asWritten(v)}`).join(", ")}}`;
  };
  it("prints Python's json.dumps spacing, key order kept, undefined left out of objects and empty in arrays", () => {
    const values: unknown[] = [
      { name: "mobile_use", arguments: { action: "swipe", coordinate: [1, 2.5], coordinate2: [-3, 4e21] } },
      { b: 1, a: '引号"\n\u0000<image>', 2: null, 1: true, skipped: undefined },
      [undefined, null, [], {}, [[1, [2]], { x: [undefined] }], "", 0, -0, Number.NaN],
      "plain",
      42,
      null,
      {},
      [],
    ];
    for (const v of values) expect(pyJsonDumps(v)).toBe(asWritten(v));
    expect(pyJsonDumps({ a: [1, 2], b: { c: "d" } })).toBe('{"a": [1, 2], "b": {"c": "d"}}');
    expect(pyJsonDumps([undefined, 1])).toBe("[, 1]");
  });
});
