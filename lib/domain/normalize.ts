import {
  isPointless,
  pointlessCallSchema,
  SYSTEM_BUTTONS,
  toolCallSchema,
  type StepToolCall,
  type SystemButton,
  type ToolCall,
} from "./tool-call";
import type { Point, Size } from "./geometry";
import { problemOf, zodIssueProblem, type ImportProblemCode, type ProblemParams } from "./problems";

/** A problem with one field of an action: its code and parameters (lib/domain/problems.ts) and English message. */
export type FieldProblem = { field: string; code: ImportProblemCode; params?: ProblemParams; message: string };
export type Normalized = { ok: true; call: ToolCall; notes: string[] } | { ok: false; problems: FieldProblem[] };
/** What an import may store: a complete call, or a tap the model made without a point (a person places it later). */
export type NormalizedForImport = { ok: true; call: StepToolCall; notes: string[] } | { ok: false; problems: FieldProblem[] };

/** Action names real data uses, mapped to the `mobile_use` vocabulary. Keys are lower-case without separators. */
const ACTION_ALIASES: Record<string, string> = {
  click: "click",
  tap: "click",
  longpress: "long_press",
  swipe: "swipe",
  scroll: "scroll",
  type: "type",
  inputtext: "type",
  input: "type",
  key: "key",
  systembutton: "system_button",
  open: "open",
  openapp: "open",
  launch: "open",
  wait: "wait",
  terminate: "terminate",
  finish: "terminate",
  status: "terminate",
  answer: "answer",
  navigateback: "back",
  pressback: "back",
  back: "back",
  navigatehome: "home",
  presshome: "home",
  home: "home",
  pressenter: "enter",
  enter: "enter",
};

const BUTTON_ALIASES: Record<string, SystemButton> = {
  back: "Back",
  home: "Home",
  menu: "Menu",
  enter: "Enter",
  // Older Mobile-R1 rows press the keyboard's search key; on Android that is the IME action, i.e. Enter.
  search: "Enter",
  appselect: "Menu",
  recent: "Menu",
};

const STATUS_ALIASES: Record<string, "success" | "failure"> = {
  success: "success",
  successful: "success",
  succeeded: "success",
  complete: "success",
  completed: "success",
  done: "success",
  true: "success",
  failure: "failure",
  fail: "failure",
  failed: "failure",
  infeasible: "failure",
  impossible: "failure",
  incomplete: "failure",
  false: "failure",
};

/**
 * `system_button` values that are not buttons but taps: the Mobile-R1 release stores an icon tap as
 * `{"action": "system_button", "button": "Tap"}` with no point. Read as a click (or long press) without one.
 */
const TAP_BUTTONS: Record<string, "click" | "long_press"> = {
  tap: "click",
  click: "click",
  touch: "click",
  press: "click",
  longpress: "long_press",
  longtap: "long_press",
};

/** Hardware keys some data stores as `system_button`; `mobile_use` has them as `key` (adb keyevent names). */
const KEY_BUTTONS: Record<string, string> = {
  power: "power",
  volumeup: "volume_up",
  volumedown: "volume_down",
  camera: "camera",
};

/** How many times a tool call may be JSON-encoded as a string inside another (the release double-encodes). */
const MAX_STRING_ENCODINGS = 3;

/** AndroidControl's `wait` has no duration; UI-S1's conversion uses 2 seconds. */
const DEFAULT_WAIT_SECONDS = 2;
const DEFAULT_LONG_PRESS_SECONDS = 2;

const key = (s: string) => s.toLowerCase().replace(/[\s_-]/g, "");

/**
 * Turn one action in any dialect real data uses (Qwen `mobile_use`, older Mobile-R1 `Tap`/`Type`,
 * AndroidControl `navigate_back`/`open_app`/`scroll`, a wrapped {"name", "arguments"} call) into a
 * canonical `mobile_use` tool call. Coordinates pass through unchanged: the caller owns the frame.
 * `screen` (original pixels) is needed only to turn a direction-only `scroll` into a swipe.
 */
export function normalizeAction(input: unknown, screen?: Size): Normalized {
  const r = normalizeActionForImport(input, screen);
  if (!r.ok) return r;
  if (isPointless(r.call)) return fail("coordinate", problemOf("missing"));
  return { ok: true, call: r.call, notes: r.notes };
}

/**
 * normalizeAction for an import: a click or long press without a point (a `system_button` "Tap", a
 * click with no coordinate) is kept as a pointless call instead of failing the record, so a real
 * release file imports whole and the step is named for a person to fix.
 */
