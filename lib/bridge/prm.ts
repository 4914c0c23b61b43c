// `bridge prm`: step-labelled rows a process reward model trains on. Each row is one step of the trajectory
// as the model ran it: the instruction and the model's own earlier calls (what was executed, so what the
// screenshot shows the result of), the screenshot, the model's response for the step, and its process label
// (lib/domain/process-label.ts: +1 good, 0 neutral, -1 harmful or wrong), with the trajectory's first_error.
import path from "node:path";
import { annotationOfProcessLabel, firstError, processLabel, type ProcessLabel } from "@/lib/domain/process-label";
import { mobileUseUserText, type ActionSpace } from "@/lib/domain/prompt";
import { pyJsonDumps, type ToolCall } from "@/lib/domain/tool-call";
import type { Annotation } from "@/lib/domain/rewards";
import type { CanonicalTrajectory, Lane } from "@/lib/domain/trajectory";
import { isPointless, mapPoints } from "@/lib/domain/tool-call";
import { toConventionPoint } from "@/lib/domain/geometry";
import { openExport } from "./export-reader";
import { ImageFolder } from "./images";
import { finishTrainingRows, JsonlOutput, RunLog, writeSummary, type BridgeIo, type TrainingRowOptions } from "./output";
import { modelSample } from "./dpo";
import {
  exportActionSpace,
  imagePairingProblem,
  trainerFrames,
  walkSamples,
  type ChatMessage,
  type FrameOptions,
  type RowLineage,
} from "./samples";
import { sftPromptAndAnswer } from "./sft";

export const PRM_DATASET = "mobile_use_prm";

/** One step-labelled row. Coordinates of the prompt, the response and `model_action` in the row's frame (resized pixels, or `--coords`). */
export type PrmRow = {
  /** System prompt, user turn (instruction, the model's earlier calls, `<image>`), the model's response for the step. */
  messages: ChatMessage[];
  images: string[];
  /** The model's call for the step, JSON, in the row's frame. */
  model_action: string;
  process_label: ProcessLabel;
  /** UI-S1's name for the same label: GOOD +1, NEUTRAL 0, HARMFUL -1. */
  annotation: Annotation;
  /** 1-based step of the trajectory where the model first went wrong (inside the cut), or null. */
  first_error: number | null;
  /**
   * How the labels were made (the export's `lane`): `fast` (first-error fast lane: steps before first_error
   * judged good at a glance, the rest cut or unlabelled), `full`, `fast-then-full`; null when not handed in.
   */
  lane: Lane | null;
  trajectory_id: string;
  /** 0-based step index. */
  step: number;
  app: string;
  /** Where the row comes from, in rows of a release export (see rowLineage); absent otherwise. */
  lineage?: RowLineage;
};

export type PrmSummary = {
  command: "prm";
  coords: string;
  maxPixels: number;
  minPixels: number;
  trajectories: number;
  discardedTrajectories: number;
  rows: number;
  labels: { good: number; neutral: number; wrong: number };
  /** Kept trajectories with a first error, and without. */
  withFirstError: number;
  withoutError: number;
  /** Rows by the lane their trajectory's labels came from ("none": not handed in). */
  rowsByLane: Record<Lane | "none", number>;
  /** Steps nobody reviewed: no label is made up for them (never a row). */
  unlabelledSteps: number;
  unreviewedRows: number;
  exportStatus: string | null;
  refused: string | null;
  actionSpace: ActionSpace;
  imageRoot: string | null;
  images: number;
  problems: number;
  file: string;
};

/**
 * Write one row per kept step (inside the cut, trajectory kept) with its process label. The history is the
 * model's own earlier calls (`step.original`), each in its step's frame; the response is the model's, written
 * by the SFT builder in the cookbook layout. A step whose original call is a tap without a point is a problem
 * (so is every later step of its trajectory, whose history would need that point).
 */
