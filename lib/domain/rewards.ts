import { z } from "zod";
import {
  boxSchema,
  coordinateConventionSchema,
  isPointInBox,
  REL1000_SCALE,
  scaleBox,
  swipeDirection,
  type Box,
  type Point,
} from "@/lib/domain/geometry";
import { parseModelOutput } from "@/lib/domain/model-output";
import { mobileUseCallSchema, pointsOf, toolCallSchema, type ToolCall } from "@/lib/domain/tool-call";
import { uiS1ComputeScore, uiS1TrainCheckOptions } from "./ui-s1-reward";

/**
 * Reward rules shared by the GRPO exports, the `score` command and the Python plugin
 * (lib/bridge/reward_plugin.py). lib/bridge/vectors/ holds the cases both must agree on:
 * `ui-s1` against values computed by UI-S1's own Python, `mobile-r1` and `studio-lenient` against
 * hand-worked expectations.
 *
 * Frames: the PREDICTION is in the frame its row declares (`coords`: absent or `qwen25-abs`, the model's
 * resized frame `resized_wh`; `qwen3-rel1000`, 0..1000 on each axis); the GROUND TRUTH is in original
 * screenshot pixels (`orig_wh`). Points are compared after normalising each by its own frame to [0, 1]
 * (UI-S1's convention), swipe directions after mapping the prediction back to original pixels.
 */

export const ANNOTATIONS = ["GOOD", "HARMFUL", "NEUTRAL"] as const;
export type Annotation = (typeof ANNOTATIONS)[number];

const sizeTupleSchema = z.tuple([z.number().int().positive(), z.number().int().positive()]);

/**
 * Ground truth of one step, in the wire shape of the ms-swift GRPO columns and the verl
 * `reward_model.ground_truth` JSON. `gt_action`, `gt_bbox` and `candidate_bbox` are in ORIGINAL pixels.
 */
export const groundTruthSchema = z.object({
  gt_action: toolCallSchema,
  /** The target element's box, or null when none was drawn. */
  gt_bbox: boxSchema.nullable(),
  /** Every acceptable box (the target box first, then nested/alternative elements). */
  candidate_bbox: z.array(boxSchema),
  /** [width, height] of the original screenshot, pixels. */
  orig_wh: sizeTupleSchema,
  /** [width, height] of the smart-resized image the model sees, pixels. */
  resized_wh: sizeTupleSchema,
  annotation: z.enum(ANNOTATIONS),
  /**
   * The coordinate convention of the prediction (geometry COORDINATE_CONVENTIONS). Absent means
   * `qwen25-abs` (resized pixels, `resized_wh`); `qwen3-rel1000` normalises the prediction by 1000.
   */
  coords: coordinateConventionSchema.optional(),
});
export type GroundTruth = z.infer<typeof groundTruthSchema>;

export type RewardResult = {
  /** Format reward: 1 or 0. */
  format: number;
  /** Action reward after the annotation is applied (HARMFUL inverts, NEUTRAL is 0.5). */
  action: number;
  /** Mobile-R1: format + action (0..2). UI-S1 and studio-lenient: 0.1 * format + 0.9 * action (0..1). */
  score: number;
  /** A tool call could be read from the response. */
  parsed: boolean;
  /** Predicted action type equals the ground truth's (before the annotation). */
  typeMatch: boolean;
  /** Type and arguments match under this rule (before the annotation). */
  extractMatch: boolean;
  /** For a click/long_press ground truth: did the predicted point hit the target? Otherwise null. */
  hit: boolean | null;
};

/**
 * - `ui-s1`: UI-S1's training reward exactly (lib/domain/ui-s1-reward.ts), quirks included.
 * - `studio-lenient`: the studio's own, more forgiving reading of UI-S1's reward (tolerant parser, every
 *   candidate box, finger-path swipes, terminate status, empty text does not match); never UI-S1's numbers.
 * - `mobile-r1`: Mobile-R1's Stage-2 action-level reward as the paper states it, with the choices the paper
 *   leaves open made explicit (lib/bridge/README.md).
 */
export type RewardRule = "mobile-r1" | "ui-s1" | "studio-lenient";
export const REWARD_RULES: readonly RewardRule[] = ["mobile-r1", "ui-s1", "studio-lenient"];

/** UI-S1 accepts a click within this normalised Euclidean distance of the reference point. */
export const UI_S1_DISTANCE = 0.04;
/** UI-S1 enlarges every candidate box by this factor about its centre. */
export const UI_S1_BOX_SCALE = 1.2;

