import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { fileWriter, ParquetWriter, type ColumnSource, type SchemaElement } from "hyparquet-writer";
import type { ActionSpace } from "@/lib/domain/prompt";
import {
  addRow,
  emptyHints,
  hydraOverride,
  imageTokens,
  lengthSetting,
  promptTokens,
  shellQuote,
  trainerSettings,
  type TrainerHints,
} from "@/lib/domain/trainer-hints";
import { openExport } from "./export-reader";
import { ImageFolder, imageBytes } from "./images";
import { finishTrainingRows, JsonlOutput, RunLog, writeSummary, type BridgeIo, type TrainingRowOptions } from "./output";
import { predictionFrameOf, type RewardRule } from "@/lib/domain/rewards";
import type { CoordinateConvention } from "@/lib/domain/geometry";
import {
  exportActionSpace,
  imagePairingProblem,
  walkSamples,
  type ChatMessage,
  type FrameOptions,
  type RowLineage,
  type StepSample,
} from "./samples";
import { uiS1TrainCheckOptions } from "@/lib/domain/ui-s1-reward";
import { trainableCall } from "@/lib/domain/tool-call";
import { firstError, processLabel, type ProcessLabel } from "@/lib/domain/process-label";
import { mobileUseGrpoPrompt, uiS1GrpoPrompt, type GrpoPrompt } from "./ui-s1-prompt";

export const GRPO_TARGETS = ["ms-swift", "verl"] as const;
export type GrpoTarget = (typeof GRPO_TARGETS)[number];
export const GRPO_DATASET = "mobile_use_grpo";

/** verl `data_source` per rule; the Python plugin's compute_score routes on it. */
export const DATA_SOURCES: Record<RewardRule, string> = {
  "mobile-r1": "trajectory_studio_mobile_r1",
  "ui-s1": "trajectory_studio_ui_s1",
  "studio-lenient": "trajectory_studio_lenient",
};

/** ms-swift ORM names per rule (reward_plugin.py registers them). */
const SWIFT_REWARD_FUNCS: Record<RewardRule, string> = {
  "mobile-r1": "mobile_r1_action mobile_r1_format",
  "ui-s1": "ui_s1_step",
  "studio-lenient": "studio_lenient_step",
};

/**
 * ms-swift GRPO row: the prompt without the assistant turn, plus the ground-truth columns the
 * reward plugin receives as keyword arguments. Ground truth is in ORIGINAL pixels; the model's
 * answer will be in `resized_wh`.
 */
export type SwiftGrpoRow = {
  messages: ChatMessage[];
  images: string[];
  /** JSON string of the annotated call, original pixels (a string keeps Arrow's schema stable). */
  gt_action: string;
  gt_bbox: number[] | null;
  candidate_bbox: number[][];
  orig_wh: [number, number];
  resized_wh: [number, number];
  annotation: string;
  trajectory_id: string;
  step: number;
  /** Present only under qwen3-rel1000: the answer's coordinates are 0..1000 (the ORMs read this column). */
  coords?: CoordinateConvention;
  /** The model's step: +1 good, 0 neutral, -1 harmful or wrong (lib/domain/process-label.ts); null when unreviewed. */
  process_label: ProcessLabel | null;
  /** 1-based step where the model first went wrong in this trajectory (inside the cut), or null. */
  first_error: number | null;
  /** Where the row came from, in rows of a release export (the reward functions receive it as a keyword they ignore). */
  lineage?: RowLineage;
};

export type GrpoSummary = {
  command: "grpo";
  target: GrpoTarget;
  rule: RewardRule;
  /** The coordinate convention of prompts, history and the answers the rewards expect. */
  coords: CoordinateConvention;
  maxPixels: number;
  minPixels: number;
  trajectories: number;
  discardedTrajectories: number;
  rows: number;
  harmfulRows: number;
  /** Steps after a cut point: never exported. */
  cutSteps: number;
  /** click/long_press rows without a target box (Mobile-R1 falls back to a 0.04 distance). */
  coordinateRowsWithoutBox: number;
  /** Rows from model output nobody reviewed; any makes the run refuse without --allow-unreviewed. */
  unreviewedRows: number;
  exportStatus: string | null;
  refused: string | null;
  actionSpace: ActionSpace;
  /** verl: image bytes inside the parquet. */
  embeddedImages: boolean;
  imageRoot: string | null;
  images: number;
  hints: TrainerHints;
  problems: number;
  file: string;
};

