import { z } from "zod";
import { text } from "./limits";
import { type Box, type Size, boxOverlapsScreen, boxSchema, isPointInBox } from "./geometry";
import { splitSentences } from "./thought";
import {
  isCoordinateAction,
  isPointless,
  screenProblems,
  stepToolCallSchema,
  toolCallSchema,
  type ActionType,
  type StepToolCall,
  type ToolCall,
} from "./tool-call";
import { isTrainingTarget, outcomeSchema, verdictSchema } from "./trajectory";
import type { StepView, TrajectoryAnnotationView } from "./views";

/**
 * What an annotator edits on one step. The editor, the save route and the server use case all read
 * this one shape; coordinates and the box are in ORIGINAL screenshot pixels.
 */
export const stepAnnotationSchema = z.object({
  thought: z.object({ state: text("thoughtPart"), nextAction: text("thoughtPart"), purpose: text("thoughtPart"), text: text("thought") }),
  clearAction: text("clearAction"),
  toolCall: stepToolCallSchema,
  box: boxSchema.nullable(),
  verdict: verdictSchema,
});
export type StepAnnotation = z.infer<typeof stepAnnotationSchema>;

/** PUT /api/steps/:id/annotation: the whole annotation plus the version it was edited from. */
export const saveStepInput = stepAnnotationSchema.extend({ version: z.number().int().positive() });
export type SaveStepInput = z.infer<typeof saveStepInput>;

/** The trajectory-level part of an annotation: task outcome, discard, cut point. */
export const trajectoryAnnotationSchema = z.object({
  outcome: outcomeSchema.nullable(),
  isDiscarded: z.boolean(),
  /** Index of the last step kept for training; null keeps every step. */
  cutAfter: z.number().int().nonnegative().nullable(),
});
export type TrajectoryAnnotation = z.infer<typeof trajectoryAnnotationSchema>;

/** The editable part of a step as the server sent it. */
export function annotationOf(v: StepView): StepAnnotation {
  return { thought: v.thought, clearAction: v.clearAction, toolCall: v.toolCall, box: v.box, verdict: v.verdict };
}

/** The editable part of a trajectory as the server sent it. */
export function trajectoryAnnotationOf(v: Pick<TrajectoryAnnotationView, "outcome" | "isDiscarded" | "cutAfter">): TrajectoryAnnotation {
  return { outcome: v.outcome, isDiscarded: v.isDiscarded, cutAfter: v.cutAfter };
}

export const saveTrajectoryInput = trajectoryAnnotationSchema.extend({ version: z.number().int().positive() });
export type SaveTrajectoryInput = z.infer<typeof saveTrajectoryInput>;

/** A step's fields one by one (the thought's parts separately), as a review's change list and the merge (lib/domain/merge.ts) compare them. */
export const MERGE_FIELDS = [
  "thought.state",
  "thought.nextAction",
  "thought.purpose",
  "thought.text",
  "clearAction",
  "toolCall",
  "box",
  "verdict",
] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];

export function getField(a: StepAnnotation, f: MergeField): unknown {
  switch (f) {
    case "thought.state":
      return a.thought.state;
    case "thought.nextAction":
      return a.thought.nextAction;
    case "thought.purpose":
      return a.thought.purpose;
    case "thought.text":
      return a.thought.text;
    default:
      return a[f];
  }
}

export function setField(a: StepAnnotation, f: MergeField, value: unknown): StepAnnotation {
  switch (f) {
    case "thought.state":
      return { ...a, thought: { ...a.thought, state: String(value) } };
    case "thought.nextAction":
      return { ...a, thought: { ...a.thought, nextAction: String(value) } };
    case "thought.purpose":
      return { ...a, thought: { ...a.thought, purpose: String(value) } };
    case "thought.text":
      return { ...a, thought: { ...a.thought, text: String(value) } };
    case "clearAction":
      return { ...a, clearAction: String(value) };
    case "toolCall":
      return { ...a, toolCall: stepToolCallSchema.parse(value) };
    case "box":
      return { ...a, box: value === null ? null : boxSchema.parse(value) };
    case "verdict":
      return { ...a, verdict: verdictSchema.parse(value) };
  }
}

