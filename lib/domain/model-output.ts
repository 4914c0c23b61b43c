import { normalizeAction, type FieldProblem } from "./normalize";
import { problemOf } from "./problems";
import type { ToolCall } from "./tool-call";

/** Which tagged layout a response uses. */
export type OutputStyle = "mobile-r1" | "ui-s1" | "unknown";

export type ParsedOutput = {
  /** The text exactly as given. */
  raw: string;
  style: OutputStyle;
  thought?: string;
  /** Mobile-R1's one-sentence clear action (the <action> tag when it holds prose). */
  clearAction?: string;
  /** The normalised call, in whatever frame the text used. */
  toolCall?: ToolCall;
  /** The tool call's JSON text as written. */
  toolCallText?: string;
  /** Structure checks used by the format rewards. */
  tags: { think: boolean; action: boolean; toolCall: boolean; inOrder: boolean };
  notes: string[];
  /** What could not be read; empty when the whole response parsed. */
  problems: FieldProblem[];
};

type Tag = { name: string; body: string; start: number; closed: boolean };

/** Find <name>...</name>; an unclosed tag runs to the next known opening tag or the end. */
function findTag(text: string, names: string[]): Tag | undefined {
  for (const name of names) {
    const open = text.indexOf(`<${name}>`);
    if (open < 0) continue;
    const bodyStart = open + name.length + 2;
    const close = text.indexOf(`</${name}>`, bodyStart);
    if (close >= 0) return { name, body: text.slice(bodyStart, close).trim(), start: open, closed: true };
    const next = text.slice(bodyStart).search(/<(think|thinking|action|tool_call|conclusion)>/);
    const end = next < 0 ? text.length : bodyStart + next;
    return { name, body: text.slice(bodyStart, end).trim(), start: open, closed: false };
  }
  return undefined;
}

/** Strip ```json fences a model sometimes wraps around JSON. */
function unfence(s: string): string {
  const m = s.match(/^```[a-zA-Z]*\s*([\s\S]*?)\s*```$/);
  return (m ? m[1]! : s).trim();
}

/**
 * Parse a model response in either tagged layout, tolerantly:
 * - Mobile-R1: `<think>thought</think><action>clear action</action><tool_call>{"name": "mobile_use", "arguments": {...}}</tool_call>`
 * - UI-S1: `<think>thought</think><action>{"action": "click", ...}</action>`
 * (`<thinking>` is accepted for `<think>`.) Never throws: what fails is listed in `problems`.
 */
export function parseModelOutput(raw: string): ParsedOutput {
  const notes: string[] = [];
  const problems: FieldProblem[] = [];
  const think = findTag(raw, ["think", "thinking"]);
  const action = findTag(raw, ["action"]);
  const tool = findTag(raw, ["tool_call"]);
  for (const t of [think, action, tool]) if (t && !t.closed) notes.push(`<${t.name}> is not closed`);

  const actionIsJson = action !== undefined && /^\{/.test(unfence(action.body));
  const style: OutputStyle = tool ? "mobile-r1" : actionIsJson ? "ui-s1" : action || think ? "mobile-r1" : "unknown";
  const callText = tool ? unfence(tool.body) : actionIsJson ? unfence(action!.body) : undefined;

  let toolCall: ToolCall | undefined;
  if (callText === undefined) {
    problems.push({ field: "tool_call", ...problemOf("noToolCall") });
  } else {
    const n = normalizeAction(callText);
    if (n.ok) {
      toolCall = n.call;
      notes.push(...n.notes);
    } else {
      problems.push(...n.problems.map((p) => ({ ...p, field: p.field === "action" && callText === "" ? "tool_call" : p.field })));
    }
  }
  if (!think || think.body === "") problems.push({ field: "think", ...problemOf(think ? "empty" : "noThink") });

  const present = [think, action, tool].filter((t): t is Tag => t !== undefined);
  const inOrder = present.every((t, i) => i === 0 || t.start > present[i - 1]!.start);
  return {
    raw,
    style,
    thought: think?.body,
    clearAction: action && !actionIsJson ? action.body : undefined,
    toolCall,
    toolCallText: callText,
    tags: {
      think: !!think?.closed && think.body !== "",
      action: !!action?.closed && action.body !== "",
      toolCall: !!tool?.closed && tool.body !== "",
      inOrder,
    },
    notes,
    problems,
  };
}
