// `npm run studio -- bridge <command> ...`: trainer formats, rewards and evaluation for an export folder.
import { rm } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  COORDINATE_CONVENTION_NAMES,
  DEFAULT_COORDINATE_CONVENTION,
  QWEN_FACTOR,
  QWEN_MAX_PIXELS,
  QWEN_MIN_PIXELS,
  type CoordinateConvention,
} from "@/lib/domain/geometry";
import type { DpoTarget } from "./dpo";
import type { GrpoTarget } from "./grpo";
import type { BridgeIo } from "./output";
import { REWARD_PLUGIN_NAME } from "./reward-plugin";
import { REWARD_RULES, type RewardRule } from "@/lib/domain/rewards";
import type { SftTarget } from "./sft";
import type { ShardFormat } from "./shards";
import type { SftPrompt } from "./source-prompt";
import type { TrajTarget } from "./traj";

// Each command's module (the export reader, the row writers, parquet, scoring) is imported when that command
// runs, so `bridge --help` and a usage error load none of them.

const RULE_LIST = REWARD_RULES.join("|");

export const BRIDGE_HELP = `Trajectory Studio trainer bridge

  bridge sft <export-dir> --out <dir> --target ms-swift|llamafactory [--max-pixels <n>] [--image-root <dir>]
                [--prompt cookbook|source]
      one SFT row per training-target step (not harmful, inside the cut, trajectory kept):
      mobile_use system prompt at the resized resolution, user turn with history, screenshot,
      <think>/<action>/<tool_call> target with coordinates in the resized frame.
      LLaMA-Factory also gets dataset_info.json (set image_max_pixels to the same --max-pixels).
      --prompt cookbook|source: the Qwen cookbook's prompt and layout (default), or each trajectory's
      own system prompt and response layout (as the Mobile-R1 release trains; a trajectory without
      one is a problem for its rows).
  bridge grpo <export-dir> --out <dir> --target ms-swift|verl [--max-pixels <n>] [--rule ${RULE_LIST}]
                [--image-root <dir>] [--embed-images]
      prompt rows plus ground truth (original pixels); harmful steps included as negatives
      (annotation HARMFUL), steps after a cut never. verl: parquet. --rule picks the reward (data_source) and the prompt:
      ui-s1 rows carry UI-S1's own prompt and answer format, the others the mobile_use tool.
  bridge dpo <export-dir> --out <dir> --target ms-swift|llamafactory [--prompt cookbook|source] [--min-change]
      one preference pair per kept step a person changed (thought, clear action or tool call): the SFT row's
      prompt, chosen = the corrected response, rejected = the model's original one, both in the row's frame
      and layout. ms-swift: messages + rejected_response; LLaMA-Factory: sharegpt conversations + chosen +
      rejected, dataset_info.json with "ranking": true. --min-change leaves out pairs that differ only in
      whitespace or punctuation. mobile_use_dpo.steps.jsonl names each pair's trajectory and step.
  bridge critic <export-dir> --out <dir> [--balance <pos>:<neg>] [--seed <n>]
      one critic record per evaluated action (GUI-Critic-R1 layout): the screenshot with the action drawn
      (a translucent circle at a click or long press, an arrow for a swipe), the instruction, history and
      action, and <thinking>…</thinking><score>Correct|Incorrect</score><suggestion>…</suggestion>.
      Positives: the model's right actions and the corrected ones; negatives: the model's wrong actions.
      --balance samples positives to negatives at that ratio with --seed (default 0); the summary counts
      each side per action type and app.
  bridge prm <export-dir> --out <dir>
      one step-labelled row per kept step: history, screenshot, the model's action, process label
      (+1 good, 0 neutral, -1 harmful or wrong) and the trajectory's first_error (1-based, or null)
  bridge traj <export-dir> --out <dir> --target ui-s1 [--image-root <dir>] [--coords qwen3-rel1000]
      UI-S1 trajectory JSONL (original pixels, cut respected; --coords qwen3-rel1000: 0..1000 of each
      screenshot, each line declaring "coords")
  bridge score <export-dir> --predictions <file> --rule ${RULE_LIST} [--max-pixels <n>] [--out <dir>] [--json]
      rewards by every rule, type/step/grounding accuracy, SOP success rate and progress.
      ui-s1 is UI-S1's own reward and, for SOP, its eval_qwenvl.py (UI-S1 layout responses,
      quirks included); studio-lenient is the studio's forgiving reading; mobile-r1 the paper's rule.
      <file> is JSON Lines, one line per step:
        {"trajectory": "<id>" or <0-based line position>, "step": <index>, "response": "<raw model text>"}
      responses in the resized frame of --max-pixels (--coords qwen3-rel1000: 0..1000 of the screenshot).
      --out writes per-step scores.jsonl.
  bridge stats <export-dir> [--max-pixels <n>] [--max-tokens <n>] [--json]
      image tokens (resized pixels / 784), text length, samples over budget, per app and action
  bridge dedupe <export-dir> --out <dir> [--max-distance <bits>]
      near-duplicate trajectories: the same instruction (case, width and white space ignored), the same
      actions, and every screenshot within --max-distance bits (default 8) of 64 by perceptual hash (dHash).
      Candidates by banding the first screenshot's hash (no all-pairs comparison), then verified.
      Writes duplicates.json (groups, each with its keeper) and duplicates.summary.json. Keeper: approved,
      then submitted, then in progress; then most steps a person wrote; then most reviewed steps; then first.
  bridge judge <export-dir> --out <dir>
      judge.jsonl: the model judge's verdict beside the human outcome per trajectory, with agreement and Cohen's kappa
  bridge reward-plugin --out <dir>
      write ${REWARD_PLUGIN_NAME}: the same rewards in standard-library Python, with an ms-swift
      ORM entry point and verl compute_score(data_source, solution_str, ground_truth, extra_info)

Common options:
  --max-pixels <n>    trainer's max_pixels (default ${QWEN_MAX_PIXELS}); coordinates follow smart_resize at it
  --min-pixels <n>    trainer's min_pixels (default ${QWEN_MIN_PIXELS})
  --coords qwen25-abs|qwen3-rel1000   (sft, grpo, traj, score, dpo, prm) the coordinate convention of targets, history,
                      ground truth and predictions: qwen25-abs (default) absolute pixels of the smart-resized
                      image (Qwen2.5-VL, UI-S1); qwen3-rel1000 integers 0..1000 relative to the screenshot,
                      round(x / width * 1000) (Qwen3-VL, GUI-Owl 1.5); the prompt announces a 1000x1000 screen
                      and the rows declare "coords" so the rewards score answers in that frame
  --allow-problems    exit 0 even when some rows could not be made (they are still reported)

Training rows (sft, grpo, traj):
  The output folder carries its screenshots in images/ (hard links where possible) and rows name them
  images/<sha256>.png, relative to the output folder: copy the whole folder, then tell the trainer
  where it is (printed at the end: ms-swift ROOT_IMAGE_DIR, LLaMA-Factory media_dir, verl/UI-S1 the
  working directory).
  --image-root <dir>  the absolute folder where the output folder will be on the training machine;
                      rows then name <dir>/images/<sha256>.png (plain paths, spaces and CJK as they are)
  --embed-images      grpo --target verl: put each screenshot's bytes in the parquet ({"bytes": ...},
                      as verl's own examples do); the file then opens wherever it is copied
  --allow-unreviewed  write rows from model output nobody reviewed (an export made with --status all);
                      without it such rows make the command refuse (exit 1) and count them
  --allow-held-out    (sft, grpo, traj, dpo, critic, prm) write rows from trajectories of evaluation sets
                      marked held out; without it the command refuses (exit 1), naming the sets and counts
  Ground truth that contradicts itself (a click, long press or swipe start outside the step's own box,
  a box off the screenshot, a type with no text) is a problem, never a row; so is a tap the model made
  without a point (the Mobile-R1 release's system_button "Tap"), never written with a made-up point.
Hub-ready files (sft, grpo, dpo, critic, prm, traj):
  --shards parquet|webdataset   also write the rows as shards under data/, screenshots embedded:
                      parquet: data/train-00000-of-000NN.parquet in the Hugging Face datasets layout (images
                      as Image {bytes, path}, features in the "huggingface" schema metadata), shards <= 500 MB,
                      row groups <= 100 MB; webdataset: data/train-00000-of-000NN.tar of ~1 GB, one sample per
                      row (<key>.json, <key>.0.png, ...). Then README.md (dataset card) and croissant.json
                      (Croissant 1.1 with its responsible-AI fields) from the export's records.
  --shard-bytes <n>, --row-group-bytes <n>   the limits in bytes
  --license <spdx>    the data's licence for the card and croissant.json, an SPDX id (CC-BY-4.0, Apache-2.0, ...);
                      required unless the release was cut with one (release cut --license); never guessed
  --drop-duplicates   leave out the near-duplicate trajectories (bridge dedupe), keeping one per group

Exit status: 0 done, 1 problems or refused (each problem on stderr with trajectory and step, numbered
from 1 as in the editor), 2 bad arguments or input.
`;

