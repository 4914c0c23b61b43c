// `bridge dpo`: one preference pair per step a person changed. The prompt is the SFT row's, built by the
// same builder (sft.ts sftPromptAndAnswer); `chosen` is the SFT answer (the person's response), `rejected`
// the same builder's answer for the model's original output (`step.original`, as imported), both in the
// row's frame and layout.
//
// Row layouts, from each trainer's own documentation:
// - ms-swift: the standard dataset with `rejected_response` beside `messages` (whose last assistant turn is
//   the chosen one) and `images` ("Customization/Custom-dataset", RLHF section:
//   https://swift.readthedocs.io/en/latest/Customization/Custom-dataset.html; RowPreprocessor
//   _check_rejected_response in swift/llm/dataset/preprocessor/core.py refuses a rejected_response that is
//   missing or equal to the chosen answer).
// - LLaMA-Factory: sharegpt with `conversations`, `chosen` and `rejected` messages and `"ranking": true` in
//   dataset_info.json (data/README.md, "Preference Dataset"; SharegptDatasetConverter in
//   src/llamafactory/data/converter.py).
import path from "node:path";
import { mapPoints, isPointless } from "@/lib/domain/tool-call";
import { toConventionPoint } from "@/lib/domain/geometry";
import { changedFields, processLabel, type ProcessLabel, type ResponseField } from "@/lib/domain/process-label";
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
import { ImageFolder } from "./images";
import { finishTrainingRows, JsonlOutput, RunLog, writeJson, writeSummary, type BridgeIo, type TrainingRowOptions } from "./output";
import {
  exportActionSpace,
  imagePairingProblem,
  walkSamples,
  type ChatMessage,
  type FrameOptions,
  type RowLineage,
  type StepSample,
} from "./samples";
import { sftPromptAndAnswer, type SftTarget } from "./sft";
import type { SftPrompt } from "./source-prompt";

export const DPO_TARGETS = ["ms-swift", "llamafactory"] as const satisfies readonly SftTarget[];
export type DpoTarget = (typeof DPO_TARGETS)[number];
export const DPO_DATASET = "mobile_use_dpo";

/**
 * ms-swift DPO row: `messages` ends with the chosen answer; `rejected_response` is the model's. `lineage`: where the
 * pair came from, in rows of a release export (a column neither trainer maps, as in SFT rows).
 */
export type SwiftDpoRow = { messages: ChatMessage[]; images: string[]; rejected_response: string; lineage?: RowLineage };

type ShareGptMessage = { from: "system" | "human" | "gpt"; value: string };
/** LLaMA-Factory pairwise sharegpt row: the prompt turns, then one chosen and one rejected assistant message. */
export type LlamaFactoryDpoRow = {
  conversations: ShareGptMessage[];
  chosen: ShareGptMessage;
  rejected: ShareGptMessage;
  images: string[];
  lineage?: RowLineage;
};

/** One line of `mobile_use_dpo.steps.jsonl`, in the row file's order: which step each pair came from. */
export type DpoPairIndex = {
  trajectory_id: string;
  /** 0-based step index, as rows and predictions use it. */
  step: number;
  changed: ResponseField[];
  verdict: string;
  process_label: ProcessLabel | null;
};

export type DpoSummary = {
  command: "dpo";
  target: DpoTarget;
  prompt: SftPrompt;
  coords: string;
  maxPixels: number;
  minPixels: number;
  minChange: boolean;
  trajectories: number;
  discardedTrajectories: number;
  keptSteps: number;
  pairs: number;
  /** Pairs from harmful steps (a person wrote what the model should have done instead). */
  harmfulPairs: number;
  /** Kept steps whose response nobody changed: no pair (the model was right, or nobody wrote the alternative). */
  unchangedSteps: number;
  /** Harmful steps nobody wrote an alternative for: nothing to choose, no pair. */
  harmfulWithoutAlternative: number;
  /** Changed steps whose two responses read the same once written (e.g. whitespace a layout trims). */
  identicalResponses: number;
  /** Pairs --min-change left out: they differ only in whitespace or punctuation. */
  skippedMinChange: number;
  /** Changed steps whose original call is a tap without a point: the model's response has no point to write in the frame. */
  rejectedWithoutPoint: number;
  /** Pairs per changed field (a pair may count under several). */
  changedFields: Record<ResponseField, number>;
  unreviewedRows: number;
  exportStatus: string | null;
  refused: string | null;
  actionSpace: ActionSpace;
  imageRoot: string | null;
  images: number;
  hints: TrainerHints;
  problems: number;
  file: string;
};