/** `images`: how the row names each of `prompt.imagePaths` (see ImageFolder). */
export function swiftGrpoRow(sample: StepSample, prompt: GrpoPrompt, images: string[]): SwiftGrpoRow {
  const gt = sample.groundTruth;
  return {
    messages: prompt.messages,
    images,
    gt_action: JSON.stringify(gt.gt_action),
    gt_bbox: gt.gt_bbox,
    candidate_bbox: gt.candidate_bbox,
    orig_wh: gt.orig_wh,
    resized_wh: gt.resized_wh,
    annotation: gt.annotation,
    trajectory_id: sample.where.trajectory,
    step: sample.step.index,
    ...(gt.coords === undefined ? {} : { coords: gt.coords }),
    process_label: processLabel(sample.step),
    first_error: firstError(sample.trajectory),
    ...(sample.lineage ? { lineage: sample.lineage } : {}),
  };
}

/**
 * One verl image entry. verl's RLHFDataset turns a dict with `bytes` into a PIL image and hands the
 * rest (max_pixels, min_pixels) to qwen-vl-utils fetch_image; a dict with `image` goes to fetch_image
 * as is, which opens a plain path with open() (relative paths against the working directory).
 */
export type VerlImage =
  { image: string; max_pixels: bigint; min_pixels: bigint } | { bytes: Uint8Array; max_pixels: bigint; min_pixels: bigint };

/**
 * verl RL row (FORMATS.md §4.3). `reward_model.ground_truth` is the GroundTruth as a JSON string, plus
 * UI-S1's `check_options` and `num_steps` (uiS1GroundTruth). `extra_info.resized_width/height` is the frame
 * the answer's coordinates are in (predictionFrameOf: the resized image, or 1000 x 1000 under qwen3-rel1000),
 * because UI-S1's own gui_action_match_compute_score divides the prediction by exactly these two values.
 */
export type VerlRow = {
  data_source: string;
  prompt: ChatMessage[];
  images: VerlImage[];
  ability: string;
  reward_model: { style: string; ground_truth: string };
  extra_info: {
    index: bigint;
    trajectory_id: string;
    step: number;
    app: string;
    annotation: string;
    width: number;
    height: number;
    resized_width: number;
    resized_height: number;
    /** See SwiftGrpoRow. */
    process_label: number | null;
    first_error: number | null;
    /** Lineage (RowLineage) in rows of a release export, null otherwise: the release, its number, the annotation versions, the editor's address of the step. */
    release: string | null;
    release_number: number | null;
    trajectory_version: number | null;
    step_version: number | null;
    editor: string | null;
  };
};

/**
 * UI-S1's own ground truth for the step, beside the studio's keys: what gui_action_match_compute_score
 * reads (`ground_truth['check_options']`, `ground_truth['num_steps']`, with extra_info's width/height/
 * resized_width/resized_height), so UI-S1's reward runs on `json.loads(reward_model.ground_truth)` as is.
 * check_options is TrajDataset.fix_line of the step `bridge traj` writes (uiS1TrainCheckOptions);
 * num_steps counts the trajectory's steps up to the cut, as that file holds them.
 */
export function uiS1GroundTruth(sample: StepSample): { check_options: Record<string, unknown>; num_steps: number } {
  const { box } = sample.step;
  const toolCall = trainableCall(sample.step.toolCall);
  const check = uiS1TrainCheckOptions(box ? { ...toolCall, bbox: box } : toolCall, sample.annotation);
  const t = sample.trajectory;
  return {
    check_options: Object.fromEntries(check),
    num_steps: t.cutAfter === null ? t.steps.length : Math.min(t.steps.length, t.cutAfter + 1),
  };
}

