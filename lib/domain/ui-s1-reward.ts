import type { Box } from "@/lib/domain/geometry";
import { resizeToFactor, uniqueBoxes } from "@/lib/domain/geometry";
import type { CanonicalStep } from "@/lib/domain/trajectory";
import { trainableCall, type ToolCall } from "@/lib/domain/tool-call";
import {
  isDict,
  PyError,
  pyContains,
  pyDivide,
  pyGetIndex,
  pyGetKey,
  pyIn,
  pyIter,
  pyJsonLoads,
  pyLen,
  pyLower,
  pyStrip,
  pyStrMethodTarget,
  type PyDict,
  type PyValue,
} from "./python-compat";

/**
 * UI-S1's reward and SOP evaluation, reproduced from X-PLUG/MobileAgent, UI-S1 at commit
 * 11cea575561fb7800b5fb6b6cafa56f7a91de11f (MIT licence), quirks included:
 * - training reward: `verl/utils/reward_score/gui_traj.py` `gui_action_match_compute_score` with
 *   `gui_utils/utils.py` `check_response_match`, on the ground truth that `TrajDataset.fix_line`
 *   (`verl/utils/dataset/rl_dataset.py`) builds; the response is read by `x/data/agent/json.py`
 *   `JsonFormat.parse_response` (`x/data/text.py` `parse_tags` + `json.loads`).
 * - SOP: `evaluation/eval_qwenvl.py` (its own `fix_line`, `process_line`, success rate and progress)
 *   with `evaluation/qwenvl_utils.py` `evaluate_android_control_action` and `find_last_image_ele`.
 * This is an independent implementation of that behaviour; lib/bridge/vectors/ holds the cases
 * derived by running the upstream Python, and the tests hold this file and reward_plugin.py to them.
 */

export const UI_S1_COMMIT = "11cea575561fb7800b5fb6b6cafa56f7a91de11f";
export const UI_S1_BBOX_ENLARGE = 1.2;
export const UI_S1_POINT_DISTANCE = 0.04;

// ---------------------------------------------------------------------------------------------
// Response parsing: parse_tags + JsonFormat.parse_response
// ---------------------------------------------------------------------------------------------

/** parse_tags for one tag: the first `<tag>…</tag>` (non-greedy, across lines), stripped; null when absent. */
export function uiS1Tag(text: string, tag: string): string | null {
  const open = text.indexOf(`<${tag}>`);
  if (open < 0) return null;
  const start = open + tag.length + 2;
  const close = text.indexOf(`</${tag}>`, start);
  if (close < 0) return null;
  return pyStrip(text.slice(start, close));
}

export type UiS1Parsed = { think: string | null; actionContent: PyValue };

/** JsonFormat.parse_response: `<think>` and `<action>` by parse_tags, then json.loads of the action. Throws PyError. */
export function uiS1ParseResponse(response: string): UiS1Parsed {
  const think = uiS1Tag(response, "think");
  const action = uiS1Tag(response, "action");
  if (action === null) throw new PyError("TypeError", "the JSON object must be str, bytes or bytearray, not NoneType");
  return { think, actionContent: pyJsonLoads(action) };
}

// ---------------------------------------------------------------------------------------------
// Geometry helpers shared by the reward and the evaluation
// ---------------------------------------------------------------------------------------------

type NormBox = [number, number, number, number];

/** enlarge_bbox: numpy's order of operations, box by box. */
function enlarge([x1, y1, x2, y2]: NormBox): NormBox {
  const xc = (x1 + x2) / 2;
  const yc = (y1 + y2) / 2;
  const w = (x2 - x1) * UI_S1_BBOX_ENLARGE;
  const h = (y2 - y1) * UI_S1_BBOX_ENLARGE;
  return [xc - w / 2, yc - h / 2, xc + w / 2, yc + h / 2];
}