export function normalizeActionForImport(input: unknown, screen?: Size): NormalizedForImport {
  const unwrapped = unwrapCall(input);
  if ("problems" in unwrapped) return unwrapped;
  const obj = unwrapped.obj;
  const rawType = obj.action ?? obj.action_type ?? obj.type_of_action;
  if (typeof rawType !== "string" || rawType.trim() === "") return fail("action", problemOf("missing"));
  const alias = ACTION_ALIASES[key(rawType)];
  if (!alias) return fail("action", problemOf("unknownAction", { action: rawType }));

  const notes: string[] = [];
  if (alias !== rawType) notes.push(`action "${rawType}" read as "${alias}"`);
  const problems: FieldProblem[] = [];
  const call = buildCall(alias, obj, screen, problems, notes);
  if (!call) return fail("action", problemOf("unknownAction", { action: rawType }));
  if (problems.length > 0) return { ok: false, problems };
  const parsed = toolCallSchema.safeParse(call);
  if (!parsed.success) {
    const pointless = pointlessCallSchema.safeParse(call);
    if (pointless.success) return { ok: true, call: pointless.data, notes };
    return { ok: false, problems: parsed.error.issues.map((i) => ({ field: i.path.join(".") || "action", ...zodIssueProblem(i) })) };
  }
  return { ok: true, call: parsed.data, notes };
}

/** The action's own fields: a call JSON-encoded as a string decoded, a wrapped {"name", "arguments"} call unwrapped. */
function unwrapCall(input: unknown): { obj: Record<string, unknown> } | { ok: false; problems: FieldProblem[] } {
  let raw = input;
  // A call JSON-encoded as a string, possibly more than once (the release's <tool_call> holds `"{\"name\": …}"`).
  for (let i = 0; typeof raw === "string" && i < MAX_STRING_ENCODINGS; i++) {
    try {
      raw = JSON.parse(raw);
    } catch {
      return fail("action", problemOf("notJson", { value: clip(raw as string) }));
    }
  }
  if (!isRecord(raw)) return fail("action", problemOf("notObject", { value: clip(JSON.stringify(raw) ?? String(raw)) }));
  if (isRecord(raw.arguments) && (raw.name === undefined || typeof raw.name === "string")) {
    if (raw.name !== undefined && raw.name !== "mobile_use") return fail("name", problemOf("unknownTool", { name: raw.name }));
    raw = raw.arguments;
  }
  return { obj: raw as Record<string, unknown> };
}

/** Readers of an action's fields: each returns the value read, or records a problem (or a note for a default). */
function fieldReaders(obj: Record<string, unknown>, alias: string, problems: FieldProblem[], notes: string[]) {
  const point = (field: string, xField = "x", yField = "y"): Point | undefined => {
    const p = readPoint(obj[field]) ?? (field === "coordinate" ? readXY(obj[xField], obj[yField]) : undefined);
    if (!p)
      problems.push({
        field,
        ...(obj[field] === undefined ? problemOf("missing") : problemOf("notPoint", { value: clip(JSON.stringify(obj[field])) })),
      });
    return p;
  };
  /** A tap's point, or null when the record has none at all (a pointless call); a malformed one is still a problem. */
  const tapPoint = (): Point | null | undefined => {
    const isAbsent = (v: unknown) => v === undefined || v === null;
    if (isAbsent(obj.coordinate) && isAbsent(obj.x) && isAbsent(obj.y)) {
      notes.push(`${alias} without a point`);
      return null;
    }
    return point("coordinate");
  };
  const num = (field: string, fallback?: number): number | undefined => {
    const v = obj[field];
    if (v === undefined || v === null || v === "") {
      if (fallback !== undefined) {
        notes.push(`${field} missing, ${fallback} assumed`);
        return fallback;
      }
      problems.push({ field, ...problemOf("missing") });
      return undefined;
    }
    const n = typeof v === "number" ? v : Number(v);
    if (!Number.isFinite(n) || n < 0) problems.push({ field, ...problemOf("notNonNegative", { value: clip(JSON.stringify(v)) }) });
    return n;
  };
  const text = (...fields: string[]): string | undefined => {
    for (const f of fields) if (typeof obj[f] === "string") return obj[f] as string;
    for (const f of fields) if (typeof obj[f] === "number") return String(obj[f]);
    problems.push({ field: fields[0] ?? "text", ...problemOf("missing") });
    return undefined;
  };
  return { point, tapPoint, num, text };
}

/** The call an action of `alias` makes, before the schema checks it; undefined for an alias with no reading. */
function buildCall(
  alias: string,
  obj: Record<string, unknown>,
  screen: Size | undefined,
  problems: FieldProblem[],
  notes: string[],
): Record<string, unknown> | undefined {
  const { point, tapPoint, num, text } = fieldReaders(obj, alias, problems, notes);
  switch (alias) {
    case "click":
      return { action: "click", coordinate: tapPoint() };
    case "long_press":
      return { action: "long_press", coordinate: tapPoint(), time: num("time", DEFAULT_LONG_PRESS_SECONDS) };
    case "swipe":
      if (obj.coordinate === undefined && typeof obj.direction === "string") {
        return scrollToSwipe(obj.direction, screen, problems, notes);
      }
      return { action: "swipe", coordinate: point("coordinate"), coordinate2: point("coordinate2") };
    case "scroll":
      return scrollToSwipe(obj.direction, screen, problems, notes);
    case "type":
      return { action: "type", text: text("text", "content", "value") };
    case "key":
      return { action: "key", text: text("text", "key") };
    case "open":
      return { action: "open", text: text("text", "app_name", "app") };
    case "wait":
      return { action: "wait", time: num("time", DEFAULT_WAIT_SECONDS) };
    case "answer":
      return { action: "answer", text: text("text", "answer") };
    case "terminate":
      return terminateCall(obj, problems, notes);
    case "system_button":
      return systemButtonCall(obj, problems, notes);
    case "back":
      return { action: "system_button", button: "Back" };
    case "home":
      return { action: "system_button", button: "Home" };
    case "enter":
      return { action: "system_button", button: "Enter" };
    default:
      return undefined;
  }
}

