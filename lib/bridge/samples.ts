import { groundTruthContradictions } from "@/lib/domain/annotation";
import {
  conventionFrame,
  framePair,
  isPointOnScreen,
  QWEN_FACTOR,
  QWEN_MAX_PIXELS,
  QWEN_MIN_PIXELS,
  toConventionPoint,
  type CoordinateConvention,
  type FramePair,
  type Size,
} from "@/lib/domain/geometry";
import { mobileR1Response, mobileUseSystemPrompt, mobileUseUserText, type ActionSpace } from "@/lib/domain/prompt";
import { isPointless, mapPoints, POINTLESS_MESSAGE, pointsOf, type ToolCall } from "@/lib/domain/tool-call";
import {
  editorPath,
  isTrainingTarget,
  type CanonicalStep,
  type CanonicalTrajectory,
  type Lineage,
  type Verdict,
} from "@/lib/domain/trajectory";
import {
  readTrajectories,
  resolveScreenshot,
  type BridgeProblem,
  type ExportDir,
  type TrajectoryRecord,
  type Where,
} from "./export-reader";
import type { Annotation, GroundTruth } from "@/lib/domain/rewards";

/** The image placeholder ms-swift, LLaMA-Factory and verl all expand into one image. */
export const IMAGE_TAG = "<image>";

/**
 * How the trainer turns a screenshot into the image the model sees:
 * - "qwen": smart_resize of the original at (maxPixels, minPixels): qwen-vl-utils fetch_image (ms-swift
 *   MAX_PIXELS/MIN_PIXELS, verl's per-image max_pixels/min_pixels), UI-S1;
 * - "llamafactory": LLaMA-Factory's _preprocess_image first scales an image with more than image_max_pixels
 *   (= maxPixels) pixels by sqrt(image_max_pixels / pixels), or one with fewer than image_min_pixels (= minPixels)
 *   up, truncating each side (int()); Qwen2VLPlugin widens a side under 28 to 28; then the Qwen2-VL image
 *   processor smart_resizes that at its own limits (preprocessor_config: 12845056 / 3136). That is not
 *   smart_resize of the original at maxPixels (1080x2340 at 1003520: 672x1484, not 672x1456).
 */
export type Resizer = "qwen" | "llamafactory";

/**
 * Resizing parameters of the trainer the export is for (pixels; Qwen2.5-VL defaults), the action
 * space the system prompt declares (exportActionSpace decides it; the cookbook's when unset), and the
 * coordinate convention of targets, history and predictions (`--coords`; qwen25-abs when unset).
 */
export type FrameOptions = {
  maxPixels: number;
  minPixels: number;
  actionSpace?: ActionSpace;
  resizer?: Resizer;
  coords?: CoordinateConvention;
};

/** The original size and the size the trainer's model sees (see Resizer). Throws where smart_resize raises. */
export function trainerFrames(original: Size, opts: FrameOptions): FramePair {
  if (opts.resizer !== "llamafactory") return framePair(original, opts.maxPixels, opts.minPixels);
  let { width, height } = original;
  if (width * height > opts.maxPixels) {
    const f = Math.sqrt(opts.maxPixels / (width * height));
    [width, height] = [Math.trunc(width * f), Math.trunc(height * f)];
  }
  if (width * height < opts.minPixels) {
    const f = Math.sqrt(opts.minPixels / (width * height));
    [width, height] = [Math.trunc(width * f), Math.trunc(height * f)];
  }
  if (Math.min(width, height) < QWEN_FACTOR) [width, height] = [Math.max(width, QWEN_FACTOR), Math.max(height, QWEN_FACTOR)];
  return { original, resized: framePair({ width, height }, QWEN_MAX_PIXELS, QWEN_MIN_PIXELS).resized };
}

/** Trajectory statuses a reviewer's eye has passed (or an annotator handed in); anything else is raw model output. */
const REVIEWED_STATUSES = new Set(["submitted", "approved"]);

/**
 * Is this step unreviewed model output: its trajectory neither submitted nor approved (an export made
 * with --status all), or the step itself never given a verdict? A canonical line without a status
 * (hand-made exports) counts by its verdict alone.
 */