/** check_click: inside any candidate box enlarged 1.2x (borders count), else within 0.04 of the reference point. */
function checkClick(click: [number, number], boxes: NormBox[], gtPoint: [number, number] | null): boolean {
  for (const b of boxes.map(enlarge)) {
    if (b[0] <= click[0] && click[0] <= b[2] && b[1] <= click[1] && click[1] <= b[3]) return true;
  }
  if (gtPoint === null) return false;
  const dx = gtPoint[0] - click[0];
  const dy = gtPoint[1] - click[1];
  return Math.sqrt(dx * dx + dy * dy) <= UI_S1_POINT_DISTANCE;
}

/** predict_direction: the larger axis wins, a tie or no movement reads as vertical. */
function predictDirection([x1, y1]: [number, number], [x2, y2]: [number, number]): "left" | "right" | "up" | "down" {
  const dx = x2 - x1;
  const dy = y2 - y1;
  if (Math.abs(dx) > Math.abs(dy)) return dx > 0 ? "right" : "left";
  return dy > 0 ? "down" : "up";
}

/** `[v[0] / w, v[1] / h]` as Python evaluates it on a JSON value. */
function normPoint(v: PyValue, w: number, h: number): [number, number] {
  const x = pyDivide(pyGetIndex(v, 0), w);
  const y = pyDivide(pyGetIndex(v, 1), h);
  return [x, y];
}

/** A normalised action: the dict after norm_coordinate, with the normalised values beside it. */
type Normed = {
  dict: PyDict;
  coordinate?: [number, number];
  coordinate2?: [number, number];
  boxes: NormBox[];
};

/**
 * norm_coordinate. `variant` "train" is gui_utils/utils.py (candidate_bbox normalised only when it has
 * exactly 4 entries, read as ONE box); "eval" is qwenvl_utils.py (candidate_bbox is a list of boxes).
 * Throws PyError where Python raises (a non-dict action, coordinates that are not numbers, ...).
 */
function normCoordinate(action: PyValue, w: number, h: number, variant: "train" | "eval"): Normed {
  let boxes: NormBox[] = [];
  if (pyIn("candidate_bbox", action)) {
    const cb = pyGetKey(action, "candidate_bbox");
    if (variant === "train") {
      if (pyLen(cb) === 4) {
        const [x, y, bw, bh] = pyIter(cb);
        boxes = [[pyDivide(x, w), pyDivide(y, h), pyDivide(bw, w), pyDivide(bh, h)]];
      }
    } else {
      boxes = pyIter(cb).map((b) => [
        pyDivide(pyGetIndex(b, 0), w),
        pyDivide(pyGetIndex(b, 1), h),
        pyDivide(pyGetIndex(b, 2), w),
        pyDivide(pyGetIndex(b, 3), h),
      ]);
    }
  }
  const out: Normed = { dict: action as PyDict, boxes };
  if (pyIn("coordinate", action)) out.coordinate = normPoint(pyGetKey(action, "coordinate"), w, h);
  if (pyIn("coordinate2", action)) out.coordinate2 = normPoint(pyGetKey(action, "coordinate2"), w, h);
  // Every path after this reads action['action'], which raises for anything but a dict.
  if (!isDict(action)) pyGetKey(action, "action");
  return out;
}

const key = (n: Normed, k: string) => pyGetKey(n.dict, k);
const coordinateOf = (n: Normed): [number, number] => {
  key(n, "coordinate");
  return n.coordinate!;
};
const coordinate2Of = (n: Normed): [number, number] => {
  key(n, "coordinate2");
  return n.coordinate2!;
};

/** check_text (not restricted): lower + strip, then containment either way. Throws for a non-str prediction. */
function checkText(pred: PyValue, gt: PyValue): boolean {
  const a = pyStrip(pyLower(pyStrMethodTarget(pred, "lower")));
  const b = pyStrip(pyLower(pyStrMethodTarget(gt, "lower")));
  return pyContains(b, a) || pyContains(a, b);
}

function buttonsEqual(pred: Normed, gt: Normed): boolean {
  const g = pyStrip(pyLower(pyStrMethodTarget(key(gt, "button"), "lower")));
  const p = pyStrip(pyLower(pyStrMethodTarget(key(pred, "button"), "lower")));
  return g === p;
}

