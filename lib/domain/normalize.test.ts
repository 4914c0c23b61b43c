import { describe, expect, it } from "vitest";
import { normalizeAction, normalizeActionForImport } from "./normalize";

const ok = (input: unknown, screen?: { width: number; height: number }) => {
  const r = normalizeAction(input, screen);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r.call;
};
const problems = (input: unknown) => {
  const r = normalizeAction(input);
  if (r.ok) throw new Error(`expected problems, got ${JSON.stringify(r.call)}`);
  return r.problems;
};

describe("normalizeAction: dialects real data uses", () => {
  it("passes a clean mobile_use call through", () => {
    expect(ok({ action: "click", coordinate: [540, 236] })).toEqual({ action: "click", coordinate: [540, 236] });
    expect(ok({ name: "mobile_use", arguments: { action: "swipe", coordinate: [1, 2], coordinate2: [3, 4] } })).toEqual({
      action: "swipe",
      coordinate: [1, 2],
      coordinate2: [3, 4],
    });
  });
  it("reads the JSON string Mobile-R1 stores in `action`", () => {
    expect(ok('{"name": "mobile_use", "arguments": {"action": "type", "text": "GTX 5090"}}')).toEqual({ action: "type", text: "GTX 5090" });
  });
  it("maps older Mobile-R1 names (Tap, Type, Terminate) and a Search button", () => {
    expect(ok({ action: "Tap", coordinate: [10, 20] })).toEqual({ action: "click", coordinate: [10, 20] });
    expect(ok({ action: "Type", text: "闲鱼" })).toEqual({ action: "type", text: "闲鱼" });
    expect(ok({ action: "Terminate", status: "Success" })).toEqual({ action: "terminate", status: "success" });
    expect(ok({ action: "system_button", button: "Search" })).toEqual({ action: "system_button", button: "Enter" });
    expect(ok({ action: "system_button", button: "back" })).toEqual({ action: "system_button", button: "Back" });
  });
  it("maps AndroidControl actions", () => {
    expect(ok({ action_type: "click", x: 540, y: 389 })).toEqual({ action: "click", coordinate: [540, 389] });
    expect(ok({ action_type: "navigate_back" })).toEqual({ action: "system_button", button: "Back" });
    expect(ok({ action_type: "navigate_home" })).toEqual({ action: "system_button", button: "Home" });
    expect(ok({ action_type: "open_app", app_name: "Zoho Meeting" })).toEqual({ action: "open", text: "Zoho Meeting" });
    expect(ok({ action_type: "input_text", text: "hi" })).toEqual({ action: "type", text: "hi" });
    expect(ok({ action_type: "wait" })).toEqual({ action: "wait", time: 2 });
    expect(ok({ action_type: "long_press", x: 1, y: 2 })).toEqual({ action: "long_press", coordinate: [1, 2], time: 2 });
  });
  it("turns a scroll into the finger's swipe (scroll down = finger moves up)", () => {
    const down = ok({ action_type: "scroll", direction: "down" }, { width: 1080, height: 2400 });
    expect(down).toEqual({ action: "swipe", coordinate: [540, 1800], coordinate2: [540, 600] });
    const right = ok({ action_type: "scroll", direction: "right" }, { width: 1000, height: 2000 });
    expect(right).toEqual({ action: "swipe", coordinate: [750, 1000], coordinate2: [250, 1000] });
  });
  it("accepts coordinates written as strings and numeric strings for time", () => {
    expect(ok({ action: "click", coordinate: "(12, 34)" })).toEqual({ action: "click", coordinate: [12, 34] });
    expect(ok({ action: "wait", time: "3" })).toEqual({ action: "wait", time: 3 });
  });
});

