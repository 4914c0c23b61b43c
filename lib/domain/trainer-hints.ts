import { z } from "zod";
import { framePair, toResizedPoint, type Size } from "./geometry";
import { mobileR1ResponseText, mobileUseSystemPrompt, mobileUseUserText, type ActionSpace } from "./prompt";
import { formatMobileUseCall, mapPoints } from "./tool-call";
import { isTrainingTarget, type CanonicalTrajectory } from "./trajectory";

/**
 * What a trainer must be told so that it reads exported rows the way they were written: the pixel
 * limits the coordinates were converted at, and sequence lengths that fit the longest row. Shared by
 * the trainer bridge (which measures its rows), the exporter (which writes them into manifest.json)
 * and the export page (which prints the commands).
 */

/** Qwen2.5-VL: one visual token per 28x28 pixels of the resized image (14 px patches merged 2x2). */
export const PIXELS_PER_IMAGE_TOKEN = 28 * 28;

/** The max_pixels the export page proposes (1280 visual tokens: ms-swift's common MAX_PIXELS=1003520). */
export const SUGGESTED_MAX_PIXELS = 1280 * PIXELS_PER_IMAGE_TOKEN;

export function imageTokens(resized: Size): number {
  return Math.ceil((resized.width * resized.height) / PIXELS_PER_IMAGE_TOKEN);
}

/** UTF-16 code units of `text` in the CJK ranges U+3000-303F, U+3400-9FFF, U+F900-FAFF and U+FF00-FFEF. */
function cjkCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x3000) continue;
    if (c <= 0x303f || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef)) n += 1;
  }
  return n;
}

/** Tokens of a text of `length` code units, `cjk` of them CJK (see estimateTextTokens). */
const textTokens = (length: number, cjk: number) => Math.ceil(cjk + (length - cjk) / 3);

/**
 * Text tokens for the Qwen tokenizer without loading it, rounded UP: one token per CJK character,
 * one per 3 other characters (Qwen's BPE averages nearer 4 on English and JSON). An upper estimate,
 * so lengths derived from it do not cut rows short.
 */
export function estimateTextTokens(text: string): number {
  return textTokens(text.length, cjkCount(text));
}

/**
 * Special tokens the Qwen2-VL chat template adds: `<|im_start|>role\n … <|im_end|>\n` per message,
 * `<|vision_start|>…<|vision_end|>` per image, and `<|im_start|>assistant\n` as the generation prompt.
 */
export const TEMPLATE_TOKENS = { perMessage: 5, perImage: 2, generationPrompt: 3 } as const;

/** Estimated tokens of a prompt (system + user with its images) as the trainer's processor expands it. */
export function promptTokens(messages: readonly { content: string }[], images: readonly Size[], imageTag = "<image>"): number {
  const text = messages.reduce((n, m) => n + estimateTextTokens(m.content.split(imageTag).join("")) + TEMPLATE_TOKENS.perMessage, 0);
  const vision = images.reduce((n, s) => n + imageTokens(s) + TEMPLATE_TOKENS.perImage, 0);
  return text + vision + TEMPLATE_TOKENS.generationPrompt;
}

/** Measured over the rows of one export at one max_pixels; all token counts are maxima over the rows. */
export const trainerHintsSchema = z.object({
  maxPixels: z.number().int().positive(),
  minPixels: z.number().int().positive(),
  /** Rows measured (SFT targets for sft, kept steps for grpo). */
  rows: z.number().int().nonnegative(),
  maxImageTokens: z.number().int().nonnegative(),
  /** Longest prompt: image tokens plus estimated text and template tokens. */
  maxPromptTokens: z.number().int().nonnegative(),
  /** Longest whole SFT sample (prompt plus target). */
  maxSequenceTokens: z.number().int().nonnegative(),
  /** Longest target (assistant answer). */
  maxResponseTokens: z.number().int().nonnegative(),
});
export type TrainerHints = z.infer<typeof trainerHintsSchema>;

export function emptyHints(maxPixels: number, minPixels: number): TrainerHints {
  return { maxPixels, minPixels, rows: 0, maxImageTokens: 0, maxPromptTokens: 0, maxSequenceTokens: 0, maxResponseTokens: 0 };
}

/** Fold one row into running maxima. */
export function addRow(h: TrainerHints, row: { imageTokens: number; promptTokens: number; responseTokens: number }): TrainerHints {
  return {
    ...h,
    rows: h.rows + 1,
    maxImageTokens: Math.max(h.maxImageTokens, row.imageTokens),
    maxPromptTokens: Math.max(h.maxPromptTokens, row.promptTokens),
    maxResponseTokens: Math.max(h.maxResponseTokens, row.responseTokens),
    maxSequenceTokens: Math.max(h.maxSequenceTokens, row.promptTokens + row.responseTokens),
  };
}

