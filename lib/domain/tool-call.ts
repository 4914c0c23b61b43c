import { z } from "zod";
import { text } from "./limits";
import { isPointOnScreen, pointSchema, type Point, type Size } from "./geometry";

/** Every action of the Qwen2.5-VL `mobile_use` tool, plus UI-S1's `answer`. */
export const ACTION_TYPES = [
  "click",
  "long_press",
  "swipe",
  "type",
  "key",
  "system_button",
  "open",
  "wait",
  "terminate",
  "answer",
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const SYSTEM_BUTTONS = ["Back", "Home", "Menu", "Enter"] as const;
export type SystemButton = (typeof SYSTEM_BUTTONS)[number];
export const TERMINATE_STATUSES = ["success", "failure"] as const;

const nonEmptyText = text("toolCallText").min(1, "text must not be empty");
const seconds = z.number().finite().nonnegative();

/**
 * The arguments of one `mobile_use` call, a union discriminated by `action`.
 * Coordinates are in ORIGINAL screenshot pixels wherever this is stored; only
 * lib/domain/geometry converts them to a model's resized frame.
 */
export const toolCallSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("click"), coordinate: pointSchema }).strict(),
  z.object({ action: z.literal("long_press"), coordinate: pointSchema, time: seconds }).strict(),
  z.object({ action: z.literal("swipe"), coordinate: pointSchema, coordinate2: pointSchema }).strict(),
  z.object({ action: z.literal("type"), text: text("toolCallText") }).strict(),
  z.object({ action: z.literal("key"), text: nonEmptyText }).strict(),
  z.object({ action: z.literal("system_button"), button: z.enum(SYSTEM_BUTTONS) }).strict(),
  z.object({ action: z.literal("open"), text: nonEmptyText }).strict(),
  z.object({ action: z.literal("wait"), time: seconds }).strict(),
  z.object({ action: z.literal("terminate"), status: z.enum(TERMINATE_STATUSES) }).strict(),
  z.object({ action: z.literal("answer"), text: text("toolCallText") }).strict(),
]);
export type ToolCall = z.infer<typeof toolCallSchema>;
export type ToolCallOf<A extends ActionType> = Extract<ToolCall, { action: A }>;

/**
 * A tap or long press the model made WITHOUT a point: real Mobile-R1 rows store an icon tap as
 * `system_button` "Tap" with no coordinate, and some models write a click with none. Such a call is
 * imported, stored and saved as it is (so nothing else on the step is lost) but is never a training
 * target: a person must place the point, and the editor and the bridge name it until then.
 */
export const pointlessCallSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("click"), coordinate: z.null() }).strict(),
  z.object({ action: z.literal("long_press"), coordinate: z.null(), time: seconds }).strict(),
]);
export type PointlessCall = z.infer<typeof pointlessCallSchema>;

/** What a step may hold: a complete call, or a tap the model made without a point (see pointlessCallSchema). */
export const stepToolCallSchema = z.union([toolCallSchema, pointlessCallSchema]);
export type StepToolCall = ToolCall | PointlessCall;

/** Is this a tap or long press without a point (never trainable until a person places it)? */
export function isPointless(call: StepToolCall): call is PointlessCall {
  return (call.action === "click" || call.action === "long_press") && call.coordinate === null;
}

/** The message every report uses for a pointless call (English: command-line reports; the UI has its own catalogue key). */
export const POINTLESS_MESSAGE = "the model tapped without a point; place the point where it should have tapped";

/**
 * The call as a complete ToolCall, for code that runs after the step was checked with isPointless
 * (the bridge names such steps as problems before building rows). Throws on a pointless call: reaching
 * it there is our bug, never a row built on a made-up point.
 */
export function trainableCall(call: StepToolCall): ToolCall {
  if (isPointless(call)) throw new Error(`${call.action} without a point reached a training row: ${POINTLESS_MESSAGE}`);
  return call;
}

/** The wire shape the model writes inside <tool_call>. */
export const mobileUseCallSchema = z.object({ name: z.literal("mobile_use"), arguments: toolCallSchema });

