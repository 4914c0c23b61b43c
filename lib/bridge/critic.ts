// `bridge critic`: pre-operative critic records in GUI-Critic-R1's layout (X-PLUG/MobileAgent
// GUI-Critic-R1/test_files/gui_s.jsonl: `images`, `problem`, `solution`; FORMATS.md §7). Each record shows
// one evaluated action DRAWN into a copy of the step's screenshot at its original size (a translucent red
// circle at a click or long-press point, a red arrow for a swipe), the instruction, the history and the
// action, and the answer `<thinking>` (observation, possible result, critique) `<score>` `<suggestion>`.
//
// Every sentence of the answer is made of the step's own data: the observation is the reviewed thought's
// state, the possible result the stated purpose (or, for an action that was executed and judged wrong, the
// state the next step shows), the critique what the reviewer decided, the suggestion the corrected clear
// action. Which actions are right or wrong is lib/domain/process-label.ts's isModelActionWrong.
import { createHash } from "node:crypto";
import { mulberry32 } from "@/lib/domain/random";
import { mkdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { changedFields, isModelActionWrong } from "@/lib/domain/process-label";
import { pyJsonDumps, describeToolCall, isPointless, type StepToolCall, type ToolCall } from "@/lib/domain/tool-call";
import type { Point, Size } from "@/lib/domain/geometry";
import type { CanonicalStep, CanonicalTrajectory } from "@/lib/domain/trajectory";
import { openExport, type Where } from "./export-reader";
import { IMAGES_DIR, ImageFolder, joinRoot } from "./images";
import { finishTrainingRows, JsonlOutput, RunLog, writeSummary, type BridgeIo, type TrainingRowOptions } from "./output";
import { walkSamples, type FrameOptions, type RowLineage } from "./samples";

export const CRITIC_DATASET = "gui_critic";

export type CriticScore = "Correct" | "Incorrect";

/** Whose action a record evaluates: the model's (right or wrong), or a reviewer's correction of it. */
export type CriticSource = "model" | "correction";

/** One record. `problem` and `solution` as GUI-Critic-R1 names them; coordinates in ORIGINAL screenshot pixels, the drawn image's own. */
export type CriticRecord = {
  images: string[];
  problem: string;
  solution: string;
  score: CriticScore;
  source: CriticSource;
  action_type: string;
  app: string;
  trajectory_id: string;
  /** 0-based step index. */
  step: number;
  /** Where the record comes from, in records of a release export (see rowLineage); absent otherwise. */
  lineage?: RowLineage;
};

/** Positives to negatives, e.g. 1:1. */
export type Balance = { positives: number; negatives: number };

/** `<p>:<n>` with positive integers, or null. */
export function parseBalance(text: string): Balance | null {
  const m = /^(\d+):(\d+)$/.exec(text.trim());
  if (!m) return null;
  const [positives, negatives] = [Number(m[1]), Number(m[2])];
  return positives > 0 && negatives > 0 ? { positives, negatives } : null;
}

type Tally = Record<string, { positives: number; negatives: number }>;

export type CriticSummary = {
  command: "critic";
  trajectories: number;
  discardedTrajectories: number;
  keptSteps: number;
  /** Candidates before --balance: positives (right model actions, corrections) and negatives (wrong model actions). */
  candidates: { positives: number; negatives: number };
  records: number;
  positives: number;
  negatives: number;
  balance: string | null;
  seed: number;
  /** Written records per action type and per app. */
  byActionType: Tally;
  byApp: Tally;
  /** Steps nobody reviewed: no score is made up for them. */
  unreviewedSteps: number;
  /** Model actions that are a tap without a point: nothing to draw or evaluate. */
  withoutPoint: number;
  exportStatus: string | null;
  refused: string | null;
  imageRoot: string | null;
  images: number;
  problems: number;
  file: string;
};

/** What one record evaluates, before its image is drawn. */
type Candidate = {
  where: Where;
  imagePath: string;
  size: Size;
  call: ToolCall;
  score: CriticScore;
  source: CriticSource;
  app: string;
  problem: string;
  solution: string;
  isUnreviewed: boolean;
  lineage?: RowLineage;
};

/** `k` of `n` indices chosen with the generator (Fisher-Yates), returned in ascending order. */
function sampleIndices(n: number, k: number, random: () => number): number[] {
  const idx = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i += 1) {
    const j = i + Math.floor(random() * (n - i));
    [idx[i], idx[j]] = [idx[j]!, idx[i]!];
  }
  return idx.slice(0, k).sort((a, b) => a - b);
}