/** A length setting that holds `tokens` with room for the estimate's error: +10 %, up to a multiple of 256. */
export function lengthSetting(tokens: number): number {
  return Math.max(256, Math.ceil((tokens * 1.1) / 256) * 256);
}

/** Quote a path for a POSIX shell when it needs it (spaces, CJK, quotes). */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}

/**
 * A Hydra command-line override (verl, UI-S1's verl fork): `key=value`, the value double-quoted for
 * Hydra when it holds anything but plain path characters (Hydra's unquoted values cannot carry every
 * character a folder name may have), then the whole argument quoted for the shell.
 */
export function hydraOverride(key: string, value: string): string {
  const v = /^[\w./-]+$/.test(value) ? value : `"${value.replaceAll('"', '\\"')}"`;
  return shellQuote(`${key}=${v}`);
}

/** A YAML scalar for a path: plain when only path characters, otherwise a double-quoted (JSON) string. */
function yamlPath(s: string): string {
  return /^[\w./][\w./-]*$/.test(s) ? s : JSON.stringify(s);
}

export type TrainerName = "ms-swift" | "llamafactory" | "verl" | "ui-s1";

/**
 * The settings each trainer needs, as the lines to put in its command or config. `dataDir` is where
 * the bridge output folder (data file plus images/) will be on the training machine.
 */
export function trainerSettings(trainer: TrainerName, h: TrainerHints, dataDir: string): string[] {
  const q = shellQuote(dataDir);
  switch (trainer) {
    case "ms-swift":
      return [
        `MAX_PIXELS=${h.maxPixels} MIN_PIXELS=${h.minPixels} ROOT_IMAGE_DIR=${q}`,
        `--max_length ${lengthSetting(h.maxSequenceTokens)}`,
      ];
    case "llamafactory":
      return [
        `dataset_dir: ${yamlPath(dataDir)}`,
        `media_dir: ${yamlPath(dataDir)}`,
        `image_max_pixels: ${h.maxPixels}`,
        `image_min_pixels: ${h.minPixels}`,
        `cutoff_len: ${lengthSetting(h.maxSequenceTokens)}`,
      ];
    case "verl":
      return [`data.max_prompt_length=${lengthSetting(h.maxPromptTokens)}`, `data.image_key=images`, `data.filter_overlong_prompts=True`];
    case "ui-s1":
      // Only meaningful for hints measured at UI-S1's own limits (bridge traj measures them so).
      return [`data.max_prompt_length=${lengthSetting(h.maxPromptTokens)}`, `(run from ${q}, or export with --image-root)`];
  }
}

/** One trainer's line on the export page: the bridge command to run and the trainer settings it needs. */
export type TrainerCommand = {
  trainer: TrainerName;
  bridge: string;
  settings: string[];
  /** The folder the trainer must run from (its rows name images relative to it): the page says so in the person's language. */
  runFrom?: string;
};

/**
 * The bridge command per trainer for an export folder, at `hints.maxPixels` (SUGGESTED_MAX_PIXELS
 * when the export measured nothing), with the settings the rows need. Output folders sit next to the
 * export; the settings name them as they are here (the bridge prints them again, and --image-root
 * renames them for another machine). Without hints the lengths are left for the bridge to print.
 */
export function trainerCommands(outDir: string, hints: TrainerHints | null | undefined): TrainerCommand[] {
  const maxPixels = hints?.maxPixels ?? SUGGESTED_MAX_PIXELS;
  const run = (args: string, out: string) =>
    `npm run studio -- bridge ${args.replace("<export>", shellQuote(outDir))} --out ${shellQuote(out)} --max-pixels ${maxPixels}`;
  const dirs = {
    swift: `${outDir}-sft-ms-swift`,
    lf: `${outDir}-sft-llamafactory`,
    verl: `${outDir}-grpo-verl`,
    uis1: `${outDir}-traj-ui-s1`,
  };
  const settings = (t: TrainerName, dir: string) => (hints ? trainerSettings(t, hints, dir) : []);
  return [
    { trainer: "ms-swift", bridge: run("sft <export> --target ms-swift", dirs.swift), settings: settings("ms-swift", dirs.swift) },
    { trainer: "llamafactory", bridge: run("sft <export> --target llamafactory", dirs.lf), settings: settings("llamafactory", dirs.lf) },
    { trainer: "verl", bridge: run("grpo <export> --target verl --embed-images", dirs.verl), settings: settings("verl", dirs.verl) },
    // UI-S1 resizes by its own limits, so its command takes no --max-pixels.
    {
      trainer: "ui-s1",
      bridge: `npm run studio -- bridge traj ${shellQuote(outDir)} --out ${shellQuote(dirs.uis1)} --target ui-s1`,
      settings: [],
      ...(hints ? { runFrom: shellQuote(dirs.uis1) } : {}),
    },
  ];
}