const OPTIONS = {
  out: { type: "string" },
  target: { type: "string" },
  rule: { type: "string" },
  prompt: { type: "string" },
  predictions: { type: "string" },
  "max-pixels": { type: "string" },
  "min-pixels": { type: "string" },
  "max-tokens": { type: "string" },
  "allow-problems": { type: "boolean", default: false },
  "allow-unreviewed": { type: "boolean", default: false },
  "allow-held-out": { type: "boolean", default: false },
  "image-root": { type: "string" },
  "embed-images": { type: "boolean", default: false },
  coords: { type: "string" },
  "min-change": { type: "boolean", default: false },
  balance: { type: "string" },
  seed: { type: "string" },
  shards: { type: "string" },
  license: { type: "string" },
  "shard-bytes": { type: "string" },
  "row-group-bytes": { type: "string" },
  "drop-duplicates": { type: "boolean", default: false },
  "max-distance": { type: "string" },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

class UsageError extends Error {}

/** The commands that write training rows: each refuses held-out evaluation steps without --allow-held-out. */
const TRAINING_COMMANDS: readonly string[] = ["sft", "grpo", "traj", "dpo", "critic", "prm"];

function positiveInt(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) throw new UsageError(`--${name} is required`);
    return fallback;
  }
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`--${name} must be a positive integer, got "${value}"`);
  return n;
}