export async function exportPrm(
  exportDir: string,
  opts: FrameOptions & TrainingRowOptions,
  io: BridgeIo,
): Promise<{ summary: PrmSummary; exitCode: number }> {
  const exp = await openExport(exportDir);
  const log = new RunLog(io, "bridge prm");
  const actionSpace = await exportActionSpace(exp);
  const out = await JsonlOutput.create(path.join(opts.outDir, `${PRM_DATASET}.jsonl`));
  const images = new ImageFolder({ outDir: opts.outDir, imageRoot: opts.imageRoot });
  const labels = { good: 0, neutral: 0, wrong: 0 };
  let withFirstError = 0;
  let withoutError = 0;
  let unlabelledSteps = 0;
  let unreviewedRows = 0;
  // The model's call of every step of the current trajectory, each in its own step's frame (a message where none can be written).
  let modelCalls: (ToolCall | string)[] = [];
  let firstErrorOf: number | null = null;
  const rowsByLane: Record<Lane | "none", number> = { full: 0, fast: 0, "fast-then-full": 0, none: 0 };
  const counts = await walkSamples(
    exp,
    { ...opts, actionSpace },
    {
      onProblem: (p) => log.problem(p),
      onTrajectory: (record) => {
        modelCalls = modelCallsOf(record.trajectory, opts);
        firstErrorOf = firstError(record.trajectory);
        if (!record.trajectory.isDiscarded) {
          if (firstErrorOf === null) withoutError += 1;
          else withFirstError += 1;
        }
      },
      onProgress: (n) => log.reading(n.trajectories, exp, `${out.rows} rows, ${log.problems} problems`),
      onSample: async (sample) => {
        const model = modelSample(sample);
        if (!model) return log.problem({ ...sample.where, message: `the model's original call: ${POINTLESS_MODEL_CALL}` });
        const earlier = modelCalls.slice(0, sample.step.index);
        const broken = earlier.findIndex((c) => typeof c === "string");
        if (broken >= 0) {
          return log.problem({
            ...sample.where,
            message: `history step ${broken + 1} (the model's call) cannot be written: ${earlier[broken] as string}`,
          });
        }
        const label = processLabel(sample.step);
        if (label === null) {
          unlabelledSteps += 1;
          return;
        }
        const built = sftPromptAndAnswer(
          { ...model, userText: mobileUseUserText(sample.trajectory.instruction, earlier as ToolCall[]) },
          "cookbook",
        );
        if (!built.ok) return log.problem({ ...sample.where, message: `the model's original response: ${built.message}` });
        const pairing = imagePairingProblem(built.prompt, [sample.imagePath]);
        if (pairing) return log.problem({ ...sample.where, message: pairing });
        const row: PrmRow = {
          messages: [...built.prompt, { role: "assistant", content: built.answer }],
          images: [await images.ref(sample.imagePath)],
          model_action: pyJsonDumps(model.modelCall),
          process_label: label,
          annotation: annotationOfProcessLabel(label),
          first_error: firstErrorOf,
          lane: sample.trajectory.lane ?? null,
          trajectory_id: sample.where.trajectory,
          step: sample.step.index,
          app: sample.trajectory.app,
          ...(sample.lineage ? { lineage: sample.lineage } : {}),
        };
        await out.write(row);
        labels[label === 1 ? "good" : label === 0 ? "neutral" : "wrong"] += 1;
        rowsByLane[row.lane ?? "none"] += 1;
        if (sample.isUnreviewed) unreviewedRows += 1;
      },
    },
  );
  const { exportStatus, refused, exitCode, file } = await finishTrainingRows("prm", { exp, log, out, unreviewed: unreviewedRows, opts });
  const summary: PrmSummary = {
    command: "prm",
    coords: opts.coords ?? "qwen25-abs",
    maxPixels: opts.maxPixels,
    minPixels: opts.minPixels,
    trajectories: counts.trajectories,
    discardedTrajectories: counts.discarded,
    rows: out.rows,
    labels,
    withFirstError,
    withoutError,
    rowsByLane,
    unlabelledSteps,
    unreviewedRows,
    exportStatus,
    refused: refused ?? null,
    actionSpace,
    imageRoot: opts.imageRoot ?? null,
    images: images.files,
    problems: log.problems,
    file,
  };
  await writeSummary(opts.outDir, PRM_DATASET, summary, log);
  log.progress(`${counts.trajectories} trajectories, ${out.rows} rows (${labels.wrong} wrong), ${log.problems} problems`, true);
  return { summary, exitCode };
}

const POINTLESS_MODEL_CALL = "a tap without a point; the model's action cannot be written";

/** The model's original call of each step in its own step's frame (the row's convention), or why it cannot be written. */
function modelCallsOf(t: CanonicalTrajectory, opts: FrameOptions): (ToolCall | string)[] {
  const coords = opts.coords ?? "qwen25-abs";
  return t.steps.map((s) => {
    const call = s.original.toolCall;
    if (isPointless(call)) return POINTLESS_MODEL_CALL;
    try {
      const frames = trainerFrames({ width: s.screenshot.width, height: s.screenshot.height }, opts);
      return mapPoints(call, (p) => toConventionPoint(p, coords, frames));
    } catch (e) {
      return `screenshot size: ${(e as Error).message}`;
    }
  });
}
