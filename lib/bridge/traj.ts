import path from "node:path";
import { groundTruthContradictions } from "@/lib/domain/annotation";
import {
  smartResize,
  toConventionBox,
  uniqueBoxes,
  toConventionPoint,
  type Box,
  type CoordinateConvention,
  type Size,
} from "@/lib/domain/geometry";
import { mobileUseSystemPrompt, mobileUseUserText } from "@/lib/domain/prompt";
import { isPointless, mapPoints, POINTLESS_MESSAGE, screenProblems, trainableCall, type ToolCall } from "@/lib/domain/tool-call";
import {
  addRow,
  emptyHints,
  estimateTextTokens,
  hydraOverride,
  imageTokens,
  TEMPLATE_TOKENS,
  trainerSettings,
  type TrainerHints,
} from "@/lib/domain/trainer-hints";
import { openExport, readTrajectories, resolveScreenshot, type BridgeProblem } from "./export-reader";
import { ImageFolder } from "./images";
import { finishTrainingRows, JsonlOutput, RunLog, writeSummary, type BridgeIo, type TrainingRowOptions } from "./output";
import type { Annotation } from "@/lib/domain/rewards";
import { firstError, processLabel, type ProcessLabel } from "@/lib/domain/process-label";
import { uiS1AnnotationOf, isUnreviewed, rowLineage, type RowLineage } from "./samples";

/** UI-S1's TrajDataset resizes every screenshot at these limits (rl_dataset.py: 12800*28*28 and 4*28*28). */
export const UI_S1_MAX_PIXELS = 12800 * 28 * 28;
export const UI_S1_MIN_PIXELS = 4 * 28 * 28;
/** UI-S1 keeps the last 2 screenshots in a prompt (num_image_limit / rollout.limit_images). */
export const UI_S1_IMAGE_LIMIT = 2;

export const TRAJ_TARGETS = ["ui-s1"] as const;
export type TrajTarget = (typeof TRAJ_TARGETS)[number];
export const UI_S1_DATASET = "ui_s1_trajectories";

/**
 * One step of a UI-S1 trajectory (FORMATS.md §2.1). Coordinates in ORIGINAL screenshot pixels (what UI-S1's
 * code reads), or 0..1000 of the screenshot when the line declares `coords: "qwen3-rel1000"`.
 */
export type UiS1Step = {
  action_content: ToolCall & { bbox?: Box };
  /** `images/<sha256>.png` relative to the output folder (UI-S1 opens it against its working directory), or absolute under --image-root. */
  screenshot: string;
  thought: string;
  action_description: string;
  annotation: Annotation;
  check_options: ToolCall & { candidate_bbox: Box[] };
  /** The model's step: +1 good, 0 neutral, -1 harmful or wrong (lib/domain/process-label.ts); null when unreviewed. */
  process_label: ProcessLabel | null;
  /** Where the step comes from, in lines of a release export (see rowLineage); absent otherwise (UI-S1 reads only its own keys). */
  lineage?: RowLineage;
};

export type UiS1Trajectory = {
  goal: string;
  is_successful: boolean;
  episode_id: string;
  app: string;
  steps: UiS1Step[];
  /** 1-based step where the model first went wrong (inside the cut), or null. */
  first_error: number | null;
  /** Only under --coords qwen3-rel1000: every point and box of the line is 0..1000 of its screenshot. */
  coords?: "qwen3-rel1000";
};

export type TrajSummary = {
  command: "traj";
  target: TrajTarget;
  /** qwen25-abs: original pixels, which UI-S1's trainer moves into the resized frame itself; qwen3-rel1000: 0..1000. */
  coords: CoordinateConvention;
  trajectories: number;
  written: number;
  discardedTrajectories: number;
  steps: number;
  cutSteps: number;
  /** Written trajectories whose outcome was never set (exported as is_successful: false). */
  withoutOutcome: number;
  /** Steps from model output nobody reviewed; any makes the run refuse without --allow-unreviewed. */
  unreviewedSteps: number;
  exportStatus: string | null;
  refused: string | null;
  imageRoot: string | null;
  images: number;
  /** At UI-S1's own pixel limits, two screenshots per prompt (an estimate: UI-S1 builds its own prompt text). */
  hints: TrainerHints;
  problems: number;
  file: string;
};

