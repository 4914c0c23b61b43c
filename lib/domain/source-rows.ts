// A trajectory written back in a source format's own row shape (the Mobile-R1 release, UI-S1): an
// unchanged step exactly as it was imported, a corrected one in the source's dialect.
import {
  detectActionDialect,
  isUnchangedStep,
  MOBILE_R1_ACTION,
  renderAction,
  renderResponse,
  stepDialect,
  STUDIO_DIALECT,
  trajectoryDialect,
  type ActionDialect,
  type ResponseDialect,
} from "./dialect";
import { toResizedBox, toResizedPoint, type FramePair, type Size } from "./geometry";
import { sourceMetaOf } from "./import-formats";
import { mapPoints, type StepToolCall } from "./tool-call";
import { isTrainingTarget, type CanonicalStep, type CanonicalTrajectory } from "./trajectory";

/** The device size a Mobile-R1 row declares (image_width/height), when it declares one. */
function declaredSize(row: Record<string, unknown>): Size | undefined {
  const w = row.image_width;
  const h = row.image_height;
  return typeof w === "number" && typeof h === "number" && w > 0 && h > 0 ? { width: w, height: h } : undefined;
}

/**
 * One line of the Mobile-R1 release format (FORMATS.md §1.2, §1.4), training targets only (a reader
 * of that format trains on every step it finds: no harmful step, nothing after the cut). For a
 * trajectory imported from that format: `system`, top-level fields and every unchanged step's strings
 * as imported; a corrected step in the trajectory's own response dialect, its coordinates in the
 * device frame the row declares (image_width/height; converted back from the screenshot's pixels when
 * the images were scaled, Python rounding). Anything else: original screenshot pixels, the studio's
 * layout, image_width/height of the first screenshot. `imageOf` names each step's file in images/.
 */
export function mobileR1Row(t: CanonicalTrajectory, imageOf: (step: CanonicalStep) => string): Record<string, unknown> {
  const steps = t.steps.filter((s) => isTrainingTarget(t, s));
  const first = t.steps[0]!;
  const meta = sourceMetaOf(t.meta);
  const source = meta?.source === "mobile-r1" ? meta.row : undefined;
  // Both dialects are read from every step's text (each call's JSON parsed), and only a step written anew
  // needs them: read once, at the first such step. An export of unchanged imported steps (most of a
  // large one) parsed each step's call twice for nothing, about a tenth of the export's CPU.
  let dialect: ResponseDialect | undefined;
  const responseDialect = () =>
    (dialect ??= trajectoryDialect(
      t.steps.map((s) => s.original),
      STUDIO_DIALECT,
    ));
  let action: ActionDialect | undefined;
  // A source's own `action` encoding when it has one (the first step that shows one); the release's (a
  // Python-spaced JSON string) otherwise.
  const actionDialect = (): ActionDialect => (action ??= (source ? firstActionDialect(t.steps) : undefined) ?? MOBILE_R1_ACTION);
  const declared = source ? declaredSize(source) : undefined;
  const trajectory = steps.map((s) => {
    const image = imageOf(s);
    const row = s.original.row ?? {};
    if (source && isUnchangedStep(s)) {
      return {
        image,
        ...pick(row, ["thought", "subtask"]),
        ...(s.original.rawAction !== undefined ? { action: s.original.rawAction } : {}),
        ...(s.original.response !== undefined ? { response: s.original.response } : {}),
        ...pick(row, ["bbox"]),
        ...s.original.extra,
      };
    }
    const frames = declared ? { original: s.screenshot, resized: declared } : undefined;
    const call = frames ? toFrame(s.toolCall, frames) : s.toolCall;
    const box = s.box && frames ? toResizedBox(s.box, frames) : s.box;
    return {
      image,
      thought: s.thought.text,
      subtask: s.clearAction,
      action: renderAction(actionDialect(), call),
      response: renderResponse(stepDialect(s.original, responseDialect()), { thought: s.thought.text, clearAction: s.clearAction, call }),
      ...(box ? { bbox: box } : {}),
      ...(source ? s.original.extra : {}),
    };
  });
  const system = t.systemPrompt ?? (source && Object.hasOwn(source, "system") ? source.system : source ? undefined : "");
  const allKept = steps.length === t.steps.length;
  return {
    app_name: t.app,
    trajectory_length: allKept && source && Object.hasOwn(source, "trajectory_length") ? source.trajectory_length : steps.length,
    instruction: t.instruction,
    ...(system !== undefined ? { system } : {}),
    image_width: declared?.width ?? first.screenshot.width,
    image_height: declared?.height ?? first.screenshot.height,
    trajectory,
    ...(source ? omit(source, ["trajectory_length", "system", "image_width", "image_height"]) : {}),
  };
}