export type Frames4 = { width: number; height: number; resizedWidth: number; resizedHeight: number };

// ---------------------------------------------------------------------------------------------
// Training reward
// ---------------------------------------------------------------------------------------------

/**
 * check_response_match (gui_utils/utils.py): [type_match, extract_match]. The prediction is normalised
 * by the resized frame, the ground truth (check_options) by the original frame. Throws PyError.
 */
export function uiS1CheckResponseMatch(predAction: PyValue, checkOptions: PyDict, f: Frames4): [boolean, boolean] {
  const pred = normCoordinate(predAction, f.resizedWidth, f.resizedHeight, "train");
  const gt = normCoordinate(checkOptions, f.width, f.height, "train");
  const gtAction = key(gt, "action");
  const predIs = (a: PyValue) => key(pred, "action") === a;
  if (gtAction === "wait" || gtAction === "terminate") {
    return predIs(gtAction) ? [true, true] : [false, false];
  }
  if (gtAction === "system_button") {
    return predIs("system_button") ? [true, buttonsEqual(pred, gt)] : [false, false];
  }
  if (gtAction === "type" || gtAction === "answer" || gtAction === "key") {
    return predIs("type") ? [true, checkText(key(pred, "text"), key(gt, "text"))] : [false, false];
  }
  if (gtAction === "open") {
    return predIs("open") ? [true, checkText(key(pred, "text"), key(gt, "text"))] : [false, false];
  }
  if (gtAction === "swipe") {
    if (!predIs("swipe")) return [false, false];
    let gtDirection = pyIn("direction", gt.dict) ? key(gt, "direction") : predictDirection(coordinateOf(gt), coordinate2Of(gt));
    const direction = predictDirection(coordinateOf(pred), coordinate2Of(pred));
    if (gtDirection === "down") gtDirection = "up";
    else if (gtDirection === "up") gtDirection = "down";
    return [true, direction === gtDirection];
  }
  if (gtAction === "long_press" || gtAction === "click") {
    if (!predIs(gtAction)) return [false, false];
    const boxes = pyIn("candidate_bbox", gt.dict) ? gt.boxes : [];
    return [true, checkClick(coordinateOf(pred), boxes, coordinateOf(gt))];
  }
  return [false, false];
}

/** The step UI-S1's trajectory file holds for a studio step, exactly as `bridge traj` writes it (traj.ts). */
export type UiS1TrajStep = {
  action_content: ToolCall & { bbox?: Box };
  annotation: "GOOD" | "HARMFUL" | "NEUTRAL";
  check_options: ToolCall & { candidate_bbox: Box[] };
};

/**
 * TrajDataset.fix_line for one step: check_options = a copy of action_content with the annotation
 * (GOOD when absent) and candidate_bbox = action_content.bbox (the target box only) or [].
 */
export function uiS1TrainCheckOptions(actionContent: ToolCall & { bbox?: Box }, annotation: string | undefined): PyDict {
  const out = toPyDict(actionContent);
  out.set("annotation", annotation ?? "GOOD");
  out.set("candidate_bbox", actionContent.bbox ? toPy(actionContent.bbox) : []);
  return out;
}

export type UiS1Score = {
  score: number;
  formatScore: number;
  actionScore: number;
  typeMatch: boolean;
  extractMatch: boolean;
  /** parse_response succeeded (an `<action>` holding valid JSON). */
  parsed: boolean;
  /** Which Python exception ended the computation early, if any (for notes; upstream prints a traceback). */
  error: string | null;
};

/** gui_action_match_compute_score: 0.1 x format + 0.9 x action, HARMFUL inverts, NEUTRAL is 0.5. */
export function uiS1ComputeScore(solution: string, checkOptions: PyDict, f: Frames4): UiS1Score {
  let formatScore = 0;
  let actionScore = 0;
  let typeMatch = false;
  let extractMatch = false;
  let parsed = false;
  let error: string | null = null;
  try {
    const result = uiS1ParseResponse(solution);
    parsed = true;
    formatScore = result.think !== null && pyStrip(result.think) !== "" ? 1 : 0;
    [typeMatch, extractMatch] = uiS1CheckResponseMatch(result.actionContent, checkOptions, f);
    actionScore = typeMatch ? (extractMatch ? 1 : 0.5) : 0.1;
    const annotation = pyGetKey(checkOptions, "annotation");
    if (annotation === "HARMFUL") actionScore = 1 - actionScore;
    else if (annotation === "NEUTRAL") actionScore = 0.5;
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    error = e.message;
  }
  return { score: formatScore * 0.1 + actionScore * 0.9, formatScore, actionScore, typeMatch, extractMatch, parsed, error };
}