/** `images`: each of `prompt.imagePaths` as a path (see ImageFolder) or its bytes (--embed-images). */
export function verlRow(
  sample: StepSample,
  index: number,
  rule: RewardRule,
  opts: FrameOptions,
  prompt: GrpoPrompt,
  images: (string | Uint8Array)[],
): VerlRow {
  const gt = sample.groundTruth;
  const [predictionWidth, predictionHeight] = predictionFrameOf(gt);
  const limits = { max_pixels: BigInt(opts.maxPixels), min_pixels: BigInt(opts.minPixels) };
  return {
    data_source: DATA_SOURCES[rule],
    prompt: prompt.messages,
    // fetch_image resizes with these per-image limits, so verl sees exactly the frame the prompt announces.
    images: images.map((image) => (typeof image === "string" ? { image, ...limits } : { bytes: image, ...limits })),
    ability: "gui",
    reward_model: { style: "rule", ground_truth: JSON.stringify({ ...gt, ...uiS1GroundTruth(sample) }) },
    extra_info: {
      index: BigInt(index),
      trajectory_id: sample.where.trajectory,
      step: sample.step.index,
      app: sample.trajectory.app,
      annotation: gt.annotation,
      width: gt.orig_wh[0],
      height: gt.orig_wh[1],
      resized_width: predictionWidth,
      resized_height: predictionHeight,
      process_label: processLabel(sample.step),
      first_error: firstError(sample.trajectory),
      release: sample.lineage?.release ?? null,
      release_number: sample.lineage?.release_number ?? null,
      trajectory_version: sample.lineage?.trajectory_version ?? null,
      step_version: sample.lineage?.step_version ?? null,
      editor: sample.lineage?.editor ?? null,
    },
  };
}