function nonNegativeInt(name: string, value: string, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > max) throw new UsageError(`--${name} must be an integer from 0 to ${max}, got "${value}"`);
  return n;
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback?: T): T {
  if (value === undefined) {
    if (fallback === undefined) throw new UsageError(`--${name} is required (${allowed.join("|")})`);
    return fallback;
  }
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be one of ${allowed.join("|")}, got "${value}"`);
  return value as T;
}

/** The row commands `--shards` applies to. */
const SHARDABLE = ["sft", "grpo", "dpo", "critic", "prm", "traj"];
const SHARD_FORMAT_NAMES = ["parquet", "webdataset"] as const satisfies readonly ShardFormat[];

/** `--shards` and its limits, or undefined when not asked for. */
function shardOptions(
  command: string,
  values: { shards?: string; "shard-bytes"?: string; "row-group-bytes"?: string; target?: string; license?: string },
) {
  if (values.shards === undefined) {
    if (values["shard-bytes"] !== undefined || values["row-group-bytes"] !== undefined || values.license !== undefined)
      throw new UsageError("--shard-bytes, --row-group-bytes and --license are for --shards");
    return undefined;
  }
  if (!SHARDABLE.includes(command)) throw new UsageError(`--shards is for ${SHARDABLE.join(", ")}, not ${command}`);
  const format = oneOf<ShardFormat>("shards", values.shards, SHARD_FORMAT_NAMES);
  if (values["row-group-bytes"] !== undefined && format !== "parquet") throw new UsageError("--row-group-bytes is for --shards parquet");
  return {
    format,
    maxShardBytes: values["shard-bytes"] === undefined ? undefined : positiveInt("shard-bytes", values["shard-bytes"]),
    maxRowGroupBytes: values["row-group-bytes"] === undefined ? undefined : positiveInt("row-group-bytes", values["row-group-bytes"]),
    command,
    target: values.target,
    license: values.license,
  };
}

/**
 * The licence a release was cut with (its manifest's filters), for `--shards` without `--license`: the card must
 * name the data's licence, never a guess, so a folder without one is refused naming the flag.
 */
async function releaseLicense(exportDir: string): Promise<string> {
  const { openExport } = await import("./export-reader");
  const own = (await openExport(exportDir)).manifest.filters?.license;
  if (typeof own === "string" && own !== "") return own;
  throw new UsageError(
    "--shards needs the data's licence for the dataset card and croissant.json: pass --license <SPDX id> (e.g. --license CC-BY-4.0), or cut the release with one (release cut --license)",
  );
}

const processIo: BridgeIo = { stdout: process.stdout, stderr: process.stderr };

/**
 * Entry point of `npm run studio -- bridge …`; `argv` is everything after "bridge".
 * Returns the exit status (0 done, 1 problems, 2 bad arguments or unusable input).
 */
export async function runBridge(argv: string[], io: BridgeIo = processIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (e) {
    // A command that failed part-way leaves no half-written rows file behind.
    await (await import("./output")).discardOpenOutputs();
    if (e instanceof UsageError) {
      io.stderr.write(`bridge: ${e.message}\n\n${BRIDGE_HELP}`);
      return 2;
    }
    const { ExportError } = await import("./export-reader");
    if (e instanceof ExportError) {
      io.stderr.write(`bridge: ${e.message}\n`);
      return 2;
    }
    if (e instanceof TypeError && "code" in e && typeof e.code === "string" && e.code.startsWith("ERR_PARSE_ARGS")) {
      io.stderr.write(`bridge: ${e.message}\n\n${BRIDGE_HELP}`);
      return 2;
    }
    throw e;
  }
}

type Values = ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>>["values"];
type Frame = { maxPixels: number; minPixels: number };

/** What a command of the table runs with: its options, the export folder it reads, and how it ends. */
type Run = {
  command: string;
  values: Values;
  io: BridgeIo;
  frame: Frame;
  coords: CoordinateConvention;
  allowProblems: boolean;
  exportDir: string;
  imageRoot: string | undefined;
  maxDistance: number | undefined;
  requireOut: () => string;
  rowOptions: () => { outDir: string; allowProblems: boolean; allowUnreviewed: boolean; imageRoot: string | undefined };
  /** Print a row command's summary, after writing its shards and card when --shards asks (only from a finished run). */
  finish: (summary: { file: string }, exitCode: number) => Promise<number>;
};

async function dispatch(argv: string[], io: BridgeIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    io.stdout.write(BRIDGE_HELP);
    return 0;
  }
  const { values, positionals } = parseArgs({ args: rest, options: OPTIONS, allowPositionals: true, strict: true });
  if (values.help) {
    io.stdout.write(BRIDGE_HELP);
    return 0;
  }
  const { frame, coords } = commonOptions(command, values);
  if (command === "reward-plugin") {
    if (!values.out) throw new UsageError("--out <dir> is required");
    const { writeRewardPlugin } = await import("./reward-plugin");
    const file = await writeRewardPlugin(path.resolve(values.out));
    io.stderr.write(`wrote ${file}\n`);
    io.stdout.write(`${file}\n`);
    return 0;
  }
  const run = await exportRun(command, values, positionals, io, frame, coords);
  const { exportDir } = run;
  const refused = await refuseHeldOut(command, values, exportDir, io);
  if (refused !== undefined) return refused;
  try {
    const runCommand = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (!runCommand) throw new UsageError(`unknown command "${command}"`);
    return await runCommand(run);
  } finally {
    // The filtered copy --drop-duplicates made (its screenshots are a link to the export's: only the copy goes).
    if (exportDir !== positionals[0]) await rm(exportDir, { recursive: true, force: true });
  }
}

/** The frame and coordinate options every command shares, and the options only some commands take. */
function commonOptions(command: string, values: Values): { frame: Frame; coords: CoordinateConvention } {
  const frame = {
    maxPixels: positiveInt("max-pixels", values["max-pixels"], QWEN_MAX_PIXELS),
    minPixels: positiveInt("min-pixels", values["min-pixels"], QWEN_MIN_PIXELS),
  };
  // Below one 28x28 patch qwen-vl-utils' smart_resize floors a side to 0: no trainer can load that frame.
  if (frame.maxPixels < QWEN_FACTOR * QWEN_FACTOR)
    throw new UsageError(
      `--max-pixels must be at least ${QWEN_FACTOR * QWEN_FACTOR} (one ${QWEN_FACTOR}x${QWEN_FACTOR} patch), got ${frame.maxPixels}`,
    );
  if (frame.minPixels > frame.maxPixels) throw new UsageError(`--min-pixels ${frame.minPixels} exceeds --max-pixels ${frame.maxPixels}`);
  const coords = oneOf<CoordinateConvention>("coords", values.coords, COORDINATE_CONVENTION_NAMES, DEFAULT_COORDINATE_CONVENTION);
  if (values.coords !== undefined && !["sft", "grpo", "traj", "score", "dpo", "prm"].includes(command)) {
    throw new UsageError(
      `--coords is for sft, grpo, traj, score, dpo and prm, not ${command} (critic records are in the drawn image's original pixels)`,
    );
  }
  if (values["min-change"] && command !== "dpo") throw new UsageError("--min-change is for dpo");
  if ((values.balance !== undefined || values.seed !== undefined) && command !== "critic") {
    throw new UsageError("--balance and --seed are for critic");
  }
  return { frame, coords };
}