/** The LLaMA-Factory dataset_info.json entry for the pairwise file (data/README.md, "Preference Dataset", sharegpt). */
export function llamaFactoryDpoDatasetInfo(fileName: string) {
  return {
    [DPO_DATASET]: {
      file_name: fileName,
      formatting: "sharegpt",
      ranking: true,
      columns: { messages: "conversations", chosen: "chosen", rejected: "rejected", images: "images" },
      tags: { role_tag: "from", content_tag: "value", user_tag: "human", assistant_tag: "gpt", system_tag: "system" },
    },
  };
}

/**
 * The sample as the model left it: thought, clear action and tool call from `step.original` (a thought or
 * clear action the source never had: the person's), the call in the sample's frame (its convention: resized pixels or 0..1000). Undefined when the original call is a tap
 * without a point, which no frame can hold.
 */
export function modelSample(sample: StepSample): StepSample | undefined {
  const o = sample.step.original;
  if (isPointless(o.toolCall)) return undefined;
  const modelCall = mapPoints(o.toolCall, (p) => toConventionPoint(p, sample.coords, sample.frames));
  return {
    ...sample,
    step: {
      ...sample.step,
      // A field the source never had is the person's on both sides, so the pair differs only where the model wrote something.
      thought: { ...sample.step.thought, text: o.thought ?? sample.step.thought.text },
      clearAction: o.clearAction ?? sample.step.clearAction,
      toolCall: o.toolCall,
      // The model's own box, so an untouched import reads as unchanged (source layout: its response byte for byte).
      box: o.box ?? null,
    },
    modelCall,
  };
}

/** Does `a` differ from `b` only in whitespace or punctuation (Unicode classes, so CJK punctuation counts)? */
export function differsOnlyInWhitespaceOrPunctuation(a: string, b: string): boolean {
  const bare = (s: string) => s.replace(/[\s\p{P}]/gu, "");
  return bare(a) === bare(b);
}

function toShareGpt(m: ChatMessage): ShareGptMessage {
  return { from: m.role === "assistant" ? "gpt" : m.role === "user" ? "human" : "system", value: m.content };
}

/**
 * Write one preference pair per kept step (inside the cut, trajectory kept) whose response a person changed
 * (thought text, clear action or tool call against `step.original`): the SFT row's prompt, chosen = the SFT
 * answer, rejected = the model's original response through the same builder, coordinates in the frame of
 * `opts.maxPixels` (or `opts.coords`). Steps nobody changed give none. `minChange` leaves out pairs that
 * differ only in whitespace or punctuation.
 */