describe("normalizeAction: what it refuses, and says why", () => {
  it("names an unknown action", () => {
    // Each problem carries a code and its parameters (the page words it in the reader's language).
    expect(problems({ action: "teleport" })).toEqual([
      { field: "action", code: "unknownAction", params: { action: "teleport" }, message: 'unknown action "teleport"' },
    ]);
  });
  it("names missing and malformed fields", () => {
    expect(problems({ action: "click" })[0]).toMatchObject({ field: "coordinate", message: "is missing" });
    expect(problems({ action: "click", coordinate: [1] })[0]!.field).toBe("coordinate");
    expect(problems({ action: "swipe", coordinate: [1, 2] })[0]).toMatchObject({ field: "coordinate2" });
    expect(problems({ action: "system_button", button: "Teleport" })[0]!.message).toMatch(/Back, Home, Menu, Enter/);
    expect(problems({ action: "terminate", status: "maybe" })[0]!.field).toBe("status");
    expect(problems({ action: "wait", time: -1 })[0]!.field).toBe("time");
  });
  it("refuses broken JSON, non-objects and other tools", () => {
    expect(problems("{not json")[0]!.message).toMatch(/not valid JSON/);
    expect(problems([1, 2])[0]!.message).toMatch(/must be an object/);
    expect(problems({ name: "computer_use", arguments: { action: "click" } })[0]!.message).toMatch(/unknown tool/);
  });
  it("refuses a scroll with no screen size to place it on", () => {
    expect(problems({ action_type: "scroll", direction: "down" })[0]!.message).toMatch(/screenshot size/);
  });
  it("names a scroll without a direction as a problem instead of throwing", () => {
    expect(problems({ action: "scroll" })).toEqual([{ field: "direction", code: "missing", message: "is missing" }]);
    expect(problems({ action: "scroll", coordinate: [350, 1357] })).toEqual([
      { field: "direction", code: "missing", message: "is missing" },
    ]);
  });
});

describe("normalizeActionForImport: the Mobile-R1 release as published", () => {
  const imported = (input: unknown) => {
    const r = normalizeActionForImport(input);
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    return r.call;
  };
  it("reads an icon tap stored as system_button Tap as a click without a point", () => {
    const tap = '{"name": "mobile_use", "arguments": {"action": "system_button", "button": "Tap"}}';
    expect(imported(tap)).toEqual({ action: "click", coordinate: null });
    expect(imported({ action: "system_button", button: "long_press" })).toEqual({ action: "long_press", coordinate: null, time: 2 });
    // A prediction (normalizeAction) is never pointless: it is an answer with no point, scored as unreadable.
    expect(problems(tap)[0]).toMatchObject({ field: "coordinate", message: "is missing" });
  });
  it("keeps a click or long press that has no coordinate, but not a malformed one", () => {
    expect(imported({ action: "click" })).toEqual({ action: "click", coordinate: null });
    expect(imported({ action: "click", coordinate: null })).toEqual({ action: "click", coordinate: null });
    expect(imported({ action: "long_press", time: 1 })).toEqual({ action: "long_press", coordinate: null, time: 1 });
    expect(normalizeActionForImport({ action: "click", coordinate: [1] }).ok).toBe(false);
    expect(normalizeActionForImport({ action: "click", coordinate: "nowhere" }).ok).toBe(false);
  });
  it("unwraps a call JSON-encoded as a string once or twice", () => {
    const call = { name: "mobile_use", arguments: { action: "click", coordinate: [540, 1200] } };
    const once = JSON.stringify(call);
    expect(imported(once)).toEqual({ action: "click", coordinate: [540, 1200] });
    expect(imported(JSON.stringify(once))).toEqual({ action: "click", coordinate: [540, 1200] });
    expect(ok(JSON.stringify(JSON.stringify(once)))).toEqual({ action: "click", coordinate: [540, 1200] });
    expect(normalizeActionForImport(JSON.stringify(JSON.stringify(JSON.stringify(once)))).ok).toBe(false);
  });
  it("reads hardware keys stored as system_button as key events", () => {
    expect(ok({ action: "system_button", button: "Power" })).toEqual({ action: "key", text: "power" });
    expect(ok({ action: "system_button", button: "VolumeUp" })).toEqual({ action: "key", text: "volume_up" });
  });
});
