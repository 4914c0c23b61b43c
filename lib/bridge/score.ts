import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { z } from "zod";
import { openExport, ExportError, type TrajectoryRecord } from "./export-reader";
import { exitCodeFor, JsonlOutput, RunLog, type BridgeIo } from "./output";
import { REWARD_RULES, type RewardRule } from "@/lib/domain/rewards";
import { walkSamples, type FrameOptions } from "./samples";
import type { CoordinateConvention } from "@/lib/domain/geometry";
import { ScoreTally, SopTrajectory, type Rates, type RewardMeans, type SopFigures } from "@/lib/domain/score-tally";

/**
 * Predictions file: JSON Lines, one model response per step:
 *   {"trajectory": "<trajectory id>" | <0-based position in trajectories.jsonl>, "step": <step index>, "response": "<raw model text>"}
 * Responses are in the resized frame of the export's --max-pixels (what the model saw). Other keys are ignored.
 * The `ui-s1` SOP reads them as eval_qwenvl.py does: in its own smart_resize frame (max_pixels 12800*28*28,
 * min_pixels 56*56, long side at most 8192), the same frame as the export's whenever a screenshot has at most
 * 10,035,200 pixels and --max-pixels is at least that (the default is).
 */
export const predictionSchema = z.object({
  trajectory: z.union([z.string().min(1), z.number().int().nonnegative()]),
  step: z.number().int().nonnegative(),
  response: z.string(),
});
export type Prediction = z.infer<typeof predictionSchema>;

const predictionKey = (trajectory: string, step: number) => `${trajectory}\u0000${step}`;

export type ScoreSummary = {
  command: "score";
  rule: RewardRule;
  /** The convention the predictions' coordinates are in (--coords). */
  coords: CoordinateConvention;
  maxPixels: number;
  minPixels: number;
  predictions: number;
  /** Kept steps (inside the cut, trajectory not discarded) with a prediction. */
  scoredSteps: number;
  /** Kept steps with no prediction. */
  unpredictedSteps: number;
  /** Mean rewards over every scored step, harmful ones included (their action reward is inverted). */
  rewards: Record<RewardRule, RewardMeans>;
  /** Accuracies under `rule` over non-harmful scored steps: type, full step match, click/long_press grounding. */
  accuracy: Rates;
  perAction: Record<string, Rates>;
  /** Harmful steps where the model repeated the harmful action (full match under `rule`). */
  harmful: { steps: number; repeated: number };
  /**
   * SOP (semi-online): steps in order, a trajectory stops at its first unmatched step. successRate in %,
   * progress in [0, 1]. With `--rule ui-s1` this is UI-S1's evaluation/eval_qwenvl.py exactly
   * (definition "eval_qwenvl": every kept step, harmful ones included, matched by its own
   * evaluate_android_control_action in its own smart_resize frame; an unreadable response or a ground
   * truth it does not implement (terminate, answer, key) fails the whole trajectory with progress 0).
   * With the other rules (definition "studio"): the training-target steps, matched by the rule's
   * extract_match. Only trajectories with a response for every step the evaluation reaches count;
   * `incomplete` counts the others.
   */
  sop: SopFigures;
  problems: number;
};

/** Load and check the predictions file; problems name its lines. */
async function loadPredictions(
  file: string,
  log: RunLog,
): Promise<Map<string, { response: string; line: number; used: boolean; ref: Prediction }>> {
  const map = new Map<string, { response: string; line: number; used: boolean; ref: Prediction }>();
  try {
    await stat(file);
  } catch {
    throw new ExportError(`${file}: predictions file not found`);
  }
  let line = 0;
  const name = path.basename(file);
  for await (const text of createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity })) {
    line += 1;
    if (text.trim() === "") continue;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      log.problem({ file: name, line, trajectory: "?", message: `not valid JSON (${(e as Error).message})` });
      continue;
    }
    const parsed = predictionSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      log.problem({
        file: name,
        line,
        trajectory: "?",
        message: `${issue?.path.join(".") || "prediction"}: ${issue?.message ?? "invalid"}`,
      });
      continue;
    }
    const p = parsed.data;
    const ref = typeof p.trajectory === "number" ? `#${p.trajectory}` : p.trajectory;
    const key = predictionKey(ref, p.step);
    const previous = map.get(key);
    if (previous) {
      log.problem({ file: name, line, trajectory: ref, step: p.step, message: `duplicate prediction (first on line ${previous.line})` });
      continue;
    }
    map.set(key, { response: p.response, line, used: false, ref: p });
  }
  return map;
}

/**
 * Score model predictions against an export's annotated steps by every reward rule, with
 * accuracies, per-action breakdown and SOP (first-error-stops) success and progress under `rule`.
 * Predictions are in the resized frame at `opts.maxPixels`, or 0..1000 of the screenshot under
 * `opts.coords` qwen3-rel1000 (every rule and the SOP then divide them by 1000); ground truth in original pixels.
 */