/**
 * One line of UI-S1's trajectory JSONL (FORMATS.md §2.1) for a trajectory imported from UI-S1: the
 * steps up to the cut (HARMFUL and NEUTRAL steps carry `annotation`, as UI-S1 reads them), each
 * unchanged step as imported, a corrected one with its call and box in `action_content`, the clear
 * action in `action_description` and `check_options` rebuilt from the call and candidate boxes.
 * Coordinates in original screenshot pixels (UI-S1's own frame). Undefined for other sources.
 */
export function uiS1Row(t: CanonicalTrajectory): Record<string, unknown> | undefined {
  const meta = sourceMetaOf(t.meta);
  if (meta?.source !== "ui-s1" || t.isDiscarded) return undefined;
  const lastKept = t.cutAfter ?? t.steps.length - 1;
  const steps = t.steps.slice(0, lastKept + 1).map((s) => {
    const row = s.original.row ?? {};
    const extra = s.original.extra ?? {};
    const annotation = s.verdict === "harmful" ? "HARMFUL" : s.verdict === "neutral" ? "NEUTRAL" : "GOOD";
    const annotated = Object.hasOwn(extra, "annotation") || annotation !== "GOOD" ? { annotation } : {};
    if (isUnchangedStep(s) && isRecord(s.original.rawAction)) {
      return {
        action_content: { ...s.original.rawAction, ...pick(row, ["bbox"]) },
        ...pick(row, ["screenshot", "thought", "action_description"]),
        ...extra,
        ...annotated,
      };
    }
    const checks = isRecord(extra.check_options)
      ? { check_options: { ...s.toolCall, ...(s.candidateBoxes.length > 0 ? { candidate_bbox: s.candidateBoxes } : {}) } }
      : {};
    return {
      action_content: { ...s.toolCall, ...(s.box ? { bbox: s.box } : {}) },
      ...pick(row, ["screenshot"]),
      thought: s.thought.text,
      action_description: s.clearAction,
      ...extra,
      ...checks,
      ...annotated,
    };
  });
  const outcome = t.outcome ?? t.originalOutcome;
  return {
    goal: t.instruction,
    ...meta.row,
    ...(t.outcome || Object.hasOwn(meta.row, "is_successful") ? { is_successful: outcome === "success" } : {}),
    steps,
  };
}

/** The `action` encoding of the first step whose imported `action` shows one. */
function firstActionDialect(steps: readonly CanonicalStep[]): ActionDialect | undefined {
  for (const s of steps) {
    const d = detectActionDialect(s.original.rawAction);
    if (d) return d;
  }
  return undefined;
}

/** A call's points from original screenshot pixels to the frame `frames.resized` (Python rounding). */
function toFrame(call: StepToolCall, frames: FramePair): StepToolCall {
  return mapPoints(call, (p) => toResizedPoint(p, frames));
}

function pick(row: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (Object.hasOwn(row, k)) out[k] = row[k];
  return out;
}

function omit(row: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (!keys.includes(k)) out[k] = v;
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