/**
 * The export folder a command reads (a copy without near-duplicates for --drop-duplicates) and the
 * options about its output, checked before anything runs.
 */
async function exportRun(
  command: string,
  values: Values,
  positionals: string[],
  io: BridgeIo,
  frame: Frame,
  coords: CoordinateConvention,
): Promise<Run> {
  const allowProblems = values["allow-problems"];
  const givenExportDir = positionals[0];
  if (!givenExportDir) throw new UsageError(`${command}: the export folder is required`);
  if (positionals.length > 1) throw new UsageError(`${command}: unexpected argument "${positionals[1]}"`);
  const requireOut = () => {
    if (!values.out) throw new UsageError(`${command}: --out <dir> is required`);
    return path.resolve(values.out);
  };
  const imageRoot = values["image-root"];
  if (imageRoot !== undefined && !path.posix.isAbsolute(imageRoot)) {
    throw new UsageError(`--image-root must be an absolute path on the training machine (it starts with /), got "${imageRoot}"`);
  }
  if (values["embed-images"] && !(command === "grpo" && values.target === "verl")) {
    throw new UsageError("--embed-images is for grpo --target verl (ms-swift, LLaMA-Factory and UI-S1 read images by path)");
  }
  if (values.prompt !== undefined && command !== "sft" && command !== "dpo") {
    throw new UsageError("--prompt is for sft and dpo (grpo picks its prompt by --rule)");
  }
  const rowOptions = () => ({ outDir: requireOut(), allowProblems, allowUnreviewed: values["allow-unreviewed"], imageRoot });
  const shardRequest = shardOptions(command, values);
  if (values["drop-duplicates"] && !SHARDABLE.includes(command))
    throw new UsageError(`--drop-duplicates is for ${SHARDABLE.join(", ")} (bridge dedupe lists the groups)`);
  if (values["max-distance"] !== undefined && command !== "dedupe" && !values["drop-duplicates"])
    throw new UsageError("--max-distance is for dedupe and --drop-duplicates");
  const maxDistance = values["max-distance"] === undefined ? undefined : nonNegativeInt("max-distance", values["max-distance"], 63);
  // --drop-duplicates: the command reads a copy of the export without the near-duplicates (each group's keeper stays).
  let exportDir = givenExportDir;
  if (values["drop-duplicates"]) {
    const { exportWithoutDuplicates } = await import("./dedupe");
    exportDir = (await exportWithoutDuplicates(givenExportDir, io, maxDistance)).dir;
  }
  if (shardRequest && values["embed-images"]) {
    throw new UsageError("--shards embeds every screenshot itself; leave out --embed-images");
  }
  const license = shardRequest ? (shardRequest.license ?? (await releaseLicense(givenExportDir))) : undefined;
  const finish = async (summary: { file: string }, exitCode: number): Promise<number> => {
    if (!shardRequest || exitCode !== 0) {
      if (shardRequest) io.stderr.write(`bridge: no shards written: the run did not finish cleanly (exit ${exitCode})\n`);
      io.stdout.write(`${JSON.stringify(summary)}\n`);
      return exitCode;
    }
    const { writeShardsAndCard } = await import("./release");
    const shards = await writeShardsAndCard(
      exportDir,
      { ...shardRequest, license: license!, outDir: requireOut(), dataFile: summary.file, imageRoot, frame },
      io,
    );
    io.stdout.write(`${JSON.stringify({ ...summary, shards })}\n`);
    return exitCode;
  };
  return { command, values, io, frame, coords, allowProblems, exportDir, imageRoot, maxDistance, requireOut, rowOptions, finish };
}