/**
 * How many positives and negatives to keep for `balance` out of `p` and `n`: the most records whose ratio is
 * the requested one, rounding the side that is scaled (Python-free: Math.round, halves up).
 */
export function balancedCounts(p: number, n: number, balance: Balance): { positives: number; negatives: number } {
  if (p * balance.negatives >= n * balance.positives) {
    return { positives: Math.min(p, Math.round((n * balance.positives) / balance.negatives)), negatives: n };
  }
  return { positives: p, negatives: Math.min(n, Math.round((p * balance.negatives) / balance.positives)) };
}

/** Radius of the drawn circle in original pixels: 4 % of the shorter side, at least 12 px. */
export function markRadius(size: Size): number {
  return Math.max(12, Math.round(Math.min(size.width, size.height) * 0.04));
}

/**
 * An SVG the size of the screenshot with the call drawn on it (original pixels): a translucent red disc
 * with a solid rim at a click or long-press point, a red arrow from a swipe's start to its end; undefined
 * for actions without a point.
 */
export function actionOverlaySvg(call: StepToolCall, size: Size): string | undefined {
  const r = markRadius(size);
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}">`;
  if ((call.action === "click" || call.action === "long_press") && call.coordinate) {
    const [x, y] = call.coordinate;
    return `${open}<circle cx="${x}" cy="${y}" r="${r}" fill="rgb(255,0,0)" fill-opacity="0.45" stroke="rgb(255,0,0)" stroke-width="${Math.max(2, r / 6)}"/></svg>`;
  }
  if (call.action === "swipe") {
    const [[x1, y1], [x2, y2]] = [call.coordinate, call.coordinate2];
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
    const head = Math.min(len, r * 1.5);
    const w = Math.max(4, r / 3);
    const base: Point = [x2 - ux * head, y2 - uy * head];
    const left: Point = [base[0] - uy * head * 0.6, base[1] + ux * head * 0.6];
    const right: Point = [base[0] + uy * head * 0.6, base[1] - ux * head * 0.6];
    return (
      `${open}<line x1="${x1}" y1="${y1}" x2="${base[0]}" y2="${base[1]}" stroke="rgb(255,0,0)" stroke-opacity="0.7" stroke-width="${w}" stroke-linecap="round"/>` +
      `<polygon points="${x2},${y2} ${left.join(",")} ${right.join(",")}" fill="rgb(255,0,0)" fill-opacity="0.7"/></svg>`
    );
  }
  return undefined;
}

/** The screenshot with the call drawn on it, as PNG bytes at the screenshot's own size; undefined when nothing is drawn. */
export async function drawAction(imagePath: string, call: StepToolCall, size: Size): Promise<Buffer | undefined> {
  const svg = actionOverlaySvg(call, size);
  if (!svg) return undefined;
  return sharp(imagePath)
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .png()
    .toBuffer();
}

/** The history line of earlier steps: what the model did, in the words of its clear action (GUI-Critic-R1's `Step n: …\n; `). */
function historyText(t: CanonicalTrajectory, index: number): string {
  return t.steps
    .slice(0, index)
    .map(
      (s, i) =>
        ` Step ${i + 1}: ${(s.original.clearAction ?? "").trim() || s.clearAction.trim() || describeToolCall(s.original.toolCall)}\n;`,
    )
    .join("");
}

/** The question of one record: instruction, history, the action as JSON (original pixels), the image. */
export function criticProblem(t: CanonicalTrajectory, index: number, call: ToolCall): string {
  return [
    "<image>",
    "You are a critic of a phone-operating agent. The screenshot is the screen before the agent's action; a click or long",
    "press is marked with a translucent red circle, a swipe with a red arrow. Decide whether the action is Correct or",
    "Incorrect for the user's instruction, given the history.",
    "1. User instruction:",
    t.instruction,
    "2. History:",
    `${historyText(t, index)} `,
    "3. Decision:",
    `Action: ${pyJsonDumps(call)}`,
    "Answer as <thinking>\n**Observation**: …\n**Possible Result**: …\n**Critique**: …\n</thinking>\n<score>\nCorrect or Incorrect\n</score>\n<suggestion>\n…\n</suggestion>",
  ].join("\n");
}

/** The answer in GUI-Critic-R1's layout. */
export function criticSolution(parts: {
  observation: string;
  result: string;
  critique: string;
  score: CriticScore;
  suggestion: string;
}): string {
  return (
    `<thinking>\n**Observation**: ${parts.observation}\n**Possible Result**: ${parts.result}\n**Critique**: ${parts.critique}\n</thinking>\n` +
    `<score>\n${parts.score}\n</score>\n<suggestion>\n${parts.suggestion}\n</suggestion>`
  );
}