export function isCoordinateAction(call: ToolCall): call is ToolCallOf<"click" | "long_press" | "swipe"> {
  return call.action === "click" || call.action === "long_press" || call.action === "swipe";
}

/** The points of a call, in the frame the call is in. */
export function pointsOf(call: StepToolCall): Point[] {
  switch (call.action) {
    case "click":
    case "long_press":
      return call.coordinate ? [call.coordinate] : [];
    case "swipe":
      return [call.coordinate, call.coordinate2];
    case "type":
    case "key":
    case "system_button":
    case "open":
    case "wait":
    case "terminate":
    case "answer":
      return [];
    default:
      return assertNever(call);
  }
}

/** Apply `fn` to every point of a call (frame conversion, rounding). */
export function mapPoints<C extends StepToolCall>(call: C, fn: (p: Point) => Point): C {
  switch (call.action) {
    case "click":
    case "long_press":
      return call.coordinate ? { ...call, coordinate: fn(call.coordinate) } : call;
    case "swipe":
      return { ...call, coordinate: fn(call.coordinate), coordinate2: fn(call.coordinate2) };
    default:
      return call;
  }
}

/** Problems of a call that its schema cannot see: points outside the screenshot. */
export function screenProblems(call: StepToolCall, size: Size): { field: string; message: string }[] {
  const fields = call.action === "swipe" ? ["coordinate", "coordinate2"] : ["coordinate"];
  return pointsOf(call).flatMap((p, i) =>
    isPointOnScreen(p, size)
      ? []
      : [{ field: fields[i] ?? "coordinate", message: `[${p.join(", ")}] lies outside the ${size.width}x${size.height} screenshot` }],
  );
}

/** Serialise as the model writes it: {"name": "mobile_use", "arguments": {...}} with Python json.dumps spacing. */
export function formatMobileUseCall(call: StepToolCall): string {
  return pyJsonDumps({ name: "mobile_use", arguments: call });
}

/**
 * JSON with Python json.dumps(ensure_ascii=False) separators (", " and ": "), which is
 * how the Qwen cookbook and UI-S1 print tool calls. Key order is the object's own.
 */
export function pyJsonDumps(value: unknown): string {
  // Built by appending, without the intermediate arrays of entries/map/join (an export dumps every call
  // a few times). Undefined entries: left out of an object, empty in an array (as join() makes them).
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += `${i === 0 ? "" : ", "}${pyJsonDumps(value[i]) ?? ""}`;
    return `${out}]`;
  }
  let out = "{";
  let first = true;
  for (const k of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[k];
    if (v === undefined) continue;
    out += `${first ? "" : ", "}${JSON.stringify(k)}: ${pyJsonDumps(v)}`;
    first = false;
  }
  return `${out}}`;
}

/** The call as indented JSON for people to read and edit, with number arrays (points) kept on one line. */
export function formatMobileUseCallPretty(call: StepToolCall): string {
  return JSON.stringify({ name: "mobile_use", arguments: call }, null, 2).replace(
    /\[\s+([-\d.,\s]+?)\s+\]/g,
    (_m, inner: string) => `[${inner.split(/,\s*/).join(", ")}]`,
  );
}

/** A short human summary: `click (540, 236)`, `type "hello"`. */
export function describeToolCall(call: StepToolCall): string {
  const pt = (p: Point | null) => (p ? `(${Math.round(p[0])}, ${Math.round(p[1])})` : "(no point)");
  switch (call.action) {
    case "click":
      return `click ${pt(call.coordinate)}`;
    case "long_press":
      return `long_press ${pt(call.coordinate)} ${call.time}s`;
    case "swipe":
      return `swipe ${pt(call.coordinate)} → ${pt(call.coordinate2)}`;
    case "type":
    case "key":
    case "open":
    case "answer":
      return `${call.action} "${call.text}"`;
    case "system_button":
      return `system_button ${call.button}`;
    case "wait":
      return `wait ${call.time}s`;
    case "terminate":
      return `terminate ${call.status}`;
    default:
      return assertNever(call);
  }
}

export function assertNever(x: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(x)}`);
}