export function isSameValue(x: unknown, y: unknown): boolean {
  return JSON.stringify(x) === JSON.stringify(y);
}

// ── Checks ──────────────────────────────────────────────────────────────────────────────────────

export type StepProblemCode =
  | "thought.state.empty"
  | "thought.nextAction.empty"
  | "thought.purpose.empty"
  | "thought.text.empty"
  | "thought.actionMismatch"
  | "clearAction.empty"
  | "clearAction.notOneSentence"
  | "toolCall.invalid"
  | "toolCall.missingPoint"
  | "toolCall.offScreen"
  | "toolCall.emptyText"
  | "box.missing"
  | "box.missesPoint"
  | "box.offScreen"
  | "verdict.unset";

/** One problem of a step. `isBlocking` problems stop a submit; the others are warnings. */
export type StepProblem = { code: StepProblemCode; field: string; isBlocking: boolean; detail?: string };

/**
 * Words that name each action in a thought, English and Chinese. A thought that names an action
 * other than the tool call's is probably stale (the annotator fixed the call but not the reasoning).
 */
const ACTION_WORDS: Record<ActionType, RegExp> = {
  click: /\b(click|tap|press|select)(s|es|ed|ing)?\b|点击|单击|轻触|轻点|选择/i,
  long_press: /\blong[- ]?press|长按/i,
  swipe: /\b(swipe|scroll)(s|ed|ing)?\b|滑动|上滑|下滑|左滑|右滑|滚动/i,
  type: /\b(type|enter|input)(s|d|ed|ing)?\b.*\b(text|word|query|keyword|name|address)|\btyp(e|ing)\b|输入|键入|填写/i,
  key: /\bkey ?(code|event)\b|按键/i,
  system_button: /\b(go back|back button|home button|press back|press home|return to the home)\b|返回|回到主屏|主屏幕|返回键/i,
  open: /\b(open|launch|start)(s|ed|ing)?\b.*\bapp|打开.*(应用|app|APP)|启动/i,
  wait: /\bwait(s|ed|ing)?\b|等待|稍等|加载/i,
  terminate: /\b(task is (complete|done|finished)|terminate|finish(ed)? the task|stop)\b|任务(已)?完成|结束任务|终止/i,
  answer: /\banswer(s|ed|ing)?\b|回答|答复/i,
};

/** The actions the text names (may be several, may be none). */
export function actionsNamedIn(text: string): ActionType[] {
  return (Object.keys(ACTION_WORDS) as ActionType[]).filter((a) => ACTION_WORDS[a].test(text));
}

/** Does the thought's next-action part name an action, and only actions other than the tool call's? Related pairs (click/long_press) count as agreeing. */
export function thoughtNamesOtherAction(nextAction: string, call: StepToolCall): ActionType[] | null {
  const named = actionsNamedIn(nextAction);
  if (named.length === 0) return null;
  const kin: Partial<Record<ActionType, ActionType[]>> = {
    click: ["click", "long_press", "system_button", "open"],
    long_press: ["long_press", "click"],
    type: ["type", "key", "click"],
    key: ["key", "type", "system_button"],
    system_button: ["system_button", "click", "key"],
    open: ["open", "click"],
    terminate: ["terminate", "answer"],
    answer: ["answer", "terminate", "type"],
  };
  const accepted = kin[call.action] ?? [call.action];
  return named.some((a) => accepted.includes(a)) ? null : named;
}

/** Is the text exactly one sentence (non-empty, no second sentence after an end mark)? */
export function isOneSentence(text: string): boolean {
  const t = text.trim();
  return t !== "" && !t.includes("\n") && splitSentences(t).length === 1;
}

/**
 * Everything that keeps a step from being complete (blocking) or that deserves a second look
 * (warnings). `size` is the screenshot in original pixels.
 */