/** The next kept step after `index`, if any (its state is what the executed action led to). */
function nextStep(t: CanonicalTrajectory, index: number): CanonicalStep | undefined {
  const last = t.cutAfter ?? t.steps.length - 1;
  return index + 1 <= last ? t.steps[index + 1] : undefined;
}

const orText = (...xs: (string | undefined)[]) => xs.map((x) => (x ?? "").trim()).find((x) => x !== "") ?? "";

/**
 * The records one step gives: the model's action (Correct when isModelActionWrong is false, else Incorrect),
 * and, when a reviewer replaced the model's call, the replacement (Correct). Original pixels throughout.
 */
export function stepCandidates(
  t: CanonicalTrajectory,
  step: CanonicalStep,
  base: Pick<Candidate, "where" | "imagePath" | "isUnreviewed" | "lineage">,
): Candidate[] {
  const size = { width: step.screenshot.width, height: step.screenshot.height };
  const model = step.original.toolCall;
  if (isPointless(model)) return [];
  const observation = orText(step.thought.state, step.thought.text);
  const common = { ...base, size, app: t.app };
  if (!isModelActionWrong(step)) {
    const clear = orText(step.clearAction, step.original.clearAction, describeToolCall(model));
    return [
      {
        ...common,
        call: model,
        score: "Correct",
        source: "model",
        problem: criticProblem(t, step.index, model),
        solution: criticSolution({
          observation,
          result: orText(step.thought.purpose, step.thought.nextAction, step.thought.text),
          critique: `A reviewer kept this action${step.verdict === "neutral" ? " as neutral (it does not move the task on, nor harm it)" : ""}: ${describeToolCall(model)}.`,
          score: "Correct",
          suggestion: clear,
        }),
      },
    ];
  }
  const replaced = changedFields(step).includes("toolCall");
  const correction = step.toolCall;
  const next = nextStep(t, step.index);
  const modelIntent = orText(step.original.thought);
  const result = next
    ? `after this action the next screen showed: ${orText(next.thought.state, next.thought.text)}`
    : orText(modelIntent, describeToolCall(model));
  const suggestion = replaced ? orText(step.clearAction, describeToolCall(correction)) : orText(next?.clearAction, "");
  const critique =
    step.verdict === "harmful"
      ? `A reviewer marked this action harmful${replaced ? `; the right action is ${describeToolCall(correction)}` : ""}.`
      : `A reviewer replaced it with ${describeToolCall(correction)}.`;
  const out: Candidate[] = [
    {
      ...common,
      call: model,
      score: "Incorrect",
      source: "model",
      problem: criticProblem(t, step.index, model),
      solution: criticSolution({ observation, result, critique, score: "Incorrect", suggestion }),
    },
  ];
  if (replaced && !isPointless(correction)) {
    out.push({
      ...common,
      call: correction,
      score: "Correct",
      source: "correction",
      problem: criticProblem(t, step.index, correction),
      solution: criticSolution({
        observation,
        result: orText(step.thought.purpose, step.thought.nextAction, step.thought.text),
        critique: `This is the reviewer's correction of the model's ${describeToolCall(model)}.`,
        score: "Correct",
        suggestion: orText(step.clearAction, describeToolCall(correction)),
      }),
    });
  }
  return out;
}

function tally(t: Tally, key: string, score: CriticScore): void {
  const e = (t[key] ??= { positives: 0, negatives: 0 });
  if (score === "Correct") e.positives += 1;
  else e.negatives += 1;
}

/**
 * Write critic records for every reviewed kept step (inside the cut, trajectory kept): images drawn at the
 * screenshot's original size into `<out>/images/<sha256 of the drawn PNG>.png` (the plain screenshot for an
 * action without a point). `balance` keeps positives and negatives at that ratio, chosen with `seed`.
 */
