// How a source writes a step's response and action text, read from its own strings, so an export can
// write a corrected step the way the source wrote its steps (tag layout, tool-call encoding, JSON
// spacing and escaping) and an unchanged step exactly as it came.
import type { Box } from "./geometry";
import type { StepToolCall } from "./tool-call";
import type { CanonicalStep, OriginalOutput } from "./trajectory";

/**
 * How JSON is printed: Python json.dumps' default separators (", " and ": ") or compact ones
 * (",", ":"), and whether non-ASCII characters are written as \uXXXX escapes (ensure_ascii=True).
 */
export type JsonStyle = { spaced: boolean; asciiOnly: boolean };

/** What a tagged block holds. */
export type BlockContent = "thought" | "clearAction" | "call";

/**
 * A response layout. `blocks`: the tags in order and what each holds. `innerNewline`: a newline just
 * inside each tag (`<think>\n…\n</think>`). `separators[i]`: the text between block i and i + 1.
 * `callShape`: the call wrapped as {"name": "mobile_use", "arguments": {…}} or the arguments alone
 * (UI-S1's `{"action": …}`). `callQuoted`: the call's JSON encoded again as a JSON string (the
 * Mobile-R1 release's `<tool_call>\n"{\"name\": …}"\n</tool_call>`).
 */
export type ResponseDialect = {
  blocks: { tag: string; holds: BlockContent }[];
  innerNewline: boolean;
  separators: string[];
  callShape: "mobile_use" | "arguments";
  callQuoted: boolean;
  json: JsonStyle;
  /** Whitespace before the first tag and after the last one (a response ending in a newline). */
  before?: string;
  after?: string;
};

/** How a source's per-step `action` field holds the call: a JSON string or an object, and its shape and spacing. */
export type ActionDialect = { kind: "string" | "object"; callShape: "mobile_use" | "arguments"; json: JsonStyle };

const PY_JSON: JsonStyle = { spaced: true, asciiOnly: false };

/** The studio's own layout (lib/domain/prompt.ts mobileR1ResponseText): newline-separated blocks, the call as plain JSON. */
export const STUDIO_DIALECT: ResponseDialect = {
  blocks: [
    { tag: "think", holds: "thought" },
    { tag: "action", holds: "clearAction" },
    { tag: "tool_call", holds: "call" },
  ],
  innerNewline: true,
  separators: ["\n", "\n"],
  callShape: "mobile_use",
  callQuoted: false,
  json: PY_JSON,
};

/** UI-S1's layout (`format_response`): `<think>\n…\n</think>\n<action>\n{"action": …}\n</action>`. */
export const UI_S1_DIALECT: ResponseDialect = {
  blocks: [
    { tag: "think", holds: "thought" },
    { tag: "action", holds: "call" },
  ],
  innerNewline: true,
  separators: ["\n"],
  callShape: "arguments",
  callQuoted: false,
  json: PY_JSON,
};

/** The Mobile-R1 release's `action` field: a JSON string of the wrapped call, Python spacing. */
export const MOBILE_R1_ACTION: ActionDialect = { kind: "string", callShape: "mobile_use", json: PY_JSON };

/** A UTF-16 unit above 0x7f (what json.dumps' ensure_ascii escapes). */
const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = /[\u0080-\uffff]/g;

const TAGS = ["think", "thinking", "action", "tool_call"] as const;

/**
 * Read the layout of one raw response (any of the known tag sets). Undefined when it holds no
 * known tag. A JSON style the text cannot show (no non-ASCII character either way) reads as not ASCII-only.
 */