export function stepProblems(a: StepAnnotation, size: Size): StepProblem[] {
  const out: StepProblem[] = [];
  const push = (code: StepProblemCode, field: string, isBlocking = true, detail?: string) =>
    out.push({ code, field, isBlocking, ...(detail ? { detail } : {}) });
  if (!a.thought.state.trim()) push("thought.state.empty", "thought.state");
  if (!a.thought.nextAction.trim()) push("thought.nextAction.empty", "thought.nextAction");
  if (!a.thought.purpose.trim()) push("thought.purpose.empty", "thought.purpose");
  if (!a.thought.text.trim()) push("thought.text.empty", "thought.text");
  const parsed = toolCallSchema.safeParse(a.toolCall);
  if (isPointless(a.toolCall)) {
    // Imported as the model wrote it (a "Tap" with no point): the person places the point on the screenshot.
    push("toolCall.missingPoint", "toolCall.coordinate");
    for (const c of groundTruthContradictions(null, a.box, size)) push(c.code, c.field, true, c.detail);
  } else if (!parsed.success) {
    // The field at fault (the tool call's own vocabulary), not the schema's English sentence: the message around it is translated.
    push("toolCall.invalid", "toolCall", true, parsed.error.issues[0]?.path.join(".") || "action");
    for (const c of groundTruthContradictions(null, a.box, size)) push(c.code, c.field, true, c.detail);
  } else {
    const other = thoughtNamesOtherAction(a.thought.nextAction || a.thought.text, parsed.data);
    if (other) push("thought.actionMismatch", "thought.nextAction", false, other.join(", "));
    const off = screenProblems(parsed.data, size)[0];
    if (off) push("toolCall.offScreen", `toolCall.${off.field}`, true, off.message);
    // The Mobile-R1 reward needs the target's box for taps; a swipe is judged by direction, so its box is optional.
    if (isCoordinateAction(parsed.data) && !a.box && parsed.data.action !== "swipe") push("box.missing", "box");
    for (const c of groundTruthContradictions(parsed.data, a.box, size)) push(c.code, c.field, true, c.detail);
  }
  if (!a.clearAction.trim()) push("clearAction.empty", "clearAction");
  else if (!isOneSentence(a.clearAction)) push("clearAction.notOneSentence", "clearAction");
  if (a.verdict === "unreviewed") push("verdict.unset", "verdict");
  return out;
}

/** Ground truth that contradicts itself: a reward or an SFT target built from it would teach the wrong thing. */
export type GroundTruthContradiction = {
  code: Extract<StepProblemCode, "box.missesPoint" | "box.offScreen" | "toolCall.emptyText">;
  field: string;
  /** Numbers only (language-neutral): shown inside the translated message. */
  detail: string;
  /** The whole reason in English, for command-line reports. */
  message: string;
};

const num = (v: number) => String(Math.round(v * 100) / 100);
const fmtPoint = ([x, y]: readonly [number, number]) => `(${num(x)}, ${num(y)})`;
const fmtBox = (b: Box) => `[${b.map(num).join(", ")}]`;

/**
 * The checks that make a step's ground truth self-contradicting, in original pixels: a click, long
 * press or swipe whose (start) point lies outside the step's own target box; a box wholly off the
 * screenshot (import accepts boxes that reach past the edge, as accessibility trees give, so the box
 * need only overlap it); a `type` with no text. The editor blocks submit on each and the trainer
 * bridge reports each as a problem. `call` is null when the tool call does not parse.
 */
export function groundTruthContradictions(call: ToolCall | null, box: Box | null, size: Size): GroundTruthContradiction[] {
  const out: GroundTruthContradiction[] = [];
  if (call && isCoordinateAction(call) && box && !isPointInBox(call.coordinate, box)) {
    const what = call.action === "swipe" ? "swipe start" : call.action === "long_press" ? "long press" : "click";
    // Numbers and a symbol only, so the sentence around it can be any language: "(540, 1200) ∉ [0, 0, 10, 10]".
    const detail = `${fmtPoint(call.coordinate)} ∉ ${fmtBox(box)}`;
    out.push({
      code: "box.missesPoint",
      field: "box",
      detail,
      message: `the ${what} at ${fmtPoint(call.coordinate)} lies outside the step's own target box ${fmtBox(box)}`,
    });
  }
  if (box && !boxOverlapsScreen(box, size)) {
    const detail = `${fmtBox(box)}, ${size.width}x${size.height}`;
    out.push({
      code: "box.offScreen",
      field: "box",
      detail,
      message: `the target box ${fmtBox(box)} lies outside the ${size.width}x${size.height} screenshot`,
    });
  }
  if (call?.action === "type" && call.text.trim() === "") {
    out.push({ code: "toolCall.emptyText", field: "toolCall.text", detail: "", message: "the type action has no text to type" });
  }
  return out;
}

