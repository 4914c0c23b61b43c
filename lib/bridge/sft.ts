import path from "node:path";
import type { CoordinateConvention } from "@/lib/domain/geometry";
import type { ActionSpace } from "@/lib/domain/prompt";
import {
  addRow,
  emptyHints,
  estimateTextTokens,
  imageTokens,
  promptTokens,
  shellQuote,
  TEMPLATE_TOKENS,
  trainerSettings,
  type TrainerHints,
} from "@/lib/domain/trainer-hints";
import { openExport } from "./export-reader";
import { sourcePromptRow, type SftPrompt } from "./source-prompt";
import { ImageFolder } from "./images";
import { finishTrainingRows, JsonlOutput, RunLog, writeJson, writeSummary, type BridgeIo, type TrainingRowOptions } from "./output";
import {
  assistantTarget,
  exportActionSpace,
  imagePairingProblem,
  promptMessages,
  walkSamples,
  type ChatMessage,
  type FrameOptions,
  type RowLineage,
  type StepSample,
} from "./samples";

export const SFT_TARGETS = ["ms-swift", "llamafactory"] as const;
export type SftTarget = (typeof SFT_TARGETS)[number];

/** Name of the data file (and of the LLaMA-Factory dataset entry). */
export const SFT_DATASET = "mobile_use_sft";

/** One SFT row: ms-swift's standard layout, which LLaMA-Factory reads as sharegpt with these tags. */
/** `lineage`: where the row came from, in rows of a release export (ms-swift and LLaMA-Factory read only their own columns). */
export type SftRow = { messages: ChatMessage[]; images: string[]; lineage?: RowLineage };

export type SftSummary = {
  command: "sft";
  target: SftTarget;
  /** The coordinate convention of targets and history (the prompt announces its frame). */
  coords: CoordinateConvention;
  maxPixels: number;
  minPixels: number;
  trajectories: number;
  discardedTrajectories: number;
  rows: number;
  /** Kept steps that are not training targets (harmful). */
  skippedHarmful: number;
  /** Rows from model output nobody reviewed (see isUnreviewed); any makes the run refuse without --allow-unreviewed. */
  unreviewedRows: number;
  /** The export's status filter, from its manifest (null for hand-made folders). */
  exportStatus: string | null;
  /** Set when unreviewed rows stopped the run. */
  refused: string | null;
  /** Actions the system prompt declares ("ui-s1" adds answer). */
  actionSpace: ActionSpace;
  /** "cookbook": the Qwen cookbook's prompt and layout; "source": each trajectory's own system prompt and response layout. */
  prompt: SftPrompt;
  /** How rows name images: relative to the output folder, or absolute under --image-root. */
  imageRoot: string | null;
  images: number;
  /** Longest rows, for the trainer's length settings. */
  hints: TrainerHints;
  problems: number;
  file: string;
};

/** The LLaMA-Factory dataset_info.json entry for the SFT file (FORMATS.md §4.2). */
export function llamaFactoryDatasetInfo(fileName: string) {
  return {
    [SFT_DATASET]: {
      file_name: fileName,
      formatting: "sharegpt",
      columns: { messages: "messages", images: "images" },
      tags: { role_tag: "role", content_tag: "content", user_tag: "user", assistant_tag: "assistant", system_tag: "system" },
    },
  };
}

/**
 * Write one SFT row per training-target step (not harmful, inside the cut, trajectory kept):
 * system prompt at the resized resolution, user turn with history and the screenshot, and the
 * Mobile-R1 target `<think>…</think><action>…</action><tool_call>…</tool_call>` with coordinates in
 * the resized frame of `opts.maxPixels`. Images go to `<out>/images/` and rows name them relative to
 * the output folder (or under `opts.imageRoot`). Streams; memory stays bounded.
 */