export function detectResponseDialect(response: string): ResponseDialect | undefined {
  type Found = { tag: string; open: number; close: number; inner: string };
  const found: Found[] = [];
  for (const tag of TAGS) {
    const open = response.indexOf(`<${tag}>`);
    if (open < 0) continue;
    const start = open + tag.length + 2;
    const close = response.indexOf(`</${tag}>`, start);
    if (close < 0) continue;
    found.push({ tag, open, close: close + tag.length + 3, inner: response.slice(start, close) });
  }
  if (found.length === 0) return undefined;
  found.sort((a, b) => a.open - b.open);
  let callShape: ResponseDialect["callShape"] = "mobile_use";
  let callQuoted = false;
  let json: JsonStyle | undefined;
  const blocks = found.map((f): { tag: string; holds: BlockContent } => {
    if (f.tag === "think" || f.tag === "thinking") return { tag: f.tag, holds: "thought" };
    const call = readCallText(f.inner.trim());
    if (!call) return { tag: f.tag, holds: f.tag === "tool_call" ? "call" : "clearAction" };
    callShape = call.shape;
    callQuoted = call.quoted;
    json = call.json;
    return { tag: f.tag, holds: "call" };
  });
  const separators: string[] = [];
  for (let i = 1; i < found.length; i++) {
    const between = response.slice(found[i - 1]!.close, found[i]!.open);
    separators.push(between.trim() === "" ? between : "\n");
  }
  const first = found[0]!.inner;
  const before = response.slice(0, found[0]!.open);
  const after = response.slice(found[found.length - 1]!.close);
  return {
    ...(before !== "" && before.trim() === "" ? { before } : {}),
    ...(after !== "" && after.trim() === "" ? { after } : {}),
    blocks,
    innerNewline: first.startsWith("\n") && first.endsWith("\n"),
    separators,
    callShape,
    callQuoted,
    json: json ?? PY_JSON,
  };
}

/** Read how an `action` field holds the call (a JSON string, or an object as parsed from the file). */
export function detectActionDialect(raw: unknown): ActionDialect | undefined {
  if (typeof raw === "string") {
    const call = readCallText(raw.trim());
    return call && !call.quoted ? { kind: "string", callShape: call.shape, json: call.json } : undefined;
  }
  if (isRecord(raw)) return { kind: "object", callShape: isRecord(raw.arguments) ? "mobile_use" : "arguments", json: PY_JSON };
  return undefined;
}

/** JSON text of a call (or a JSON string holding it): its shape, spacing and escaping. */
function readCallText(s: string): { shape: "mobile_use" | "arguments"; quoted: boolean; json: JsonStyle } | undefined {
  let text = s;
  let quoted = false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value === "string") {
    quoted = true;
    text = value;
    try {
      value = JSON.parse(text);
    } catch {
      return undefined;
    }
  }
  if (!isRecord(value)) return undefined;
  const shape = isRecord(value.arguments) ? "mobile_use" : typeof value.action === "string" ? "arguments" : undefined;
  if (!shape) return undefined;
  // The outer quoting may escape what the inner text did not; read escaping from the outermost text.
  return { shape, quoted, json: { spaced: isSpaced(text), asciiOnly: isAsciiOnly(s) } };
}

/** Does JSON text put a space after its separators? Read from the first `,` or `:` outside a string. */
function isSpaced(json: string): boolean {
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "," || c === ":") return json[i + 1] === " ";
  }
  return true;
}

/** Text that escapes non-ASCII (\uXXXX for a code point over 0x7f) and holds none raw. */
function isAsciiOnly(s: string): boolean {
  if (NON_ASCII.test(s)) return false;
  return /\\u(?:00[89a-f][0-9a-f]|0[1-9a-f][0-9a-f]{2}|[1-9a-f][0-9a-f]{3})/i.test(s);
}

/**
 * JSON as Python's json.dumps prints it with `style` (separators, ensure_ascii). Key order is the
 * object's own; numbers as JavaScript prints them (an integral float reads 540, not 540.0).
 */
export function dumpJson(value: unknown, style: JsonStyle): string {
  const [item, key] = style.spaced ? [", ", ": "] : [",", ":"];
  const str = (s: string) => (style.asciiOnly ? escapeNonAscii(JSON.stringify(s)) : JSON.stringify(s));
  const walk = (v: unknown): string => {
    if (typeof v === "string") return str(v);
    if (v === null || typeof v !== "object") return JSON.stringify(v) ?? "null";
    if (Array.isArray(v)) return `[${v.map(walk).join(item)}]`;
    const parts: string[] = [];
    for (const [k, x] of Object.entries(v)) if (x !== undefined) parts.push(`${str(k)}${key}${walk(x)}`);
    return `{${parts.join(item)}}`;
  };
  return walk(value);
}