export function isUnreviewed(t: Pick<CanonicalTrajectory, "status">, step: Pick<CanonicalStep, "verdict">): boolean {
  return (t.status !== undefined && !REVIEWED_STATUSES.has(t.status)) || step.verdict === "unreviewed";
}

/** One step made ready for any trainer format. Geometry noted per field. */
/**
 * A trainer row's lineage: the release, trajectory, step (0-based index) and annotation versions it was
 * made from, and the editor's address of that step relative to the studio's URL (editorPath).
 */
export type RowLineage = {
  release: string;
  release_number: number;
  trajectory_id: string;
  step: number;
  trajectory_version: number;
  step_version: number;
  editor: string;
};

/** The lineage of a step of a release export's trajectory (`lineage` is the trajectory line's). */
export function rowLineage(t: CanonicalTrajectory, lineage: Lineage, step: CanonicalStep): RowLineage {
  const id = t.id ?? "";
  return {
    release: lineage.release,
    release_number: lineage.releaseNumber,
    trajectory_id: id,
    step: step.index,
    trajectory_version: lineage.trajectoryVersion,
    step_version: step.version ?? 1,
    editor: editorPath(id, step.index),
  };
}

export type StepSample = {
  where: Where;
  trajectory: CanonicalTrajectory;
  step: CanonicalStep;
  /** Original screenshot size and the smart-resized size at the export's max_pixels. */
  frames: FramePair;
  /** Absolute path of the screenshot inside the export folder (rows refer to it through ImageFolder). */
  imagePath: string;
  /** Model output nobody reviewed (see isUnreviewed). */
  isUnreviewed: boolean;
  /** Where the row comes from, when the export is a release (see rowLineage); absent otherwise. */
  lineage?: RowLineage;
  /** Not harmful, not after the cut, trajectory not discarded: may be an SFT target. */
  isTarget: boolean;
  annotation: Annotation;
  /** The coordinate convention of `modelCall`, the history and the predictions the rewards expect. */
  coords: CoordinateConvention;
  /** The mobile_use system prompt announcing the convention's frame (frames.resized, or 1000x1000). */
  system: string;
  /** The user turn WITHOUT the image tag; history calls in the convention, each in its own step's frame. */
  userText: string;
  /** The step's annotated call as the model writes it: the convention's coordinates (Python rounding). */
  modelCall: ToolCall;
  /** The step's ground truth for rewards: original pixels plus both frame sizes (and `coords` under rel1000). */
  groundTruth: GroundTruth;
};

export type SampleResult = { ok: true; sample: StepSample } | { ok: false; problem: BridgeProblem };

export function uiS1AnnotationOf(verdict: Verdict): Annotation {
  if (verdict === "harmful") return "HARMFUL";
  if (verdict === "neutral") return "NEUTRAL";
  return "GOOD";
}

const systemPromptCache = new Map<string, string>();
/**
 * The prompt announces the frame the model's coordinates live in: the resized image for qwen25-abs, a
 * 1000x1000 screen for qwen3-rel1000 (GUI-Owl 1.5's own mobile_use prompt, Mobile-Agent-v3.5 gui_owl.py).
 */
function systemPromptFor(screen: Size, space: ActionSpace): string {
  const k = `${screen.width}x${screen.height}:${space}`;
  let s = systemPromptCache.get(k);
  if (s === undefined) {
    s = mobileUseSystemPrompt(screen, space);
    systemPromptCache.set(k, s);
  }
  return s;
}

/** The call's points that fall outside the convention's frame (after conversion), as text. */
function outOfFrame(call: ToolCall, frame: Size, coords: CoordinateConvention): string | undefined {
  const bad = pointsOf(call).filter((p) => !isPointOnScreen(p, frame));
  if (bad.length === 0) return undefined;
  const name = coords === "qwen25-abs" ? "resized frame" : `${coords} frame`;
  return `${bad.map((p) => `[${p.join(", ")}]`).join(", ")} outside the ${frame.width}x${frame.height} ${name}`;
}

