import { describe, expect, it } from "vitest";
import { parseModelOutput } from "./model-output";

describe("parseModelOutput", () => {
  it("reads a Mobile-R1 response: thought, clear action, tool call", () => {
    const raw =
      '<think>\n当前在闲鱼首页。点击搜索框。以便输入商品名。\n</think>\n<action>\n点击搜索框\n</action>\n<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [540, 236]}}\n</tool_call>';
    const p = parseModelOutput(raw);
    expect(p.style).toBe("mobile-r1");
    expect(p.thought).toBe("当前在闲鱼首页。点击搜索框。以便输入商品名。");
    expect(p.clearAction).toBe("点击搜索框");
    expect(p.toolCall).toEqual({ action: "click", coordinate: [540, 236] });
    expect(p.tags).toEqual({ think: true, action: true, toolCall: true, inOrder: true });
    expect(p.problems).toEqual([]);
    expect(p.raw).toBe(raw);
  });
  it("reads a UI-S1 response, whose <action> holds JSON", () => {
    const p = parseModelOutput('<think>\nopen the app\n</think>\n<action>\n{"action": "open", "text": "Zoho Meeting"}\n</action>');
    expect(p.style).toBe("ui-s1");
    expect(p.toolCall).toEqual({ action: "open", text: "Zoho Meeting" });
    expect(p.clearAction).toBeUndefined();
  });
  it("accepts <thinking> and a fenced tool call", () => {
    const p = parseModelOutput(
      '<thinking>x</thinking><tool_call>```json\n{"name": "mobile_use", "arguments": {"action": "wait", "time": 2}}\n```</tool_call>',
    );
    expect(p.toolCall).toEqual({ action: "wait", time: 2 });
    expect(p.thought).toBe("x");
  });
  it("keeps going with an unclosed tag and says so", () => {
    const p = parseModelOutput(
      '<think>thinking<tool_call>{"name": "mobile_use", "arguments": {"action": "terminate", "status": "success"}}',
    );
    expect(p.thought).toBe("thinking");
    expect(p.toolCall).toEqual({ action: "terminate", status: "success" });
    expect(p.tags.think).toBe(false);
    expect(p.notes.join(" ")).toMatch(/not closed/);
  });
  it("reports tags out of order", () => {
    const p = parseModelOutput(
      '<tool_call>{"name": "mobile_use", "arguments": {"action": "wait", "time": 1}}</tool_call><think>late</think>',
    );
    expect(p.tags.inOrder).toBe(false);
  });
  it("names what failed in a malformed response", () => {
    const p = parseModelOutput("<think></think><tool_call>{broken</tool_call>");
    expect(p.toolCall).toBeUndefined();
    expect(p.problems.map((x) => x.field)).toEqual(expect.arrayContaining(["action", "think"]));
    expect(parseModelOutput("just prose").problems[0]).toMatchObject({ field: "tool_call" });
    expect(parseModelOutput('<tool_call>{"name": "mobile_use", "arguments": {"action": "fly"}}</tool_call>').problems[0]!.message).toMatch(
      /unknown action/,
    );
  });
});