const str = (name: string): SchemaElement => ({ name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "REQUIRED" });
const int32 = (name: string): SchemaElement => ({ name, type: "INT32", repetition_type: "REQUIRED" });
const optionalStr = (name: string): SchemaElement => ({ name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" });
const optionalInt32 = (name: string): SchemaElement => ({ name, type: "INT32", repetition_type: "OPTIONAL" });
const int64 = (name: string): SchemaElement => ({ name, type: "INT64", repetition_type: "REQUIRED" });

const bytes = (name: string): SchemaElement => ({ name, type: "BYTE_ARRAY", repetition_type: "REQUIRED" });

/** Parquet schema of VerlRow: lists use the standard 3-level LIST layout pyarrow reads. `embed`: image bytes instead of paths. */
export function verlSchema(embed: boolean): SchemaElement[] {
  return VERL_SCHEMA.map((e) => (e.name === "image" && embed ? bytes("bytes") : e));
}

export const VERL_SCHEMA: SchemaElement[] = [
  { name: "root", num_children: 6 },
  str("data_source"),
  { name: "prompt", repetition_type: "REQUIRED", converted_type: "LIST", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  { name: "element", repetition_type: "REQUIRED", num_children: 2 },
  str("role"),
  str("content"),
  { name: "images", repetition_type: "REQUIRED", converted_type: "LIST", num_children: 1 },
  { name: "list", repetition_type: "REPEATED", num_children: 1 },
  { name: "element", repetition_type: "REQUIRED", num_children: 3 },
  str("image"),
  int64("max_pixels"),
  int64("min_pixels"),
  str("ability"),
  { name: "reward_model", repetition_type: "REQUIRED", num_children: 2 },
  str("style"),
  str("ground_truth"),
  { name: "extra_info", repetition_type: "REQUIRED", num_children: 16 },
  int64("index"),
  str("trajectory_id"),
  int32("step"),
  str("app"),
  str("annotation"),
  int32("width"),
  int32("height"),
  int32("resized_width"),
  int32("resized_height"),
  optionalInt32("process_label"),
  optionalInt32("first_error"),
  optionalStr("release"),
  optionalInt32("release_number"),
  optionalInt32("trajectory_version"),
  optionalInt32("step_version"),
  optionalStr("editor"),
];
const VERL_COLUMNS = ["data_source", "prompt", "images", "ability", "reward_model", "extra_info"] as const;

/** Parquet rows written in groups, so memory holds at most one row group. */
class VerlParquetOutput {
  rows = 0;
  private buffer: VerlRow[] = [];
  private readonly writer: ParquetWriter;
  private constructor(
    readonly finalPath: string,
    private readonly tmpPath: string,
    private readonly groupSize: number,
    embed: boolean,
  ) {
    this.writer = new ParquetWriter({ writer: fileWriter(tmpPath), schema: verlSchema(embed), createdBy: "trajectory-studio bridge" });
  }

  /** Embedded screenshots make rows large, so row groups are smaller then. */
  static async create(finalPath: string, embed: boolean): Promise<VerlParquetOutput> {
    await mkdir(path.dirname(finalPath), { recursive: true });
    await rm(finalPath, { force: true });
    return new VerlParquetOutput(finalPath, `${finalPath}.incomplete`, embed ? 64 : 512, embed);
  }

  async write(row: VerlRow): Promise<void> {
    this.rows += 1;
    this.buffer.push(row);
    if (this.buffer.length >= this.groupSize) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const rows = this.buffer;
    this.buffer = [];
    const columnData: ColumnSource[] = VERL_COLUMNS.map((name) => ({ name, data: rows.map((r) => r[name]) }));
    await this.writer.write({ columnData, rowGroupSize: rows.length });
  }

  async close(keep: boolean): Promise<string> {
    await this.flush();
    await this.writer.finish();
    if (!keep) {
      await rm(this.tmpPath, { force: true });
      return this.finalPath;
    }
    await rename(this.tmpPath, this.finalPath);
    return this.finalPath;
  }
}

/**
 * Write GRPO prompt rows for every kept step (inside the cut, trajectory not discarded), harmful
 * steps included as negatives (annotation HARMFUL). ms-swift: JSONL with ground-truth columns;
 * verl: parquet with reward_model.ground_truth, images by path or (embedImages) their bytes.
 * Coordinates in ground truth are original pixels.
 */
export async function exportGrpo(
  exportDir: string,
  opts: FrameOptions & TrainingRowOptions & { target: GrpoTarget; rule: RewardRule; embedImages?: boolean },
  io: BridgeIo,
): Promise<{ summary: GrpoSummary; exitCode: number }> {
  const exp = await openExport(exportDir);
  const log = new RunLog(io, `bridge grpo (${opts.target})`);
  const embed = opts.target === "verl" && opts.embedImages === true;
  const actionSpace = await exportActionSpace(exp);
  const out =
    opts.target === "verl"
      ? await VerlParquetOutput.create(path.join(opts.outDir, `${GRPO_DATASET}.parquet`), embed)
      : await JsonlOutput.create(path.join(opts.outDir, `${GRPO_DATASET}.jsonl`));
  const images = new ImageFolder({ outDir: opts.outDir, imageRoot: opts.imageRoot });
  let harmfulRows = 0;
  let coordinateRowsWithoutBox = 0;
  let unreviewedRows = 0;
  let hints = emptyHints(opts.maxPixels, opts.minPixels);
  const counts = await walkSamples(
    exp,
    { ...opts, actionSpace },
    {
      onProblem: (p) => log.problem(p),
      onProgress: (c) => log.reading(c.trajectories, exp, `${out.rows} rows, ${log.problems} problems`),
      onSample: async (sample) => {
        // Prompt layout per rule (README "Prompts per rule"): UI-S1's own for ui-s1, the cookbook's otherwise.
        const prompt = opts.rule === "ui-s1" ? await uiS1GrpoPrompt(exp, sample, opts) : mobileUseGrpoPrompt(sample);
        if (!prompt.ok) return log.problem({ ...sample.where, message: prompt.message });
        const pairing = imagePairingProblem(prompt.messages, prompt.imagePaths);
        if (pairing) return log.problem({ ...sample.where, message: pairing });
        if (sample.annotation === "HARMFUL") harmfulRows += 1;
        if (sample.isUnreviewed) unreviewedRows += 1;
        const action = sample.groundTruth.gt_action.action;
        if ((action === "click" || action === "long_press") && sample.groundTruth.gt_bbox === null) coordinateRowsWithoutBox += 1;
        const refs: (string | Uint8Array)[] = [];
        for (const p of prompt.imagePaths) refs.push(embed ? await imageBytes(p) : await images.ref(p));
        if (out instanceof VerlParquetOutput) await out.write(verlRow(sample, out.rows, opts.rule, opts, prompt, refs));
        else await out.write(swiftGrpoRow(sample, prompt, refs as string[]));
        const rowImageTokens = prompt.imageSizes.reduce((n, size) => n + imageTokens(size), 0);
        hints = addRow(hints, {
          imageTokens: rowImageTokens,
          promptTokens: promptTokens(prompt.messages, prompt.imageSizes),
          responseTokens: 0,
        });
      },
    },
  );
  const { exportStatus, refused, exitCode, file } = await finishTrainingRows("grpo", { exp, log, out, unreviewed: unreviewedRows, opts });
  const summary: GrpoSummary = {
    command: "grpo",
    target: opts.target,
    rule: opts.rule,
    coords: opts.coords ?? "qwen25-abs",
    maxPixels: opts.maxPixels,
    minPixels: opts.minPixels,
    trajectories: counts.trajectories,
    discardedTrajectories: counts.discarded,
    rows: out.rows,
    harmfulRows,
    cutSteps: counts.cutSteps,
    coordinateRowsWithoutBox,
    unreviewedRows,
    exportStatus,
    refused: refused ?? null,
    // ui-s1 rows declare UI-S1's RAW_SPACE (ui-s1-prompt.ts): the same actions as the "ui-s1" space.
    actionSpace: opts.rule === "ui-s1" ? "ui-s1" : actionSpace,
    embeddedImages: embed,
    imageRoot: opts.imageRoot ?? null,
    images: images.files,
    hints,
    problems: log.problems,
    file,
  };
  await writeSummary(opts.outDir, GRPO_DATASET, summary, log);
  log.progress(
    `${counts.trajectories} trajectories, ${out.rows} rows (${harmfulRows} harmful, ${unreviewedRows} unreviewed), ${log.problems} problems`,
    true,
  );
  if (exitCode === 0) log.info(grpoHint(opts, embed, hints, file));
  return { summary, exitCode };
}

function grpoHint(
  opts: TrainingRowOptions & { target: GrpoTarget; rule: RewardRule },
  embed: boolean,
  hints: TrainerHints,
  file: string,
): string {
  const dataDir = opts.imageRoot ?? opts.outDir;
  const plugin = "<dir>/trajectory_studio_rewards.py (write it with: bridge reward-plugin --out <dir>)";
  if (opts.target === "verl") {
    const images = embed
      ? "screenshots are embedded in the parquet: it opens wherever it is copied"
      : opts.imageRoot
        ? `images are absolute paths under ${opts.imageRoot}/images/`
        : `images are relative to the output folder: start verl with ${dataDir} as its working directory, or re-run with --embed-images (or --image-root)`;
    return [
      `verl: ${images}. Set:`,
      `  ${hydraOverride("data.train_files", path.join(dataDir, path.basename(file)))}`,
      ...trainerSettings("verl", hints, dataDir).map((l) => `  ${l}`),
      `  custom_reward_function.path=${plugin} custom_reward_function.name=compute_score`,
      `  (max_prompt_length fits the longest prompt, ${hints.maxPromptTokens} estimated tokens of which ${hints.maxImageTokens} image tokens; max_pixels ${hints.maxPixels} is in every image entry)`,
    ].join("\n");
  }
  return [
    `ms-swift GRPO: ${opts.imageRoot ? `images are absolute paths under ${opts.imageRoot}/images/` : "images are relative to the output folder"}. Set:`,
    `  MAX_PIXELS=${hints.maxPixels} MIN_PIXELS=${hints.minPixels} ROOT_IMAGE_DIR=${shellQuote(dataDir)}`,
    `  --dataset ${shellQuote(path.join(dataDir, path.basename(file)))} --max_length ${lengthSetting(hints.maxPromptTokens)} (prompts up to ${hints.maxPromptTokens} estimated tokens)`,
    `  --external_plugins ${plugin} --reward_funcs ${SWIFT_REWARD_FUNCS[opts.rule]}`,
  ].join("\n");
}