// ---------------------------------------------------------------------------------------------
// SOP evaluation (eval_qwenvl.py + qwenvl_utils.py)
// ---------------------------------------------------------------------------------------------

/** A step of a UI-S1 trajectory line as eval_qwenvl.py reads it (only the keys it looks at). */
export type UiS1EvalStep = {
  action_content: Record<string, unknown>;
  bbox?: unknown;
  candidate_bbox?: unknown;
  check_options?: Record<string, unknown>;
};

/**
 * eval_qwenvl.py fix_line for one step: a step with a top-level candidate_bbox keeps the check_options
 * it has; otherwise check_options = action_content + candidate_bbox from the top-level `bbox` or [].
 * (The `bbox` inside action_content, where `bridge traj` and the training data put the target box, is not read.)
 */
export function uiS1EvalCheckOptions(step: UiS1EvalStep): PyDict {
  if ("candidate_bbox" in step) {
    if (!step.check_options) throw new PyError("KeyError", "'check_options'");
    return toPyDict(step.check_options);
  }
  const out = toPyDict(step.action_content);
  out.set("candidate_bbox", "bbox" in step ? toPy(step.bbox) : []);
  return out;
}

/** evaluate_android_control_action (qwenvl_utils.py), ignore_actions empty: [type_match, extract_match]. Throws PyError. */
export function uiS1EvaluateAction(predAction: PyValue, checkOptions: PyDict, f: Frames4): [boolean, boolean] {
  const pred = normCoordinate(predAction, f.resizedWidth, f.resizedHeight, "eval");
  const gt = normCoordinate(checkOptions, f.width, f.height, "eval");
  const gtAction = key(gt, "action");
  const predIs = (a: PyValue) => key(pred, "action") === a;
  if (gtAction === "wait") return predIs("wait") ? [true, true] : [false, false];
  if (gtAction === "system_button") return predIs("system_button") ? [true, buttonsEqual(pred, gt)] : [false, false];
  if (gtAction === "type") return predIs("type") ? [true, checkText(key(pred, "text"), key(gt, "text"))] : [false, false];
  if (gtAction === "open") {
    if (predIs("open")) return [true, checkText(key(pred, "text"), key(gt, "text"))];
    if (predIs("click")) {
      const boxes = gt.boxes;
      if (pyLen(key(gt, "candidate_bbox")) > 0) {
        const first = boxes[0]!;
        return [true, checkClick(coordinateOf(pred), boxes, [(first[0] + first[2]) / 2, (first[1] + first[3]) / 2])];
      }
      return [false, false];
    }
    return [false, false];
  }
  if (gtAction === "swipe") return predIs("swipe") ? [true, true] : [false, false];
  if (gtAction === "long_press" || gtAction === "click") {
    if (!predIs(gtAction)) return [false, false];
    key(gt, "candidate_bbox");
    return [true, checkClick(coordinateOf(pred), gt.boxes, coordinateOf(gt))];
  }
  throw new PyError("NotImplementedError", `ground-truth action ${JSON.stringify(gtAction)}`);
}

/** x/qwen/image.py smart_resize as find_last_image_ele calls it (max_pixels 12800*28*28). Returns [w, h]. */
export function uiS1EvalResize(width: number, height: number): [number, number] {
  const factor = 28;
  const minPixels = 56 * 56;
  const maxPixels = 12800 * 28 * 28;
  const maxLongSide = 8192;
  if (height < 2 || width < 2) throw new PyError("ValueError", `height:${height} or width:${width} must be larger than factor`);
  if (Math.max(height, width) / Math.min(height, width) > 200)
    throw new PyError("ValueError", "absolute aspect ratio must be smaller than 100");
  const { width: w, height: h } = resizeToFactor({ width, height }, { factor, minPixels, maxPixels, maxLongSide, floorAtFactor: false });
  return [w, h];
}