/**
 * The kept steps of one trajectory (inside the cut; none when discarded), harmful steps included,
 * each as a sample or as the problem that stops it. History for step i is the annotated calls of
 * steps 0..i-1 (harmful ones too: they were executed), each converted to its own step's frame in the
 * convention `opts.coords` (resized pixels, or 0..1000 of the screenshot).
 */
export async function* stepSamples(
  exp: ExportDir,
  record: Extract<TrajectoryRecord, { ok: true }>,
  opts: FrameOptions,
): AsyncGenerator<SampleResult> {
  const t = record.trajectory;
  if (t.isDiscarded) return;
  const lastKept = t.cutAfter ?? t.steps.length - 1;

  const coords = opts.coords ?? "qwen25-abs";
  // Frames and the model's calls for every kept step first: later steps' history needs them.
  const prepared: ({ frames: FramePair; call: ToolCall; modelCall: ToolCall; error?: undefined } | { error: string })[] = [];
  for (const step of t.steps.slice(0, lastKept + 1)) {
    const call = step.toolCall;
    // A tap without a point is neither a target nor history anyone can write (the history line needs the point).
    if (isPointless(call)) {
      prepared.push({ error: POINTLESS_MESSAGE });
      continue;
    }
    try {
      const frames = trainerFrames({ width: step.screenshot.width, height: step.screenshot.height }, opts);
      const modelCall = mapPoints(call, (p) => toConventionPoint(p, coords, frames));
      const bad = outOfFrame(modelCall, conventionFrame(coords, frames), coords);
      prepared.push(bad ? { error: `toolCall ${bad}` } : { frames, call, modelCall });
    } catch (e) {
      prepared.push({ error: `screenshot size: ${(e as Error).message}` });
    }
  }

  let firstBadHistory: number | undefined;
  for (const step of t.steps.slice(0, lastKept + 1)) {
    const where: Where = { line: record.line, trajectory: record.key, step: step.index };
    const prep = prepared[step.index]!;
    const fail = (message: string): SampleResult => ({ ok: false, problem: { ...where, message } });
    if (prep.error !== undefined) {
      yield fail(prep.error);
      firstBadHistory ??= step.index;
      continue;
    }
    if (firstBadHistory !== undefined) {
      yield fail(`history step ${firstBadHistory + 1} cannot be converted, so this step's prompt cannot be written`);
      continue;
    }
    // Ground truth that contradicts itself is a problem, never a row (the step stays valid history).
    const contradictions = groundTruthContradictions(prep.call, step.box, prep.frames.original);
    if (contradictions.length > 0) {
      yield fail(`ground truth contradicts itself: ${contradictions.map((c) => c.message).join("; ")}`);
      continue;
    }
    const image = await resolveScreenshot(exp, step);
    if (!image.ok) {
      yield fail(image.message);
      continue;
    }
    // Every earlier kept step converted cleanly (firstBadHistory is unset), so each has a model call.
    const history = prepared.slice(0, step.index).flatMap((p) => (p.error === undefined ? [p.modelCall] : []));
    const { frames, call, modelCall } = prep;
    const annotation = uiS1AnnotationOf(step.verdict);
    yield {
      ok: true,
      sample: {
        where,
        trajectory: t,
        step,
        frames,
        imagePath: image.path,
        isUnreviewed: isUnreviewed(t, step),
        ...(t.lineage ? { lineage: rowLineage(t, t.lineage, step) } : {}),
        isTarget: isTrainingTarget(t, step),
        annotation,
        coords,
        system: systemPromptFor(conventionFrame(coords, frames), opts.actionSpace ?? "mobile-use"),
        userText: mobileUseUserText(t.instruction, history),
        modelCall,
        groundTruth: {
          gt_action: call,
          gt_bbox: step.box,
          candidate_bbox: step.candidateBoxes,
          orig_wh: [frames.original.width, frames.original.height],
          resized_wh: [frames.resized.width, frames.resized.height],
          annotation,
          // Declared only when it is not today's frame, so qwen25-abs rows stay byte for byte what they were.
          ...(coords === "qwen25-abs" ? {} : { coords }),
        },
      },
    };
  }
}