type Frames = { ow: number; oh: number; rw: number; rh: number };

/**
 * [width, height] of the frame the row's prediction is in: `resized_wh` (pixels) for `qwen25-abs`,
 * [1000, 1000] for `qwen3-rel1000`. Every rule, in TypeScript and in the Python plugin, divides by it.
 */
export function predictionFrameOf(gt: Pick<GroundTruth, "resized_wh" | "coords">): [number, number] {
  return gt.coords === "qwen3-rel1000" ? [REL1000_SCALE, REL1000_SCALE] : gt.resized_wh;
}

function framesOf(gt: GroundTruth): Frames {
  const [rw, rh] = predictionFrameOf(gt);
  return { ow: gt.orig_wh[0], oh: gt.orig_wh[1], rw, rh };
}

/** Prediction (its row's frame: resized pixels or rel1000) -> [0, 1]. */
const predNorm = ([x, y]: Point, f: Frames): Point => [x / f.rw, y / f.rh];
/** Ground-truth point (original pixels) -> [0, 1]. */
const gtNorm = ([x, y]: Point, f: Frames): Point => [x / f.ow, y / f.oh];
/** Ground-truth box (original pixels) -> [0, 1]. */
const boxNorm = ([x1, y1, x2, y2]: Box, f: Frames): Box => [x1 / f.ow, y1 / f.oh, x2 / f.ow, y2 / f.oh];
/** Prediction (its row's frame) -> original pixels, for direction checks. */
const predToOriginal = ([x, y]: Point, f: Frames): Point => [(x * f.ow) / f.rw, (y * f.oh) / f.rh];

function normDistance(a: Point, b: Point): number {
  const dx = a[0] - b[0];
  const dy = a[1] - b[1];
  return Math.sqrt(dx * dx + dy * dy);
}

function applyAnnotation(raw: number, annotation: Annotation): number {
  if (annotation === "HARMFUL") return 1 - raw;
  if (annotation === "NEUTRAL") return 0.5;
  return raw;
}

/** The prediction's first point (click/long_press coordinate, swipe start), resized pixels. */
function firstPoint(call: ToolCall): Point | undefined {
  return pointsOf(call)[0];
}

/** Mobile-R1 hit: inside the target box, border inclusive; without a box, UI-S1's distance fallback. */
function mobileR1Hit(pred: Point, gt: GroundTruth, f: Frames): boolean {
  const p = predNorm(pred, f);
  if (gt.gt_bbox) return isPointInBox(p, boxNorm(gt.gt_bbox, f));
  const target = firstPoint(gt.gt_action);
  return target !== undefined && normDistance(p, gtNorm(target, f)) <= UI_S1_DISTANCE;
}

/** studio-lenient hit: inside any candidate box enlarged 1.2x about its centre, or within 0.04 of the reference point. */
function lenientHit(pred: Point, gt: GroundTruth, f: Frames): boolean {
  const p = predNorm(pred, f);
  const boxes = gt.gt_bbox ? [gt.gt_bbox, ...gt.candidate_bbox] : gt.candidate_bbox;
  if (boxes.some((b) => isPointInBox(p, boxNorm(scaleBox(b, UI_S1_BOX_SCALE), f)))) return true;
  const target = firstPoint(gt.gt_action);
  return target !== undefined && normDistance(p, gtNorm(target, f)) <= UI_S1_DISTANCE;
}

function sameSwipeDirection(pred: ToolCall, gt: ToolCall, f: Frames): boolean {
  if (pred.action !== "swipe" || gt.action !== "swipe") return false;
  // Our ground truth records the finger's path, so unlike UI-S1's AndroidControl code no up/down swap.
  const p = swipeDirection(predToOriginal(pred.coordinate, f), predToOriginal(pred.coordinate2, f));
  return p === swipeDirection(gt.coordinate, gt.coordinate2);
}

/** Case-insensitive containment either way; an empty prediction only matches an empty reference. */
function textMatches(pred: string, gt: string): boolean {
  const a = pred.toLowerCase();
  const b = gt.toLowerCase();
  if (a === "") return b === "";
  return b.includes(a) || a.includes(b);
}