export async function exportSft(
  exportDir: string,
  opts: FrameOptions & TrainingRowOptions & { target: SftTarget; prompt?: SftPrompt },
  io: BridgeIo,
): Promise<{ summary: SftSummary; exitCode: number }> {
  const promptKind = opts.prompt ?? "cookbook";
  const exp = await openExport(exportDir);
  const log = new RunLog(io, `bridge sft (${opts.target})`);
  const actionSpace = await exportActionSpace(exp);
  const out = await JsonlOutput.create(path.join(opts.outDir, `${SFT_DATASET}.jsonl`));
  const images = new ImageFolder({ outDir: opts.outDir, imageRoot: opts.imageRoot });
  let skippedHarmful = 0;
  let unreviewedRows = 0;
  let hints = emptyHints(opts.maxPixels, opts.minPixels);
  // LLaMA-Factory shrinks the screenshot itself before Qwen's resize: rows are written in the frame it produces.
  const counts = await walkSamples(
    exp,
    { ...opts, actionSpace, resizer: opts.target === "llamafactory" ? "llamafactory" : "qwen" },
    {
      onProblem: (p) => log.problem(p),
      onProgress: (c) => log.reading(c.trajectories, exp, `${out.rows} rows, ${log.problems} problems`),
      onSample: async (sample) => {
        if (!sample.isTarget) {
          skippedHarmful += 1;
          return;
        }
        const built = sftPromptAndAnswer(sample, promptKind);
        if (!built.ok) return log.problem({ ...sample.where, message: built.message });
        const { prompt, answer } = built;
        const row: SftRow = { messages: [...prompt, { role: "assistant", content: answer }], images: [sample.imagePath] };
        const pairing = imagePairingProblem(row.messages, row.images);
        if (pairing) return log.problem({ ...sample.where, message: pairing });
        row.images = [await images.ref(sample.imagePath)];
        if (sample.lineage) row.lineage = sample.lineage;
        await out.write(row);
        if (sample.isUnreviewed) unreviewedRows += 1;
        hints = addRow(hints, {
          imageTokens: imageTokens(sample.frames.resized),
          promptTokens: promptTokens(prompt, [sample.frames.resized]),
          responseTokens: estimateTextTokens(answer) + TEMPLATE_TOKENS.perMessage,
        });
      },
    },
  );
  const { exportStatus, refused, exitCode, file } = await finishTrainingRows("sft", { exp, log, out, unreviewed: unreviewedRows, opts });
  const summary: SftSummary = {
    command: "sft",
    target: opts.target,
    coords: opts.coords ?? "qwen25-abs",
    maxPixels: opts.maxPixels,
    minPixels: opts.minPixels,
    trajectories: counts.trajectories,
    discardedTrajectories: counts.discarded,
    rows: out.rows,
    skippedHarmful,
    unreviewedRows,
    exportStatus,
    refused: refused ?? null,
    actionSpace,
    prompt: promptKind,
    imageRoot: opts.imageRoot ?? null,
    images: images.files,
    hints,
    problems: log.problems,
    file,
  };
  if (opts.target === "llamafactory" && exitCode === 0) {
    await writeJson(path.join(opts.outDir, "dataset_info.json"), llamaFactoryDatasetInfo(path.basename(file)));
  }
  await writeSummary(opts.outDir, SFT_DATASET, summary, log);
  log.progress(`${counts.trajectories} trajectories, ${out.rows} rows (${unreviewedRows} unreviewed), ${log.problems} problems`, true);
  if (exitCode === 0) log.info(`${promptHint(promptKind)}\n${trainerHint(opts, hints)}`);
  return { summary, exitCode };
}

/**
 * The prompt and answer of one SFT row under `prompt` (coordinates in the sample's convention): the one
 * builder every row that trains on a step's prompt uses (`bridge dpo` builds both sides of a pair with it).
 */
export function sftPromptAndAnswer(
  sample: StepSample,
  prompt: SftPrompt,
): { ok: true; prompt: ChatMessage[]; answer: string } | { ok: false; message: string } {
  return prompt === "source" ? sourcePromptRow(sample) : cookbookRow(sample);
}

/** The cookbook's prompt and Mobile-R1 target (coordinates in the resized frame). */
function cookbookRow(sample: StepSample) {
  const target = assistantTarget(sample);
  return target.ok ? { ok: true as const, prompt: promptMessages(sample), answer: target.text } : target;
}

function promptHint(prompt: SftPrompt): string {
  return prompt === "source"
    ? "prompt: source (each trajectory's own system prompt and response layout; coordinates as in the other rows)"
    : "prompt: cookbook (the Qwen2.5-VL cookbook's mobile_use system prompt at the resized resolution)";
}

function trainerHint(opts: FrameOptions & TrainingRowOptions & { target: SftTarget }, hints: TrainerHints): string {
  const dataDir = opts.imageRoot ?? opts.outDir;
  const where = opts.imageRoot
    ? `images are named under ${opts.imageRoot}/images/`
    : `images are named relative to the output folder (images/<sha256>.png); copy the whole folder`;
  // Relative coordinates do not move with the trainer's resize; the pixel limits then only set the image tokens.
  const relative = opts.coords === "qwen3-rel1000";
  const frameNote = "coordinates are 0..1000 of the screenshot (qwen3-rel1000): the pixel limits set the image size, not the frame";
  if (opts.target === "ms-swift") {
    return [
      `ms-swift: ${where}. Set:`,
      ...trainerSettings("ms-swift", hints, dataDir).map((l) => `  ${l}`),
      `  --dataset ${shellQuote(path.join(dataDir, `${SFT_DATASET}.jsonl`))}`,
      `  (${relative ? frameNote : "MAX_PIXELS/MIN_PIXELS keep the frame the coordinates are in"}; max_length fits the longest row, ${hints.maxSequenceTokens} estimated tokens of which ${hints.maxImageTokens} image tokens)`,
    ].join("\n");
  }
  return [
    `LLaMA-Factory: ${where}. In the training config:`,
    ...trainerSettings("llamafactory", hints, dataDir).map((l) => `  ${l}`),
    `  dataset: ${SFT_DATASET}`,
    ...(relative
      ? [`  (${frameNote})`]
      : [
          `  (the rows are in the frame LLaMA-Factory gives the model with these image_max_pixels/image_min_pixels: it scales the`,
          `   screenshot to them first, then Qwen2-VL's processor resizes at its own 12845056/3136; its default image_max_pixels`,
          `   768*768 would move every coordinate)`,
        ]),
  ].join("\n");
}