/**
 * A step's call and boxes in the file's convention: unchanged (original pixels) for qwen25-abs, since UI-S1's
 * trainer does the resizing itself; integers 0..1000 of the screenshot for qwen3-rel1000.
 */
function inConvention(coords: CoordinateConvention, screenshot: Size) {
  const frames = { original: screenshot, resized: screenshot };
  return coords === "qwen25-abs"
    ? { call: (c: ToolCall) => c, box: (b: Box) => b }
    : {
        call: (c: ToolCall) => mapPoints(c, (p) => toConventionPoint(p, coords, frames)),
        box: (b: Box) => toConventionBox(b, coords, frames),
      };
}

/**
 * Write the UI-S1 trajectory JSONL: one line per kept trajectory with its steps up to the cut,
 * coordinates and boxes in original pixels, screenshots in `<out>/images/` (named relative to the
 * output folder, or under --image-root), per-step annotation (GOOD/HARMFUL/NEUTRAL) and check_options
 * with candidate_bbox (target box first). A trajectory with any unusable or self-contradicting step
 * is reported step by step and not written, since UI-S1 replays whole trajectories.
 */
export async function exportTraj(
  exportDir: string,
  opts: TrainingRowOptions & { target: TrajTarget; coords?: CoordinateConvention },
  io: BridgeIo,
): Promise<{ summary: TrajSummary; exitCode: number }> {
  const exp = await openExport(exportDir);
  const log = new RunLog(io, `bridge traj (${opts.target})`);
  const coords = opts.coords ?? "qwen25-abs";
  const out = await JsonlOutput.create(path.join(opts.outDir, `${UI_S1_DATASET}.jsonl`));
  const images = new ImageFolder({ outDir: opts.outDir, imageRoot: opts.imageRoot });
  const s = { trajectories: 0, discarded: 0, steps: 0, cutSteps: 0, withoutOutcome: 0, unreviewed: 0 };
  let hints = emptyHints(UI_S1_MAX_PIXELS, UI_S1_MIN_PIXELS);
  for await (const record of readTrajectories(exp)) {
    if (!record.ok) {
      log.problem(record.problem);
      continue;
    }
    s.trajectories += 1;
    const t = record.trajectory;
    if (t.isDiscarded) {
      s.discarded += 1;
      continue;
    }
    const kept = t.cutAfter === null ? t.steps : t.steps.slice(0, t.cutAfter + 1);
    s.cutSteps += t.steps.length - kept.length;
    const steps: UiS1Step[] = [];
    const problems: BridgeProblem[] = [];
    const where = (step: { index: number }) => ({ line: record.line, trajectory: record.key, step: step.index });
    const tokens: number[] = [];
    for (const step of kept) {
      const image = await resolveScreenshot(exp, step);
      if (!image.ok) {
        problems.push({ ...where(step), message: image.message });
        continue;
      }
      const call = step.toolCall;
      if (isPointless(call)) {
        problems.push({ ...where(step), message: POINTLESS_MESSAGE });
        continue;
      }
      const offScreen = screenProblems(call, step.screenshot);
      if (offScreen.length > 0) {
        problems.push({ ...where(step), message: `toolCall ${offScreen.map((p) => `${p.field} ${p.message}`).join("; ")}` });
        continue;
      }
      const contradictions = groundTruthContradictions(call, step.box, step.screenshot);
      if (contradictions.length > 0) {
        problems.push({ ...where(step), message: `ground truth contradicts itself: ${contradictions.map((c) => c.message).join("; ")}` });
        continue;
      }
      const to = inConvention(coords, step.screenshot);
      const converted = to.call(call);
      const candidates = uniqueBoxes((step.box ? [step.box, ...step.candidateBoxes] : step.candidateBoxes).map(to.box));
      steps.push({
        action_content: step.box ? { ...converted, bbox: to.box(step.box) } : converted,
        screenshot: image.path,
        thought: step.thought.text,
        action_description: step.clearAction,
        annotation: uiS1AnnotationOf(step.verdict),
        check_options: { ...converted, candidate_bbox: candidates },
        process_label: processLabel(step),
        ...(t.lineage ? { lineage: rowLineage(t, t.lineage, step) } : {}),
      });
      tokens.push(imageTokens(smartResize(step.screenshot, { maxPixels: UI_S1_MAX_PIXELS, minPixels: UI_S1_MIN_PIXELS })));
    }
    s.unreviewed += kept.filter((step) => isUnreviewed(t, step)).length;
    if (problems.length > 0) {
      problems.forEach((p) => log.problem(p));
      continue;
    }
    for (const st of steps) st.screenshot = await images.ref(st.screenshot);
    // Each step's prompt: the last UI_S1_IMAGE_LIMIT screenshots plus the goal and the history so far.
    kept.forEach((step, i) => {
      const shown = tokens.slice(Math.max(0, i + 1 - UI_S1_IMAGE_LIMIT), i + 1);
      const text =
        mobileUseSystemPrompt(step.screenshot) +
        mobileUseUserText(
          t.instruction,
          kept.slice(0, i).map((k) => trainableCall(k.toolCall)),
        );
      const imageTotal = shown.reduce((a, b) => a + b + TEMPLATE_TOKENS.perImage, 0);
      hints = addRow(hints, {
        imageTokens: Math.max(...shown),
        promptTokens: imageTotal + estimateTextTokens(text) + 2 * TEMPLATE_TOKENS.perMessage + TEMPLATE_TOKENS.generationPrompt,
        responseTokens: 0,
      });
    });
    if (t.outcome === null) s.withoutOutcome += 1;
    const row: UiS1Trajectory = {
      goal: t.instruction,
      is_successful: t.outcome === "success",
      episode_id: record.key,
      app: t.app,
      steps,
      first_error: firstError(t),
      ...(coords === "qwen3-rel1000" ? { coords } : {}),
    };
    await out.write(row);
    s.steps += steps.length;
    log.reading(s.trajectories, exp, `${out.rows} written, ${log.problems} problems`);
  }
  const { exportStatus, refused, exitCode, file } = await finishTrainingRows("traj", {
    exp,
    log,
    out,
    unreviewed: s.unreviewed,
    opts,
    noun: "steps",
  });
  const summary: TrajSummary = {
    command: "traj",
    target: opts.target,
    coords,
    trajectories: s.trajectories,
    written: out.rows,
    discardedTrajectories: s.discarded,
    steps: s.steps,
    cutSteps: s.cutSteps,
    withoutOutcome: s.withoutOutcome,
    unreviewedSteps: s.unreviewed,
    exportStatus,
    refused: refused ?? null,
    imageRoot: opts.imageRoot ?? null,
    images: images.files,
    hints,
    problems: log.problems,
    file,
  };
  await writeSummary(opts.outDir, UI_S1_DATASET, summary, log);
  log.progress(`${s.trajectories} trajectories, ${out.rows} written (${s.unreviewed} unreviewed steps), ${log.problems} problems`, true);
  if (exitCode === 0) {
    const dataDir = opts.imageRoot ?? opts.outDir;
    log.info(
      [
        `UI-S1: ${opts.imageRoot ? `screenshots are absolute paths under ${opts.imageRoot}/images/` : `screenshots are relative to the output folder: run UI-S1 with ${dataDir} as its working directory, or re-run with --image-root`}. Set:`,
        `  ${hydraOverride("data.train_files", path.join(dataDir, path.basename(file)))}`,
        ...trainerSettings("ui-s1", hints, dataDir)
          .slice(0, 1)
          .map((l) => `  ${l}`),
        `  (UI-S1 resizes at max_pixels ${UI_S1_MAX_PIXELS} and shows the last ${UI_S1_IMAGE_LIMIT} screenshots: up to ${hints.maxPromptTokens} estimated prompt tokens)`,
      ].join("\n"),
    );
  }
  return { summary, exitCode };
}