function hitFor(pred: ToolCall | undefined, gt: GroundTruth, f: Frames, hit: typeof lenientHit): boolean | null {
  if (gt.gt_action.action !== "click" && gt.gt_action.action !== "long_press") return null;
  const p = pred && (pred.action === "click" || pred.action === "long_press") ? pred.coordinate : undefined;
  return p !== undefined && hit(p, gt, f);
}

/** The first `<name>…</name>` of a response, trimmed, with where it starts; undefined when absent or unclosed. */
function closedTag(text: string, name: string): { body: string; start: number } | undefined {
  const start = text.indexOf(`<${name}>`);
  if (start < 0) return undefined;
  const close = text.indexOf(`</${name}>`, start + name.length + 2);
  if (close < 0) return undefined;
  return { body: text.slice(start + name.length + 2, close).trim(), start };
}

/**
 * How the mobile-r1 rule reads a response, as literally as the paper's format implies: the first closed
 * `<think>`, `<action>` and `<tool_call>`; the tool call is the `<tool_call>` body as JSON,
 * `{"name": "mobile_use", "arguments": {…}}`, whose arguments follow the mobile_use tool's schema exactly
 * (action names as declared, coordinates as two numbers, required arguments present, no others).
 * No aliases, no fences, no `<thinking>`, no unclosed tags.
 */
export function readMobileR1Response(response: string): { call: ToolCall | undefined; formatOk: boolean } {
  const think = closedTag(response, "think");
  const action = closedTag(response, "action");
  const tool = closedTag(response, "tool_call");
  let call: ToolCall | undefined;
  if (tool) {
    try {
      const parsed = mobileUseCallSchema.safeParse(JSON.parse(tool.body));
      if (parsed.success) call = parsed.data.arguments;
    } catch {
      call = undefined;
    }
  }
  const formatOk =
    !!think &&
    !!action &&
    !!tool &&
    think.body !== "" &&
    action.body !== "" &&
    tool.body !== "" &&
    think.start < action.start &&
    action.start < tool.start &&
    call !== undefined;
  return { call, formatOk };
}

/**
 * Mobile-R1 action-level reward (Stage 2), as the paper states it: R = R_Fmt + R_Act.
 * R_Fmt = 1 when the response has closed, non-empty `<think>`, `<action>`, `<tool_call>` in that order and the
 * tool call reads (readMobileR1Response). R_Act = 1 when: click / long_press: the predicted point lies inside
 * the ground-truth element box, border inclusive, no enlargement; every other action except swipe: the same
 * action with exactly equal arguments. Where the paper says nothing, this rule chooses (lib/bridge/README.md):
 * a click with no drawn box falls back to 0.04 normalised distance from the reference point; a swipe must go
 * the same way (largest axis, finger path) and, when there is a box, start inside it; long_press's time is not
 * compared; HARMFUL inverts R_Act and NEUTRAL makes it 0.5 (as UI-S1 does). The prediction is in its row's frame
 * (predictionFrameOf), the ground truth in original pixels.
 */
export function mobileR1Reward(response: string, gt: GroundTruth): RewardResult {
  const { call: pred, formatOk } = readMobileR1Response(response);
  const f = framesOf(gt);
  const format = formatOk ? 1 : 0;
  const g = gt.gt_action;
  const typeMatch = pred !== undefined && pred.action === g.action;
  let match = false;
  if (pred && typeMatch) {
    switch (g.action) {
      case "click":
      case "long_press":
        match = pred.action === g.action && mobileR1Hit(pred.coordinate, gt, f);
        break;
      case "swipe":
        match =
          pred.action === "swipe" &&
          sameSwipeDirection(pred, g, f) &&
          (gt.gt_bbox === null || isPointInBox(predNorm(pred.coordinate, f), boxNorm(gt.gt_bbox, f)));
        break;
      default:
        match = JSON.stringify(canonicalArgs(pred)) === JSON.stringify(canonicalArgs(g));
    }
  }
  const action = applyAnnotation(match ? 1 : 0, gt.annotation);
  return {
    format,
    action,
    score: format + action,
    parsed: pred !== undefined,
    typeMatch,
    extractMatch: match,
    hit: hitFor(pred, gt, f, mobileR1Hit),
  };
}