/** \uXXXX for every UTF-16 unit over 0x7f, lower-case hex as Python writes them. */
function escapeNonAscii(s: string): string {
  return s.replace(NON_ASCII_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function callValue(call: StepToolCall, shape: "mobile_use" | "arguments"): unknown {
  return shape === "mobile_use" ? { name: "mobile_use", arguments: call } : call;
}

/** The call's text inside a response written in `dialect`. Coordinates as given (the caller owns the frame). */
export function renderCallText(call: StepToolCall, dialect: Pick<ResponseDialect, "callShape" | "callQuoted" | "json">): string {
  const text = dumpJson(callValue(call, dialect.callShape), dialect.json);
  return dialect.callQuoted ? dumpJson(text, dialect.json) : text;
}

/**
 * A step's full response in `dialect`: each block in the source's order with its tags, newlines and
 * separators. `call` in whatever frame the caller wants the response in.
 */
export function renderResponse(dialect: ResponseDialect, parts: { thought: string; clearAction: string; call: StepToolCall }): string {
  const nl = dialect.innerNewline ? "\n" : "";
  let out = dialect.before ?? "";
  dialect.blocks.forEach((b, i) => {
    const body =
      b.holds === "thought" ? parts.thought : b.holds === "clearAction" ? parts.clearAction : renderCallText(parts.call, dialect);
    out += `${i === 0 ? "" : (dialect.separators[i - 1] ?? "")}<${b.tag}>${nl}${body}${nl}</${b.tag}>`;
  });
  return out + (dialect.after ?? "");
}

/** A step's `action` field in `dialect`: a JSON string, or the object itself. */
export function renderAction(dialect: ActionDialect, call: StepToolCall): unknown {
  const value = callValue(call, dialect.callShape);
  return dialect.kind === "string" ? dumpJson(value, dialect.json) : value;
}

/**
 * The dialect of a whole trajectory: the first step whose response has known tags, else `fallback`.
 * A step's JSON escaping that cannot be read from its own text is taken from any step that shows it.
 */
export function trajectoryDialect(originals: readonly Pick<OriginalOutput, "response">[], fallback: ResponseDialect): ResponseDialect {
  let found: ResponseDialect | undefined;
  let asciiOnly = false;
  for (const o of originals) {
    if (o.response === undefined) continue;
    const d = detectResponseDialect(o.response);
    if (!d) continue;
    found ??= d;
    asciiOnly ||= d.json.asciiOnly;
  }
  if (!found) return fallback;
  return asciiOnly ? { ...found, json: { ...found.json, asciiOnly } } : found;
}

/**
 * The layout to write one step in: its own imported response's, when it has one with known tags (so a
 * step's own quirks, such as a trailing newline, stay), else the trajectory's. Escaping seen anywhere
 * in the trajectory (`trajectory.json.asciiOnly`) holds for the step too.
 */
export function stepDialect(original: Pick<OriginalOutput, "response">, trajectory: ResponseDialect): ResponseDialect {
  const own = original.response !== undefined ? detectResponseDialect(original.response) : undefined;
  if (!own) return trajectory;
  return trajectory.json.asciiOnly && !own.json.asciiOnly ? { ...own, json: { ...own.json, asciiOnly: true } } : own;
}

/**
 * Has nobody changed this step's content: thought text, clear action, tool call and box all equal
 * to what was imported (original pixels)? Verdicts and thought parts do not count: neither is
 * written into a source-format row.
 */
export function isUnchangedStep(step: Pick<CanonicalStep, "thought" | "clearAction" | "toolCall" | "box" | "original">): boolean {
  const o = step.original;
  return (
    step.thought.text === (o.thought ?? "") &&
    step.clearAction === (o.clearAction ?? "") &&
    sameJson(step.toolCall, o.toolCall) &&
    sameBox(step.box, o.box ?? null)
  );
}

function sameBox(a: Box | null, b: Box | null): boolean {
  return a === null || b === null ? a === b : a.every((v, i) => v === b[i]);
}

/** Structural equality of JSON values, key order ignored. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (!isRecord(a) || !isRecord(b)) return false;
  const ka = Object.keys(a).filter((k) => a[k] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameJson(a[k], b[k]));
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