/**
 * One step of an SOP episode: the check options, the screenshot's size, and the model's response (null: none
 * given). `predictionFrame` [w, h] replaces the evaluation's own smart_resize frame as the divisor of the
 * response's coordinates (qwen3-rel1000 responses: [1000, 1000]); unset, it is eval_qwenvl.py's frame.
 */
export type SopStep = { checkOptions: PyDict; width: number; height: number; response: string | null; predictionFrame?: [number, number] };

export type SopEpisode =
  /** Every response the evaluation needed was given. */
  | { complete: true; numSteps: number; finalStepId: number; taskSuccess: boolean; error: string | null }
  /** The evaluation would have asked for a response that the predictions do not hold (0-based step). */
  | { complete: false; missingStep: number };

/**
 * process_line: steps in order, stop at the first step whose extract_match is false; any exception
 * (unparsable response, a ground-truth action the evaluation does not implement, ...) makes the
 * episode fail with final_step_id 0.
 */
export function uiS1SopEpisode(steps: SopStep[]): SopEpisode {
  let stepId = 0;
  try {
    while (stepId < steps.length) {
      const step = steps[stepId]!;
      const resized = uiS1EvalResize(step.width, step.height);
      const [resizedWidth, resizedHeight] = step.predictionFrame ?? resized;
      if (step.response === null) return { complete: false, missingStep: stepId };
      const pred = uiS1ParseResponse(step.response);
      const [, extractMatch] = uiS1EvaluateAction(pred.actionContent, step.checkOptions, {
        width: step.width,
        height: step.height,
        resizedWidth,
        resizedHeight,
      });
      if (!extractMatch) break;
      stepId += 1;
    }
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    return { complete: true, numSteps: steps.length, finalStepId: 0, taskSuccess: false, error: e.message };
  }
  return { complete: true, numSteps: steps.length, finalStepId: stepId, taskSuccess: stepId === steps.length, error: null };
}

/** main(): success rate in % and average progress over the episodes. */
export function uiS1SopRates(
  episodes: { numSteps: number; finalStepId: number; taskSuccess: boolean }[],
): { successRate: number; progress: number } | null {
  if (episodes.length === 0) return null;
  const success = episodes.filter((e) => e.taskSuccess).length;
  return {
    successRate: (success / episodes.length) * 100,
    progress: episodes.reduce((sum, e) => sum + e.finalStepId / e.numSteps, 0) / episodes.length,
  };
}

// ---------------------------------------------------------------------------------------------
// The studio's steps in UI-S1's shape
// ---------------------------------------------------------------------------------------------

/**
 * The UI-S1 step `bridge traj --target ui-s1` writes for a studio step (action_content with the target
 * box as `bbox`, check_options with every candidate box), without the screenshot and text fields.
 * commands.test.ts checks that traj.ts writes exactly this.
 */
export function uiS1TrajStep(step: CanonicalStep, annotation: UiS1TrajStep["annotation"]): UiS1TrajStep {
  const call = trainableCall(step.toolCall);
  return {
    action_content: step.box ? { ...call, bbox: step.box } : call,
    annotation,
    check_options: { ...call, candidate_bbox: uniqueBoxes(step.box ? [step.box, ...step.candidateBoxes] : step.candidateBoxes) },
  };
}

/** A plain JSON value (from our own data) as the Python value json.loads would give. */
export function toPy(v: unknown): PyValue {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "number") return v;
  if (Array.isArray(v)) return v.map(toPy);
  if (typeof v === "object") return toPyDict(v as Record<string, unknown>);
  throw new Error(`not a JSON value: ${String(v)}`);
}

export function toPyDict(o: object): PyDict {
  return new Map(
    Object.entries(o)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, toPy(v)]),
  );
}