/** The assistant target of an SFT sample, or why it cannot be written. Coordinates in the sample's convention. */
export function assistantTarget(sample: StepSample): { ok: true; text: string } | { ok: false; message: string } {
  const thought = sample.step.thought.text.trim();
  const clearAction = sample.step.clearAction.trim();
  if (thought === "") return { ok: false, message: "thought.text is empty" };
  if (clearAction === "") return { ok: false, message: "clearAction is empty" };
  return { ok: true, text: mobileR1Response(thought, clearAction, sample.modelCall) };
}

export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

/** Number of `<image>` tags across all messages. */
export function countImageTags(messages: readonly ChatMessage[]): number {
  return messages.reduce((n, m) => n + m.content.split(IMAGE_TAG).length - 1, 0);
}

/** The prompt messages of a sample: system, then the user text followed by the screenshot (the cookbook's order). */
export function promptMessages(sample: StepSample): ChatMessage[] {
  return [
    { role: "system", content: sample.system },
    { role: "user", content: `${sample.userText}${IMAGE_TAG}` },
  ];
}

/** Every image tag must pair with exactly one image; text a user typed may contain a literal "<image>". */
export function imagePairingProblem(messages: readonly ChatMessage[], images: readonly unknown[]): string | undefined {
  const tags = countImageTags(messages);
  return tags === images.length
    ? undefined
    : `${tags} ${IMAGE_TAG} tags for ${images.length} images (does the instruction or thought contain "${IMAGE_TAG}"?)`;
}

export type WalkCounts = { trajectories: number; discarded: number; keptSteps: number; cutSteps: number };

/**
 * Stream every kept step of an export through `onSample` (problems go to `onProblem`), one
 * trajectory at a time. `onProgress` is called after each trajectory.
 */
export async function walkSamples(
  exp: ExportDir,
  opts: FrameOptions,
  handlers: {
    onSample: (sample: StepSample) => Promise<void> | void;
    onProblem: (problem: BridgeProblem) => void;
    onTrajectory?: (record: Extract<TrajectoryRecord, { ok: true }>) => Promise<void> | void;
    /** After the trajectory's last step (also for discarded ones, which have no samples). */
    onTrajectoryEnd?: (record: Extract<TrajectoryRecord, { ok: true }>) => Promise<void> | void;
    onProgress?: (counts: WalkCounts) => void;
  },
): Promise<WalkCounts> {
  const counts: WalkCounts = { trajectories: 0, discarded: 0, keptSteps: 0, cutSteps: 0 };
  for await (const record of readTrajectories(exp)) {
    if (!record.ok) {
      handlers.onProblem(record.problem);
      continue;
    }
    counts.trajectories += 1;
    const t = record.trajectory;
    if (t.isDiscarded) counts.discarded += 1;
    else if (t.cutAfter !== null) counts.cutSteps += Math.max(0, t.steps.length - 1 - t.cutAfter);
    await handlers.onTrajectory?.(record);
    for await (const result of stepSamples(exp, record, opts)) {
      if (!result.ok) {
        handlers.onProblem(result.problem);
        continue;
      }
      counts.keptSteps += 1;
      await handlers.onSample(result.sample);
    }
    await handlers.onTrajectoryEnd?.(record);
    handlers.onProgress?.(counts);
  }
  return counts;
}

/**
 * The action space an export's prompts declare: UI-S1's (with `answer`) when any kept step of any
 * kept trajectory answers, so the prompt offers every action a target, ground truth or history
 * entry uses; otherwise the Qwen cookbook's exact tool (what Mobile-R1 trains with). One pass over
 * trajectories.jsonl; unreadable lines are left to the main pass to report.
 */
export async function exportActionSpace(exp: ExportDir): Promise<ActionSpace> {
  for await (const record of readTrajectories(exp)) {
    if (!record.ok || record.trajectory.isDiscarded) continue;
    const t = record.trajectory;
    const kept = t.cutAfter === null ? t.steps : t.steps.slice(0, t.cutAfter + 1);
    if (kept.some((s) => s.toolCall.action === "answer")) return "ui-s1";
  }
  return "mobile-use";
}
