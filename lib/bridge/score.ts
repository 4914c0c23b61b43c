import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { z } from "zod";
import { openExport, ExportError, type TrajectoryRecord } from "./export-reader";
import { exitCodeFor, JsonlOutput, RunLog, type BridgeIo } from "./output";
import { REWARD_RULES, rewardFor, type RewardResult, type RewardRule } from "@/lib/domain/rewards";
import { walkSamples, type FrameOptions } from "./samples";
import { REL1000_SCALE, type CoordinateConvention } from "@/lib/domain/geometry";
import { uiS1EvalCheckOptions, uiS1SopEpisode, uiS1SopRates, uiS1TrajStep, type SopStep } from "@/lib/domain/ui-s1-reward";

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

type Tally = { n: number; format: number; action: number; score: number };
const emptyTally = (): Tally => ({ n: 0, format: 0, action: 0, score: 0 });
function add(t: Tally, r: RewardResult) {
  t.n += 1;
  t.format += r.format;
  t.action += r.action;
  t.score += r.score;
}
const mean = (sum: number, n: number) => (n === 0 ? null : sum / n);
function means(t: Tally) {
  return { steps: t.n, format: mean(t.format, t.n), action: mean(t.action, t.n), score: mean(t.score, t.n) };
}

type Accuracy = { n: number; type: number; extract: number; groundingN: number; grounding: number };
const emptyAccuracy = (): Accuracy => ({ n: 0, type: 0, extract: 0, groundingN: 0, grounding: 0 });
function addAccuracy(a: Accuracy, r: RewardResult) {
  a.n += 1;
  a.type += r.typeMatch ? 1 : 0;
  a.extract += r.extractMatch ? 1 : 0;
  if (r.hit !== null) {
    a.groundingN += 1;
    a.grounding += r.hit ? 1 : 0;
  }
}
function rates(a: Accuracy) {
  return {
    steps: a.n,
    typeAccuracy: mean(a.type, a.n),
    stepAccuracy: mean(a.extract, a.n),
    groundingSteps: a.groundingN,
    groundingAccuracy: mean(a.grounding, a.groundingN),
  };
}

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
  rewards: Record<RewardRule, ReturnType<typeof means>>;
  /** Accuracies under `rule` over non-harmful scored steps: type, full step match, click/long_press grounding. */
  accuracy: ReturnType<typeof rates>;
  perAction: Record<string, ReturnType<typeof rates>>;
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
  sop: {
    definition: "eval_qwenvl" | "studio";
    trajectories: number;
    successRate: number | null;
    progress: number | null;
    incomplete: number;
  };
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

  const tallies = Object.fromEntries(REWARD_RULES.map((r) => [r, emptyTally()])) as Record<RewardRule, Tally>;
  const accuracy = emptyAccuracy();
  const perAction = new Map<string, Accuracy>();
  const harmful = { steps: 0, repeated: 0 };
  const sop = { trajectories: 0, success: 0, progress: 0, incomplete: 0 };
  const evalEpisodes: { numSteps: number; finalStepId: number; taskSuccess: boolean }[] = [];
  let scored = 0;
  let unpredicted = 0;

  // SOP state of the trajectory being read. studio: its target steps in order, null = no prediction;
  // eval_qwenvl: every kept step as UI-S1's evaluation sees it.
  let ordinal = -1;
  let sopSteps: (boolean | null)[] = [];
  let evalSteps: SopStep[] = [];
  let sopComplete = true;

  const counts = await walkSamples(exp, opts, {
    onProblem: (p) => {
      log.problem(p);
      sopComplete = false;
    },
    onTrajectory: (record: Extract<TrajectoryRecord, { ok: true }>) => {
      ordinal = record.ordinal;
      sopSteps = [];
      evalSteps = [];
      sopComplete = true;
    },
    onSample: async (sample) => {
      const key = predictionKey(sample.where.trajectory, sample.step.index);
      const byPosition = predictionKey(`#${ordinal}`, sample.step.index);
      const prediction = predictions.get(key) ?? predictions.get(byPosition);
      if (opts.rule === "ui-s1") {
        evalSteps.push({
          checkOptions: uiS1EvalCheckOptions(uiS1TrajStep(sample.step, sample.annotation)),
          width: sample.step.screenshot.width,
          height: sample.step.screenshot.height,
          response: prediction ? prediction.response : null,
          ...(sample.coords === "qwen3-rel1000" ? { predictionFrame: [REL1000_SCALE, REL1000_SCALE] as [number, number] } : {}),
        });
      }
      if (!prediction) {
        unpredicted += 1;
        if (sample.isTarget) sopSteps.push(null);
        return;
      }
      prediction.used = true;
      scored += 1;
      const results = Object.fromEntries(
        REWARD_RULES.map((rule) => [rule, rewardFor(rule, prediction.response, sample.groundTruth)]),
      ) as Record<RewardRule, RewardResult>;
      for (const rule of REWARD_RULES) add(tallies[rule], results[rule]);
      const r = results[opts.rule];
      if (sample.annotation === "HARMFUL") {
        harmful.steps += 1;
        harmful.repeated += r.extractMatch ? 1 : 0;
      } else {
        addAccuracy(accuracy, r);
        const action = sample.groundTruth.gt_action.action;
        if (!perAction.has(action)) perAction.set(action, emptyAccuracy());
        addAccuracy(perAction.get(action)!, r);
      }
      if (sample.isTarget) sopSteps.push(r.extractMatch);
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
      if (record.trajectory.isDiscarded || !sopComplete) return;
      if (opts.rule === "ui-s1") {
        // A trajectory with no kept step would make eval_qwenvl.py divide by zero; it is left out.
        if (evalSteps.length === 0) return;
        const episode = uiS1SopEpisode(evalSteps);
        if (!episode.complete) sop.incomplete += 1;
        else evalEpisodes.push(episode);
        return;
      }
      if (sopSteps.length === 0) return;
      // Responses are needed up to the first miss (or the end); a gap before that leaves the trajectory out.
      const firstMiss = sopSteps.indexOf(false);
      const reached = firstMiss < 0 ? sopSteps : sopSteps.slice(0, firstMiss + 1);
      if (reached.some((s) => s === null)) {
        sop.incomplete += 1;
        return;
      }
      const matched = firstMiss < 0 ? sopSteps.length : firstMiss;
      sop.trajectories += 1;
      sop.success += matched === sopSteps.length ? 1 : 0;
      sop.progress += matched / sopSteps.length;
    },
    onProgress: (c) => log.progress(`${c.trajectories} trajectories, ${scored} steps scored`),
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
  const summary: ScoreSummary = {
    command: "score",
    rule: opts.rule,
    coords: opts.coords ?? "qwen25-abs",
    maxPixels: opts.maxPixels,
    minPixels: opts.minPixels,
    predictions: predictions.size,
    scoredSteps: scored,
    unpredictedSteps: unpredicted,
    rewards: Object.fromEntries(REWARD_RULES.map((r) => [r, means(tallies[r])])) as Record<RewardRule, ReturnType<typeof means>>,
    accuracy: rates(accuracy),
    perAction: Object.fromEntries([...perAction.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, rates(v)])),
    harmful,
    sop:
      opts.rule === "ui-s1"
        ? evalSop(evalEpisodes, sop.incomplete)
        : {
            definition: "studio",
            trajectories: sop.trajectories,
            successRate: sop.trajectories === 0 ? null : (sop.success / sop.trajectories) * 100,
            progress: mean(sop.progress, sop.trajectories),
            incomplete: sop.incomplete,
          },
    problems: log.problems,
  };
  log.progress(`${counts.trajectories} trajectories, ${scored} steps scored, ${log.problems} problems`, true);
  return { summary, exitCode };
}

function evalSop(episodes: { numSteps: number; finalStepId: number; taskSuccess: boolean }[], incomplete: number): ScoreSummary["sop"] {
  const rates = uiS1SopRates(episodes);
  return {
    definition: "eval_qwenvl",
    trajectories: episodes.length,
    successRate: rates?.successRate ?? null,
    progress: rates?.progress ?? null,
    incomplete,
  };
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
