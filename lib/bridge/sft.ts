import path from "node:path";
import { openExport } from "./export-reader";
import { exitCodeFor, JsonlOutput, RunLog, writeJson, type BridgeIo } from "./output";
import { assistantTarget, imagePairingProblem, promptMessages, walkSamples, type ChatMessage, type FrameOptions } from "./samples";

export const SFT_TARGETS = ["ms-swift", "llamafactory"] as const;
export type SftTarget = (typeof SFT_TARGETS)[number];

/** Name of the data file (and of the LLaMA-Factory dataset entry). */
export const SFT_DATASET = "mobile_use_sft";

/** One SFT row: ms-swift's standard layout, which LLaMA-Factory reads as sharegpt with these tags. */
export type SftRow = { messages: ChatMessage[]; images: string[] };

export type SftSummary = {
  command: "sft";
  target: SftTarget;
  maxPixels: number;
  minPixels: number;
  trajectories: number;
  discardedTrajectories: number;
  rows: number;
  /** Kept steps that are not training targets (harmful). */
  skippedHarmful: number;
  /** Rows from steps nobody reviewed (the model's own output, as imported): worth knowing before training. */
  unreviewedRows: number;
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
 * the resized frame of `opts.maxPixels`. Images are absolute paths. Streams; memory stays bounded.
 */
export async function exportSft(
  exportDir: string,
  opts: FrameOptions & { target: SftTarget; outDir: string; allowProblems: boolean },
  io: BridgeIo,
): Promise<{ summary: SftSummary; exitCode: number }> {
  const exp = await openExport(exportDir);
  const log = new RunLog(io, `bridge sft (${opts.target})`);
  const out = await JsonlOutput.create(path.join(opts.outDir, `${SFT_DATASET}.jsonl`));
  let skippedHarmful = 0;
  let unreviewedRows = 0;
  const counts = await walkSamples(exp, opts, {
    onProblem: (p) => log.problem(p),
    onProgress: (c) => log.progress(`${c.trajectories} trajectories, ${out.rows} rows, ${log.problems} problems`),
    onSample: async (sample) => {
      if (!sample.isTarget) {
        skippedHarmful += 1;
        return;
      }
      const target = assistantTarget(sample);
      if (!target.ok) return log.problem({ ...sample.where, message: target.message });
      const row: SftRow = {
        messages: [...promptMessages(sample), { role: "assistant", content: target.text }],
        images: [sample.imagePath],
      };
      const pairing = imagePairingProblem(row.messages, row.images);
      if (pairing) return log.problem({ ...sample.where, message: pairing });
      await out.write(row);
      if (sample.step.verdict === "unreviewed") unreviewedRows += 1;
    },
  });
  const exitCode = exitCodeFor(log.problems, opts.allowProblems);
  const file = await out.close(exitCode === 0);
  const summary: SftSummary = {
    command: "sft",
    target: opts.target,
    maxPixels: opts.maxPixels,
    minPixels: opts.minPixels,
    trajectories: counts.trajectories,
    discardedTrajectories: counts.discarded,
    rows: out.rows,
    skippedHarmful,
    unreviewedRows,
    problems: log.problems,
    file,
  };
  if (opts.target === "llamafactory" && exitCode === 0) {
    await writeJson(path.join(opts.outDir, "dataset_info.json"), llamaFactoryDatasetInfo(path.basename(file)));
  }
  await writeJson(path.join(opts.outDir, `${SFT_DATASET}.summary.json`), { ...summary, firstProblems: log.sample });
  log.progress(`${counts.trajectories} trajectories, ${out.rows} rows, ${log.problems} problems`, true);
  log.info(trainerHint(opts));
  return { summary, exitCode };
}

function trainerHint(opts: FrameOptions & { target: SftTarget; outDir: string }): string {
  if (opts.target === "ms-swift") {
    return `ms-swift: set MAX_PIXELS=${opts.maxPixels} MIN_PIXELS=${opts.minPixels} so the model sees the frame the coordinates are in; --dataset ${path.join(opts.outDir, `${SFT_DATASET}.jsonl`)}`;
  }
  return [
    `LLaMA-Factory: dataset_dir: ${opts.outDir}  dataset: ${SFT_DATASET}`,
    `  set image_max_pixels: ${opts.maxPixels} and image_min_pixels: ${opts.minPixels} (its default 768*768 would shrink the screenshots and move every coordinate);`,
    `  LLaMA-Factory shrinks an image larger than image_max_pixels before Qwen's own resize, so export at a max_pixels at least as large as your screenshots when training with it.`,
  ].join("\n");
}