function terminateCall(obj: Record<string, unknown>, problems: FieldProblem[], notes: string[]): Record<string, unknown> {
  const s = obj.status ?? obj.goal_status ?? obj.result;
  const status = STATUS_ALIASES[key(String(s ?? ""))];
  if (!status)
    problems.push({
      field: "status",
      ...(s === undefined ? problemOf("missing") : problemOf("notStatus", { value: clip(JSON.stringify(s)) })),
    });
  else if (status !== s) notes.push(`status "${String(s)}" read as "${status}"`);
  return { action: "terminate", status };
}

/** A `system_button`: a real button, a tap without a point (TAP_BUTTONS) or a hardware key (KEY_BUTTONS). */
function systemButtonCall(obj: Record<string, unknown>, problems: FieldProblem[], notes: string[]): Record<string, unknown> {
  const b = obj.button ?? obj.text;
  const tap = TAP_BUTTONS[key(String(b ?? ""))];
  if (tap) {
    notes.push(`button "${String(b)}" read as a ${tap} without a point`);
    return tap === "click"
      ? { action: "click", coordinate: null }
      : { action: "long_press", coordinate: null, time: DEFAULT_LONG_PRESS_SECONDS };
  }
  const keyName = KEY_BUTTONS[key(String(b ?? ""))];
  if (keyName) {
    notes.push(`button "${String(b)}" read as key "${keyName}"`);
    return { action: "key", text: keyName };
  }
  const button = BUTTON_ALIASES[key(String(b ?? ""))];
  if (!button)
    problems.push({
      field: "button",
      ...(b === undefined
        ? problemOf("missing")
        : problemOf("notButton", { allowed: SYSTEM_BUTTONS.join(", "), value: clip(JSON.stringify(b)) })),
    });
  else if (button !== b) notes.push(`button "${String(b)}" read as "${button}"`);
  return { action: "system_button", button };
}

/**
 * AndroidControl `scroll` names the direction the CONTENT moves; the finger moves the other way
 * ("scroll down" = finger swipes up). We store the finger's path explicitly as a swipe.
 */
function scrollToSwipe(direction: unknown, screen: Size | undefined, problems: FieldProblem[], notes: string[]): Record<string, unknown> {
  const d = typeof direction === "string" ? direction.toLowerCase() : "";
  if (!["up", "down", "left", "right"].includes(d)) {
    problems.push({
      field: "direction",
      ...(direction === undefined ? problemOf("missing") : problemOf("notDirection", { value: clip(JSON.stringify(direction)) })),
    });
    return { action: "swipe" };
  }
  if (!screen) {
    problems.push({ field: "direction", ...problemOf("scrollNeedsSize") });
    return { action: "swipe" };
  }
  const cx = screen.width / 2;
  const cy = screen.height / 2;
  const lo = (n: number) => n * 0.25;
  const hi = (n: number) => n * 0.75;
  const paths: Record<string, [Point, Point]> = {
    down: [
      [cx, hi(screen.height)],
      [cx, lo(screen.height)],
    ],
    up: [
      [cx, lo(screen.height)],
      [cx, hi(screen.height)],
    ],
    right: [
      [hi(screen.width), cy],
      [lo(screen.width), cy],
    ],
    left: [
      [lo(screen.width), cy],
      [hi(screen.width), cy],
    ],
  };
  const [from, to] = paths[d]!;
  notes.push(`scroll ${d} read as a finger swipe from (${from.join(", ")}) to (${to.join(", ")})`);
  return { action: "swipe", coordinate: from, coordinate2: to };
}

function readPoint(v: unknown): Point | undefined {
  if (typeof v === "string") {
    const m = v.match(/^\s*[[(]?\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*[\])]?\s*$/);
    return m ? toPoint(Number(m[1]), Number(m[2])) : undefined;
  }
  if (Array.isArray(v) && v.length === 2) return toPoint(Number(v[0]), Number(v[1]));
  if (isRecord(v)) return readXY(v.x, v.y);
  return undefined;
}

function readXY(x: unknown, y: unknown): Point | undefined {
  if (x === undefined || y === undefined || x === null || y === null) return undefined;
  return toPoint(Number(x), Number(y));
}

function toPoint(x: number, y: number): Point | undefined {
  return Number.isFinite(x) && Number.isFinite(y) ? [x, y] : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function fail(field: string, problem: Omit<FieldProblem, "field">): { ok: false; problems: FieldProblem[] } {
  return { ok: false, problems: [{ field, ...problem }] };
}

function clip(s: string, n = 80): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