/** Arguments in a fixed key order, for exact comparison of non-coordinate calls. */
function canonicalArgs(call: ToolCall): [string, unknown][] {
  return Object.entries(call).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * studio-lenient: the studio's forgiving variant of UI-S1's step reward, 0.1 x format + 0.9 x action.
 * It reads responses with the studio's tolerant parser (Mobile-R1 or UI-S1 layout, `<thinking>`, fenced or
 * unclosed tags, action aliases, coordinates as strings), so it is NOT UI-S1's reward; use `ui-s1` for that.
 * format = 1 when `<think>` is closed and non-empty. action = 1 on a full match, 0.5 when only the type
 * matches, 0.1 when a call parsed but the type differs, 0 when nothing parsed; then HARMFUL inverts and
 * NEUTRAL gives 0.5. Full match: click/long_press inside any candidate box (target or alternative) enlarged
 * 1.2x, or within 0.04 of the reference point; type/key/open/answer text contained either way,
 * case-insensitive, an empty prediction only matching an empty reference; swipe same finger direction
 * (largest axis, original pixels, no up/down swap); system_button equal ignoring case; terminate same
 * status; wait type only. Prediction in its row's frame (predictionFrameOf), ground truth in original pixels.
 */
export function studioLenientReward(response: string, gt: GroundTruth): RewardResult {
  const out = parseModelOutput(response);
  const f = framesOf(gt);
  const pred = out.toolCall;
  const format = out.tags.think ? 1 : 0;
  const g = gt.gt_action;
  const typeMatch = pred !== undefined && pred.action === g.action;
  let match = false;
  if (pred && typeMatch) {
    switch (g.action) {
      case "click":
      case "long_press":
        match = (pred.action === "click" || pred.action === "long_press") && lenientHit(pred.coordinate, gt, f);
        break;
      case "swipe":
        match = sameSwipeDirection(pred, g, f);
        break;
      case "type":
      case "key":
      case "open":
      case "answer":
        match = "text" in pred && textMatches(pred.text, g.text);
        break;
      case "system_button":
        match = pred.action === "system_button" && pred.button.toLowerCase() === g.button.toLowerCase();
        break;
      case "terminate":
        match = pred.action === "terminate" && pred.status === g.status;
        break;
      case "wait":
        match = true;
        break;
    }
  }
  const raw = pred === undefined ? 0 : match ? 1 : typeMatch ? 0.5 : 0.1;
  const action = applyAnnotation(raw, gt.annotation);
  return {
    format,
    action,
    score: 0.1 * format + 0.9 * action,
    parsed: pred !== undefined,
    typeMatch,
    extractMatch: match,
    hit: hitFor(pred, gt, f, lenientHit),
  };
}

/**
 * UI-S1's training reward, exactly: `gui_action_match_compute_score` (UI-S1 commit 11cea575) on the
 * check_options `TrajDataset.fix_line` builds from the step `bridge traj` writes (action_content = the call
 * plus the target box as `bbox`; candidate boxes other than the target never reach it), with extra_info
 * width/height = `orig_wh` and resized_width/height = the prediction's frame (`resized_wh`, or 1000 x 1000
 * under `qwen3-rel1000`: UI-S1's code only ever divides the prediction by them). The response must be UI-S1's layout,
 * `<think>…</think><action>{"action": …}</action>`; see lib/domain/ui-s1-reward.ts for every rule it applies.
 */
export function uiS1Reward(response: string, gt: GroundTruth): RewardResult {
  const actionContent = gt.gt_bbox ? { ...gt.gt_action, bbox: gt.gt_bbox } : gt.gt_action;
  const [resizedWidth, resizedHeight] = predictionFrameOf(gt);
  const r = uiS1ComputeScore(response, uiS1TrainCheckOptions(actionContent, gt.annotation), {
    width: gt.orig_wh[0],
    height: gt.orig_wh[1],
    resizedWidth,
    resizedHeight,
  });
  const coordinateGt = gt.gt_action.action === "click" || gt.gt_action.action === "long_press";
  return {
    format: r.formatScore,
    action: r.actionScore,
    score: r.score,
    parsed: r.parsed,
    typeMatch: r.typeMatch,
    extractMatch: r.extractMatch,
    hit: coordinateGt ? r.typeMatch && r.extractMatch : null,
  };
}

/** Reward of one response under the named rule. */
export function rewardFor(rule: RewardRule, response: string, gt: GroundTruth): RewardResult {
  switch (rule) {
    case "mobile-r1":
      return mobileR1Reward(response, gt);
    case "ui-s1":
      return uiS1Reward(response, gt);
    case "studio-lenient":
      return studioLenientReward(response, gt);
  }
}