export async function exportDpo(
  exportDir: string,
  opts: FrameOptions & TrainingRowOptions & { target: DpoTarget; prompt?: SftPrompt; minChange?: boolean },
  io: BridgeIo,
): Promise<{ summary: DpoSummary; exitCode: number }> {
  const promptKind = opts.prompt ?? "cookbook";
  const exp = await openExport(exportDir);
  const log = new RunLog(io, `bridge dpo (${opts.target})`);
  const actionSpace = await exportActionSpace(exp);
  const out = await JsonlOutput.create(path.join(opts.outDir, `${DPO_DATASET}.jsonl`));
  const index = await JsonlOutput.create(path.join(opts.outDir, `${DPO_DATASET}.steps.jsonl`));
  const images = new ImageFolder({ outDir: opts.outDir, imageRoot: opts.imageRoot });
  const c = {
    harmfulPairs: 0,
    unchangedSteps: 0,
    harmfulWithoutAlternative: 0,
    identicalResponses: 0,
    skippedMinChange: 0,
    rejectedWithoutPoint: 0,
    unreviewedRows: 0,
  };
  const fieldCounts: Record<ResponseField, number> = { thought: 0, clearAction: 0, toolCall: 0 };
  let hints = emptyHints(opts.maxPixels, opts.minPixels);
  const counts = await walkSamples(
    exp,
    { ...opts, actionSpace, resizer: opts.target === "llamafactory" ? "llamafactory" : "qwen" },
    {
      onProblem: (p) => log.problem(p),
      onProgress: (n) => log.reading(n.trajectories, exp, `${out.rows} pairs, ${log.problems} problems`),
      onSample: async (sample) => {
        const changed = changedFields(sample.step);
        if (changed.length === 0) {
          if (sample.step.verdict === "harmful") c.harmfulWithoutAlternative += 1;
          else c.unchangedSteps += 1;
          return;
        }
        const model = modelSample(sample);
        if (!model) {
          c.rejectedWithoutPoint += 1;
          return;
        }
        const chosen = sftPromptAndAnswer(sample, promptKind);
        if (!chosen.ok) return log.problem({ ...sample.where, message: chosen.message });
        const rejected = sftPromptAndAnswer(model, promptKind);
        if (!rejected.ok) return log.problem({ ...sample.where, message: `the model's original response: ${rejected.message}` });
        if (chosen.answer === rejected.answer) {
          c.identicalResponses += 1;
          return;
        }
        if (opts.minChange && differsOnlyInWhitespaceOrPunctuation(chosen.answer, rejected.answer)) {
          c.skippedMinChange += 1;
          return;
        }
        const prompt = chosen.prompt;
        const pairing = imagePairingProblem(prompt, [sample.imagePath]);
        if (pairing) return log.problem({ ...sample.where, message: pairing });
        const imageRefs = [await images.ref(sample.imagePath)];
        const lineage = sample.lineage ? { lineage: sample.lineage } : {};
        await out.write(
          opts.target === "ms-swift"
            ? ({
                messages: [...prompt, { role: "assistant", content: chosen.answer }],
                images: imageRefs,
                rejected_response: rejected.answer,
                ...lineage,
              } satisfies SwiftDpoRow)
            : ({
                conversations: prompt.map(toShareGpt),
                chosen: { from: "gpt", value: chosen.answer },
                rejected: { from: "gpt", value: rejected.answer },
                images: imageRefs,
                ...lineage,
              } satisfies LlamaFactoryDpoRow),
        );
        await index.write({
          trajectory_id: sample.where.trajectory,
          step: sample.step.index,
          changed,
          verdict: sample.step.verdict,
          process_label: processLabel(sample.step),
        } satisfies DpoPairIndex);
        for (const f of changed) fieldCounts[f] += 1;
        if (sample.step.verdict === "harmful") c.harmfulPairs += 1;
        if (sample.isUnreviewed) c.unreviewedRows += 1;
        const longer = Math.max(estimateTextTokens(chosen.answer), estimateTextTokens(rejected.answer));
        hints = addRow(hints, {
          imageTokens: imageTokens(sample.frames.resized),
          promptTokens: promptTokens(prompt, [sample.frames.resized]),
          responseTokens: longer + TEMPLATE_TOKENS.perMessage,
        });
      },
    },
  );
  const { exportStatus, refused, exitCode, file } = await finishTrainingRows("dpo", {
    exp,
    log,
    out,
    unreviewed: c.unreviewedRows,
    opts,
    noun: "pairs",
  });
  await index.close(exitCode === 0);
  const summary: DpoSummary = {
    command: "dpo",
    target: opts.target,
    prompt: promptKind,
    coords: opts.coords ?? "qwen25-abs",
    maxPixels: opts.maxPixels,
    minPixels: opts.minPixels,
    minChange: opts.minChange ?? false,
    trajectories: counts.trajectories,
    discardedTrajectories: counts.discarded,
    keptSteps: counts.keptSteps,
    pairs: out.rows,
    ...c,
    changedFields: fieldCounts,
    exportStatus,
    refused: refused ?? null,
    actionSpace,
    imageRoot: opts.imageRoot ?? null,
    images: images.files,
    hints,
    problems: log.problems,
    file,
  };
  if (opts.target === "llamafactory" && exitCode === 0) {
    await writeJson(path.join(opts.outDir, "dataset_info.json"), llamaFactoryDpoDatasetInfo(path.basename(file)));
  }
  await writeSummary(opts.outDir, DPO_DATASET, summary, log);
  log.progress(
    `${counts.trajectories} trajectories, ${out.rows} pairs (${c.unchangedSteps} unchanged steps), ${log.problems} problems`,
    true,
  );
  if (exitCode === 0) log.info(dpoHint(opts, hints));
  return { summary, exitCode };
}

function dpoHint(opts: FrameOptions & TrainingRowOptions & { target: DpoTarget }, hints: TrainerHints): string {
  const dataDir = opts.imageRoot ?? opts.outDir;
  const settings = trainerSettings(opts.target, hints, dataDir).map((l) => `  ${l}`);
  return opts.target === "ms-swift"
    ? [`ms-swift: swift rlhf --rlhf_type dpo --dataset ${shellQuote(path.join(dataDir, `${DPO_DATASET}.jsonl`))}`, ...settings].join("\n")
    : [`LLaMA-Factory: stage: dpo, dataset: ${DPO_DATASET} (dataset_info.json has ranking: true)`, ...settings].join("\n");
}