export function isStepComplete(a: StepAnnotation, size: Size): boolean {
  return stepProblems(a, size).every((p) => !p.isBlocking);
}

export type SubmitProblem =
  { code: "outcome.unset" } | { code: "step.incomplete"; stepIndex: number; problems: StepProblemCode[]; details?: string[] };

/**
 * Why a trajectory cannot be submitted yet. A discarded trajectory needs nothing else; otherwise the
 * outcome must be set and every kept step (up to the cut) complete. Harmful steps stay as context
 * and must be complete too: the recovery that follows refers to them.
 */
export function submitProblems(
  t: TrajectoryAnnotation,
  steps: readonly { index: number; annotation: StepAnnotation; size: Size }[],
): SubmitProblem[] {
  if (t.isDiscarded) return [];
  const out: SubmitProblem[] = [];
  if (!t.outcome) out.push({ code: "outcome.unset" });
  for (const s of steps) {
    if (!isKept(t, s.index)) continue;
    const blocking = stepProblems(s.annotation, s.size).filter((p) => p.isBlocking);
    if (blocking.length > 0) {
      const details = blocking.map((p) => ("detail" in p && typeof p.detail === "string" ? p.detail : ""));
      // The numbers behind a problem ("click (540, 1200), box [0, 0, 10, 10]"), where it has any.
      out.push({
        code: "step.incomplete",
        stepIndex: s.index,
        problems: blocking.map((p) => p.code),
        ...(details.some(Boolean) ? { details } : {}),
      });
    }
  }
  return out;
}

/** Is the step inside the cut of a trajectory that is not discarded? */
export function isKept(t: Pick<TrajectoryAnnotation, "cutAfter" | "isDiscarded">, index: number): boolean {
  return isTrainingTarget(t, { index, verdict: "good" });
}

/** Statuses in which the assignee may still edit (submitted and approved work waits for review). */
export const EDITABLE_STATUSES = ["new", "in_progress", "rejected"] as const;
export function isEditableStatus(status: string): boolean {
  return (EDITABLE_STATUSES as readonly string[]).includes(status);
}

/** Centre of a box, original pixels. */
export function boxCentre([x1, y1, x2, y2]: Box): [number, number] {
  return [(x1 + x2) / 2, (y1 + y2) / 2];
}

/**
 * The call after switching its action type, keeping what carries over: the point between click,
 * long_press and swipe; the text between text actions. A fresh point lands on the box's centre, or
 * the screen's. Original pixels.
 */
export function convertToolCall(call: StepToolCall, action: ActionType, ctx: { box: Box | null; size: Size }): StepToolCall {
  if (call.action === action) return call;
  const point: [number, number] =
    "coordinate" in call && call.coordinate
      ? call.coordinate
      : ctx.box
        ? boxCentre(ctx.box)
        : [Math.round(ctx.size.width / 2), Math.round(ctx.size.height / 2)];
  const text = "text" in call ? call.text : "";
  switch (action) {
    case "click":
      return { action, coordinate: point };
    case "long_press":
      return { action, coordinate: point, time: call.action === "wait" ? call.time : 2 };
    case "swipe": {
      const dy = Math.round(ctx.size.height / 4);
      return { action, coordinate: point, coordinate2: [point[0], Math.max(0, point[1] - dy)] };
    }
    case "type":
    case "key":
    case "open":
    case "answer":
      return { action, text };
    case "system_button":
      return { action, button: "Back" };
    case "wait":
      return { action, time: call.action === "long_press" ? call.time : 2 };
    case "terminate":
      return { action, status: "success" };
  }
}