/**
 * Fold one trajectory's SFT samples (training targets inside the cut) into `h`, measured as the
 * bridge measures its rows at `h.maxPixels`: system prompt at the resized size declaring `space`, user
 * turn with the history in resized pixels, the screenshot, and the target. The bridge declares one
 * space per export (UI-S1's when any kept step answers, see usesAnswer), so a caller streaming an
 * export measures both (measureTrajectorySpaces) and keeps the one that applies. Steps whose
 * screenshot size cannot be resized are left to the bridge to report.
 */
export function measureTrajectory(h: TrainerHints, t: CanonicalTrajectory, space: ActionSpace): TrainerHints {
  return measureEach([h], t, [space])[0]!;
}

/**
 * measureTrajectory for several spaces at once (hs[i] measured declaring spaces[i], all at hs[0]'s
 * pixel limits): the samples are the same, only the system prompt differs, so each sample is built once.
 */
export function measureTrajectorySpaces<const H extends readonly TrainerHints[]>(
  hs: H,
  t: CanonicalTrajectory,
  spaces: { readonly [K in keyof H]: ActionSpace },
): { -readonly [K in keyof H]: TrainerHints } {
  const out = measureEach(hs, t, spaces);
  return out as { -readonly [K in keyof H]: TrainerHints };
}

function measureEach(hs: readonly TrainerHints[], t: CanonicalTrajectory, spaces: readonly ActionSpace[]): TrainerHints[] {
  const out = [...hs];
  const { maxPixels, minPixels } = out[0] ?? emptyHints(1, 1);
  if (out.some((h) => h.maxPixels !== maxPixels || h.minPixels !== minPixels))
    throw new Error("measureTrajectorySpaces: hints at different pixel limits");
  if (t.isDiscarded) return out;
  const kept = t.cutAfter === null ? t.steps : t.steps.slice(0, t.cutAfter + 1);
  // The user turn (mobileUseUserText) grows by one "Step i: {call}; " per kept step; its token estimate is
  // kept as running counts (characters, CJK characters) of the text with image tags taken out, as
  // promptTokens takes them out. No tag can span two parts: each part is bounded by "{", "}", " " or "\n".
  const query = withoutImageTags(mobileUseUserText(t.instruction, []));
  let userLength = query.length;
  let userCjk = cjkCount(query);
  let index = 0;
  for (const step of kept) {
    let frames;
    try {
      frames = framePair(step.screenshot, maxPixels, minPixels);
    } catch {
      return out;
    }
    const callText = formatMobileUseCall(mapPoints(step.toolCall, (p) => toResizedPoint(p, frames)));
    if (isTrainingTarget(t, step)) {
      const images = imageTokens(frames.resized);
      const user = textTokens(userLength, userCjk) + TEMPLATE_TOKENS.perMessage;
      const vision = images + TEMPLATE_TOKENS.perImage + TEMPLATE_TOKENS.generationPrompt;
      const target = mobileR1ResponseText(step.thought.text.trim(), step.clearAction.trim(), callText);
      const responseTokens = estimateTextTokens(target) + TEMPLATE_TOKENS.perMessage;
      for (let i = 0; i < out.length; i++) {
        const system = systemPromptTokens(frames.resized, spaces[i]!) + TEMPLATE_TOKENS.perMessage;
        out[i] = addRow(out[i]!, { imageTokens: images, promptTokens: system + user + vision, responseTokens });
      }
    }
    index += 1;
    const part = withoutImageTags(callText);
    userLength += `Step ${index}: `.length + part.length + "; ".length;
    userCjk += cjkCount(part);
  }
  return out;
}

const IMAGE_TAG = "<image>";
const withoutImageTags = (text: string) => (text.includes(IMAGE_TAG) ? text.split(IMAGE_TAG).join("") : text);

/** Estimated tokens of the system prompt for a size and space (as promptTokens counts it), once per size. */
const SYSTEM_PROMPT_TOKENS = new Map<string, number>();
function systemPromptTokens(resized: Size, space: ActionSpace): number {
  const key = `${resized.width}x${resized.height}:${space}`;
  let n = SYSTEM_PROMPT_TOKENS.get(key);
  if (n === undefined) {
    if (SYSTEM_PROMPT_TOKENS.size >= 256) SYSTEM_PROMPT_TOKENS.clear();
    SYSTEM_PROMPT_TOKENS.set(key, (n = estimateTextTokens(withoutImageTags(mobileUseSystemPrompt(resized, space)))));
  }
  return n;
}

/** Does a kept step of the trajectory use UI-S1's `answer` (so the bridge's prompts declare it)? */
export function usesAnswer(t: CanonicalTrajectory): boolean {
  if (t.isDiscarded) return false;
  const kept = t.cutAfter === null ? t.steps : t.steps.slice(0, t.cutAfter + 1);
  return kept.some((s) => s.toolCall.action === "answer");
}