/**
 * One check for every training command, before any row is written: held-out steps stop the run (the
 * exit status), unless --allow-held-out; undefined when the command may go on.
 */
async function refuseHeldOut(command: string, values: Values, exportDir: string, io: BridgeIo): Promise<number | undefined> {
  const training = TRAINING_COMMANDS.includes(command);
  if (values["allow-held-out"] && !training) throw new UsageError(`--allow-held-out is for ${TRAINING_COMMANDS.join(", ")}`);
  if (!training) return undefined;
  const [{ openExport }, { countHeldOut, heldOutRefusal }] = await Promise.all([import("./export-reader"), import("./output")]);
  const held = await countHeldOut(await openExport(exportDir));
  const refused = heldOutRefusal(held, values["allow-held-out"]);
  if (refused) {
    io.stderr.write(`bridge ${command}: ${refused}\n`);
    return 1;
  }
  if (held.steps > 0)
    io.stderr.write(`bridge ${command}: writing ${held.steps} held-out steps (${held.sets.join(", ")}): --allow-held-out\n`);
  return undefined;
}

/** Each command that reads an export folder, by name. */
const COMMANDS: Record<string, (run: Run) => Promise<number>> = {
  async sft({ values, frame, coords, exportDir, io, rowOptions, finish }) {
    const [{ exportSft, SFT_TARGETS }, { SFT_PROMPTS }] = await Promise.all([import("./sft"), import("./source-prompt")]);
    const target = oneOf<SftTarget>("target", values.target, SFT_TARGETS);
    const prompt = oneOf<SftPrompt>("prompt", values.prompt, SFT_PROMPTS, "cookbook");
    const { summary, exitCode } = await exportSft(exportDir, { ...frame, ...rowOptions(), target, coords, prompt }, io);
    return await finish(summary, exitCode);
  },
  async grpo({ values, frame, coords, exportDir, io, rowOptions, finish }) {
    const { exportGrpo, GRPO_TARGETS } = await import("./grpo");
    const target = oneOf<GrpoTarget>("target", values.target, GRPO_TARGETS);
    const rule = oneOf<RewardRule>("rule", values.rule, REWARD_RULES, "mobile-r1");
    const { summary, exitCode } = await exportGrpo(
      exportDir,
      { ...frame, ...rowOptions(), target, rule, coords, embedImages: values["embed-images"] },
      io,
    );
    return await finish(summary, exitCode);
  },
  async dpo({ values, frame, coords, exportDir, io, rowOptions, finish }) {
    const [{ exportDpo, DPO_TARGETS }, { SFT_PROMPTS }] = await Promise.all([import("./dpo"), import("./source-prompt")]);
    const target = oneOf<DpoTarget>("target", values.target, DPO_TARGETS);
    const prompt = oneOf<SftPrompt>("prompt", values.prompt, SFT_PROMPTS, "cookbook");
    const { summary, exitCode } = await exportDpo(
      exportDir,
      { ...frame, ...rowOptions(), target, coords, prompt, minChange: values["min-change"] },
      io,
    );
    return await finish(summary, exitCode);
  },
  async critic({ values, frame, exportDir, io, rowOptions, finish }) {
    const { exportCritic, parseBalance } = await import("./critic");
    const balance = values.balance === undefined ? undefined : parseBalance(values.balance);
    if (balance === null)
      throw new UsageError(`--balance must be <positives>:<negatives> (positive integers, e.g. 1:1), got "${values.balance}"`);
    const seed = values.seed === undefined ? 0 : Number(values.seed);
    if (!Number.isInteger(seed) || seed < 0) throw new UsageError(`--seed must be a non-negative integer, got "${values.seed}"`);
    const { summary, exitCode } = await exportCritic(exportDir, { ...frame, ...rowOptions(), balance, seed }, io);
    return await finish(summary, exitCode);
  },
  async prm({ frame, coords, exportDir, io, rowOptions, finish }) {
    const { exportPrm } = await import("./prm");
    const { summary, exitCode } = await exportPrm(exportDir, { ...frame, ...rowOptions(), coords }, io);
    return await finish(summary, exitCode);
  },
  async traj({ values, coords, exportDir, io, rowOptions, finish }) {
    const { exportTraj, TRAJ_TARGETS } = await import("./traj");
    const target = oneOf<TrajTarget>("target", values.target, TRAJ_TARGETS);
    const { summary, exitCode } = await exportTraj(exportDir, { ...rowOptions(), target, coords }, io);
    return await finish(summary, exitCode);
  },
  async score({ values, frame, coords, allowProblems, exportDir, io }) {
    if (!values.predictions) throw new UsageError("score: --predictions <file> is required");
    const rule = oneOf<RewardRule>("rule", values.rule, REWARD_RULES);
    const outDir = values.out ? path.resolve(values.out) : undefined;
    const { formatScoreSummary, scorePredictions } = await import("./score");
    const { summary, exitCode } = await scorePredictions(
      exportDir,
      { ...frame, predictions: path.resolve(values.predictions), rule, coords, outDir, allowProblems },
      io,
    );
    io.stdout.write(values.json ? `${JSON.stringify(summary)}\n` : formatScoreSummary(summary));
    return exitCode;
  },
  async stats({ values, frame, allowProblems, exportDir, io }) {
    const maxTokens = values["max-tokens"] === undefined ? undefined : positiveInt("max-tokens", values["max-tokens"]);
    const { exportStats, formatStats } = await import("./stats");
    const summary = await exportStats(exportDir, { ...frame, maxTokens }, io);
    io.stdout.write(values.json ? `${JSON.stringify(summary)}\n` : formatStats(summary));
    return summary.problems > 0 && !allowProblems ? 1 : 0;
  },
  async dedupe({ allowProblems, maxDistance, exportDir, io, requireOut }) {
    const { dedupeExport } = await import("./dedupe");
    const { summary } = await dedupeExport(exportDir, { outDir: requireOut(), maxDistance }, io);
    io.stdout.write(`${JSON.stringify(summary)}\n`);
    return summary.problems > 0 && !allowProblems ? 1 : 0;
  },
  async judge({ exportDir, io, requireOut }) {
    const { exportJudge } = await import("./judge");
    const { summary, exitCode } = await exportJudge(exportDir, requireOut(), io);
    io.stdout.write(`${JSON.stringify(summary)}\n`);
    return exitCode;
  },
};