export async function scorePredictions(
  exportDir: string,
  opts: FrameOptions & { predictions: string; rule: RewardRule; outDir?: string; allowProblems: boolean },
  io: BridgeIo,
): Promise<{ summary: ScoreSummary; exitCode: number }> {
  const exp = await openExport(exportDir);
  const log = new RunLog(io, "bridge score");
  const predictions = await loadPredictions(opts.predictions, log);
  const perStep = opts.outDir ? await JsonlOutput.create(path.join(opts.outDir, "scores.jsonl")) : undefined;

  const tally = new ScoreTally({ rule: opts.rule, coords: opts.coords ?? "qwen25-abs" });

  // The trajectory being read, as the SOP sees it; a problem in it leaves it out of the SOP.
  let ordinal = -1;
  let sopSteps = new SopTrajectory();
  let sopComplete = true;

  const counts = await walkSamples(exp, opts, {
    onProblem: (p) => {
      log.problem(p);
      sopComplete = false;
    },
    onTrajectory: (record: Extract<TrajectoryRecord, { ok: true }>) => {
      ordinal = record.ordinal;
      sopSteps = new SopTrajectory();
      sopComplete = true;
    },
    onSample: async (sample) => {
      const key = predictionKey(sample.where.trajectory, sample.step.index);
      const byPosition = predictionKey(`#${ordinal}`, sample.step.index);
      const prediction = predictions.get(key) ?? predictions.get(byPosition);
      const results = tally.step(sopSteps, sample, prediction?.response);
      if (!prediction || !results) return;
      prediction.used = true;
      await perStep?.write({
        trajectory: sample.where.trajectory,
        step: sample.step.index,
        annotation: sample.annotation,
        gt_action: sample.groundTruth.gt_action,
        response: prediction.response,
        ...results,
      });
    },
    onTrajectoryEnd: (record) => {
      if (!record.trajectory.isDiscarded && sopComplete) tally.sop.add(sopSteps);
    },
    onProgress: (c) => log.reading(c.trajectories, exp, `${tally.scored} steps scored`),
  });

  for (const p of predictions.values()) {
    if (!p.used) {
      const ref = typeof p.ref.trajectory === "number" ? `#${p.ref.trajectory}` : p.ref.trajectory;
      log.problem({
        file: path.basename(opts.predictions),
        line: p.line,
        trajectory: ref,
        step: p.ref.step,
        message: "matches no kept step (unknown trajectory or step, after the cut, or discarded)",
      });
    }
  }
  const exitCode = exitCodeFor(log.problems, opts.allowProblems);
  await perStep?.close(true);
  const figures = tally.figures();
  const summary: ScoreSummary = {
    command: "score",
    rule: opts.rule,
    coords: opts.coords ?? "qwen25-abs",
    maxPixels: opts.maxPixels,
    minPixels: opts.minPixels,
    predictions: predictions.size,
    scoredSteps: figures.scoredSteps,
    unpredictedSteps: figures.unpredictedSteps,
    rewards: figures.rewards,
    accuracy: figures.accuracy,
    perAction: figures.perAction,
    harmful: figures.harmful,
    sop: figures.sop,
    problems: log.problems,
  };
  log.progress(`${counts.trajectories} trajectories, ${figures.scoredSteps} steps scored, ${log.problems} problems`, true);
  return { summary, exitCode };
}

const pct = (x: number | null) => (x === null ? "n/a" : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null) => (x === null ? "n/a" : x.toFixed(3));

/** The summary as a short human-readable report. */
export function formatScoreSummary(s: ScoreSummary): string {
  const lines = [
    `scored ${s.scoredSteps} steps (${s.unpredictedSteps} kept steps without a prediction), frame max_pixels=${s.maxPixels}`,
    `rewards (mean over scored steps):`,
    ...REWARD_RULES.map(
      (r) => `  ${r.padEnd(14)} format ${num(s.rewards[r].format)}  action ${num(s.rewards[r].action)}  score ${num(s.rewards[r].score)}`,
    ),
    `accuracy under ${s.rule} (${s.accuracy.steps} non-harmful steps): type ${pct(s.accuracy.typeAccuracy)}  step ${pct(s.accuracy.stepAccuracy)}  grounding ${pct(s.accuracy.groundingAccuracy)} of ${s.accuracy.groundingSteps}`,
    `per action (ground truth):`,
    ...Object.entries(s.perAction).map(
      ([a, r]) => `  ${a.padEnd(14)} n=${String(r.steps).padEnd(6)} type ${pct(r.typeAccuracy)}  step ${pct(r.stepAccuracy)}`,
    ),
    `harmful steps: ${s.harmful.steps}, repeated by the model: ${s.harmful.repeated}`,
    `SOP (${s.sop.definition === "eval_qwenvl" ? "UI-S1 eval_qwenvl.py" : "studio, training-target steps"}) over ${s.sop.trajectories} trajectories: success rate ${s.sop.successRate === null ? "n/a" : `${s.sop.successRate.toFixed(1)}%`}  progress ${num(s.sop.progress)}${s.sop.incomplete > 0 ? `  (${s.sop.incomplete} left out: a response the evaluation needs is missing)` : ""}`,
  ];
  if (s.problems > 0) lines.push(`problems: ${s.problems} (see stderr)`);
  return `${lines.join("\n")}\n`;
}