export async function exportCritic(
  exportDir: string,
  opts: FrameOptions & TrainingRowOptions & { balance?: Balance; seed: number },
  io: BridgeIo,
): Promise<{ summary: CriticSummary; exitCode: number }> {
  const exp = await openExport(exportDir);
  const log = new RunLog(io, "bridge critic");
  // Two passes over the export, so memory holds one score per candidate rather than every record: the first
  // counts the candidates (in a fixed order), --balance picks among them, the second writes the chosen ones.
  const scores: CriticScore[] = [];
  let unreviewedSteps = 0;
  let withoutPoint = 0;
  const eachCandidate = (onCandidate: (c: Candidate) => Promise<void> | void, counting: boolean) =>
    walkSamples(exp, opts, {
      onProblem: (p) => {
        if (counting) log.problem(p);
      },
      onProgress: (n) => log.reading(n.trajectories, exp, `${counting ? "counting" : "writing"}, ${log.problems} problems`),
      onSample: async (sample) => {
        if (sample.step.verdict === "unreviewed") {
          if (counting) unreviewedSteps += 1;
          return;
        }
        if (isPointless(sample.step.original.toolCall)) {
          if (counting) withoutPoint += 1;
          return;
        }
        const base = { where: sample.where, imagePath: sample.imagePath, isUnreviewed: sample.isUnreviewed, lineage: sample.lineage };
        for (const c of stepCandidates(sample.trajectory, sample.step, base)) await onCandidate(c);
      },
    });
  const counts = await eachCandidate((c) => void scores.push(c.score), true);
  const pos = scores.flatMap((score, i) => (score === "Correct" ? [i] : []));
  const neg = scores.flatMap((score, i) => (score === "Incorrect" ? [i] : []));
  let keep: Set<number> | undefined;
  if (opts.balance) {
    const want = balancedCounts(pos.length, neg.length, opts.balance);
    const random = mulberry32(opts.seed);
    keep = new Set([
      ...sampleIndices(pos.length, want.positives, random).map((i) => pos[i]!),
      ...sampleIndices(neg.length, want.negatives, random).map((i) => neg[i]!),
    ]);
  }

  const out = await JsonlOutput.create(path.join(opts.outDir, `${CRITIC_DATASET}.jsonl`));
  const images = new ImageFolder({ outDir: opts.outDir, imageRoot: opts.imageRoot });
  const byActionType: Tally = {};
  const byApp: Tally = {};
  const drawnFiles = new Set<string>();
  let unreviewedRows = 0;
  let index = -1;
  await eachCandidate(async (c) => {
    index += 1;
    if (keep && !keep.has(index)) return;
    let ref: string;
    try {
      const drawn = await drawAction(c.imagePath, c.call, c.size);
      ref = drawn ? await placeDrawn(opts, drawn) : await images.ref(c.imagePath);
      if (drawn) drawnFiles.add(ref);
    } catch (e) {
      log.problem({ ...c.where, message: `drawing the action: ${(e as Error).message}` });
      return;
    }
    const record: CriticRecord = {
      images: [ref],
      problem: c.problem,
      solution: c.solution,
      score: c.score,
      source: c.source,
      action_type: c.call.action,
      app: c.app,
      trajectory_id: c.where.trajectory,
      step: c.where.step ?? 0,
      ...(c.lineage ? { lineage: c.lineage } : {}),
    };
    await out.write(record);
    tally(byActionType, c.call.action, c.score);
    tally(byApp, c.app, c.score);
    if (c.isUnreviewed) unreviewedRows += 1;
  }, false);
  const { exportStatus, refused, exitCode, file } = await finishTrainingRows("critic", {
    exp,
    log,
    out,
    unreviewed: unreviewedRows,
    opts,
    noun: "records",
  });
  const written = Object.values(byActionType).reduce((a, e) => ({ p: a.p + e.positives, n: a.n + e.negatives }), { p: 0, n: 0 });
  const summary: CriticSummary = {
    command: "critic",
    trajectories: counts.trajectories,
    discardedTrajectories: counts.discarded,
    keptSteps: counts.keptSteps,
    candidates: { positives: pos.length, negatives: neg.length },
    records: out.rows,
    positives: written.p,
    negatives: written.n,
    balance: opts.balance ? `${opts.balance.positives}:${opts.balance.negatives}` : null,
    seed: opts.seed,
    byActionType,
    byApp,
    unreviewedSteps,
    withoutPoint,
    exportStatus,
    refused: refused ?? null,
    imageRoot: opts.imageRoot ?? null,
    images: images.files + drawnFiles.size,
    problems: log.problems,
    file,
  };
  await writeSummary(opts.outDir, CRITIC_DATASET, summary, log);
  log.progress(
    `${counts.trajectories} trajectories, ${out.rows} records (${written.p} Correct, ${written.n} Incorrect), ${log.problems} problems`,
    true,
  );
  return { summary, exitCode };
}

/** Write a drawn image under its content hash in the output's images/ folder; returns how records name it. */
async function placeDrawn(opts: { outDir: string; imageRoot?: string }, png: Buffer): Promise<string> {
  const name = `${createHash("sha256").update(png).digest("hex")}.png`;
  const dir = path.join(opts.outDir, IMAGES_DIR);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  if (!(await stat(file).catch(() => null))) await writeFile(file, png);
  const rel = `${IMAGES_DIR}/${name}`;
  return opts.imageRoot ? joinRoot(opts.imageRoot, rel) : rel;
}
