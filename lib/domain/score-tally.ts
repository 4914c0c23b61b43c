import { REL1000_SCALE, type CoordinateConvention } from "./geometry";
import { REWARD_RULES, rewardFor, type Annotation, type GroundTruth, type RewardResult, type RewardRule } from "./rewards";
import type { CanonicalStep } from "./trajectory";
import { uiS1EvalCheckOptions, uiS1SopEpisode, uiS1SopRates, uiS1TrajStep, type SopStep } from "./ui-s1-reward";

// The scoring tally, written once for `bridge score` (lib/bridge/score.ts, an export and a predictions file) and
// for an evaluation run (lib/domain/eval.ts EvalTally, a frozen set and an endpoint's answers), so both give the
// same figures from the same steps and responses: mean rewards under every rule, accuracies over non-harmful
// steps (overall and per ground-truth action), harmful repeats, and SOP success and progress.

const mean = (sum: number, n: number) => (n === 0 ? null : sum / n);

/** Mean rewards under one rule over the scored steps (null: none scored). */
export type RewardMeans = { steps: number; format: number | null; action: number | null; score: number | null };

/** One rule's format, action and score rewards summed over scored steps. */
export class RewardTally {
  private n = 0;
  private format = 0;
  private action = 0;
  private score = 0;

  add(r: RewardResult): void {
    this.n += 1;
    this.format += r.format;
    this.action += r.action;
    this.score += r.score;
  }

  means(): RewardMeans {
    return { steps: this.n, format: mean(this.format, this.n), action: mean(this.action, this.n), score: mean(this.score, this.n) };
  }
}

/** Accuracies over steps: the type, the full step (extract_match), and grounding over click/long_press steps (null: none). */
export type Rates = {
  steps: number;
  typeAccuracy: number | null;
  stepAccuracy: number | null;
  groundingSteps: number;
  groundingAccuracy: number | null;
};

/** Type, step and grounding matches counted over steps under one rule. */
export class AccuracyTally {
  private n = 0;
  private type = 0;
  private extract = 0;
  private groundingN = 0;
  private grounding = 0;

  add(r: RewardResult): void {
    this.n += 1;
    this.type += r.typeMatch ? 1 : 0;
    this.extract += r.extractMatch ? 1 : 0;
    if (r.hit !== null) {
      this.groundingN += 1;
      this.grounding += r.hit ? 1 : 0;
    }
  }

  rates(): Rates {
    return {
      steps: this.n,
      typeAccuracy: mean(this.type, this.n),
      stepAccuracy: mean(this.extract, this.n),
      groundingSteps: this.groundingN,
      groundingAccuracy: mean(this.grounding, this.groundingN),
    };
  }
}

/**
 * SOP figures: successRate in %, progress in [0, 1]; `incomplete` counts the trajectories left out because a
 * response the evaluation needs is missing.
 */
export type SopFigures = {
  definition: "eval_qwenvl" | "studio";
  trajectories: number;
  successRate: number | null;
  progress: number | null;
  incomplete: number;
};

/**
 * One trajectory's kept steps as the SOP reads them, in order: its training targets by the rule's extract_match
 * (null: no response), and under `ui-s1` every kept step as UI-S1's eval_qwenvl.py sees it.
 */
export class SopTrajectory {
  readonly targets: (boolean | null)[] = [];
  readonly episode: SopStep[] = [];
}

/**
 * SOP (semi-online) over trajectories: steps in order, a trajectory stops at its first unmatched step. Under
 * `ui-s1` UI-S1's eval_qwenvl.py exactly (definition "eval_qwenvl"), otherwise the training targets matched by
 * the rule's extract_match (definition "studio"). Only trajectories with a response for every step the
 * evaluation reaches count; the others are `incomplete`.
 */
export class SopTally {
  private readonly episodes: { numSteps: number; finalStepId: number; taskSuccess: boolean }[] = [];
  private readonly studio = { trajectories: 0, success: 0, progress: 0 };
  private incomplete = 0;

  constructor(private readonly rule: RewardRule) {}

  /** Count a trajectory that is kept (not discarded) and has no problem step. */
  add(t: SopTrajectory): void {
    if (this.rule === "ui-s1") {
      // A trajectory with no kept step would make eval_qwenvl.py divide by zero; it is left out.
      if (t.episode.length === 0) return;
      const episode = uiS1SopEpisode(t.episode);
      if (!episode.complete) this.incomplete += 1;
      else this.episodes.push(episode);
      return;
    }
    const steps = t.targets;
    if (steps.length === 0) return;
    // Responses are needed up to the first miss (or the end); a gap before that leaves the trajectory out.
    const firstMiss = steps.indexOf(false);
    const reached = firstMiss < 0 ? steps : steps.slice(0, firstMiss + 1);
    if (reached.some((s) => s === null)) {
      this.incomplete += 1;
      return;
    }
    const matched = firstMiss < 0 ? steps.length : firstMiss;
    this.studio.trajectories += 1;
    this.studio.success += matched === steps.length ? 1 : 0;
    this.studio.progress += matched / steps.length;
  }

  figures(): SopFigures {
    if (this.rule === "ui-s1") {
      const r = uiS1SopRates(this.episodes);
      return {
        definition: "eval_qwenvl",
        trajectories: this.episodes.length,
        successRate: r?.successRate ?? null,
        progress: r?.progress ?? null,
        incomplete: this.incomplete,
      };
    }
    const n = this.studio.trajectories;
    return {
      definition: "studio",
      trajectories: n,
      successRate: n === 0 ? null : (this.studio.success / n) * 100,
      progress: mean(this.studio.progress, n),
      incomplete: this.incomplete,
    };
  }
}

/** A kept step as the tally reads it (lib/bridge/samples.ts StepSample and lib/domain/eval.ts EvalSample both are). */
export type TalliedSample = { step: CanonicalStep; annotation: Annotation; isTarget: boolean; groundTruth: GroundTruth };

/** Every rule's result for one response. */
export type RuleResults = Record<RewardRule, RewardResult>;

/**
 * The tally of a scoring: each kept step is added with its response (or none) to the trajectory it belongs to,
 * each trajectory then to the SOP when it counts. Mean rewards under every rule over scored steps, harmful
 * ones included (their action reward is inverted); accuracies under `rule` over non-harmful scored steps,
 * overall and per ground-truth action; harmful steps the model repeated (full match under `rule`).
 * Responses are in the `coords` convention.
 */
export class ScoreTally {
  private readonly rewards = Object.fromEntries(REWARD_RULES.map((r) => [r, new RewardTally()])) as Record<RewardRule, RewardTally>;
  private readonly accuracy = new AccuracyTally();
  private readonly perAction = new Map<string, AccuracyTally>();
  private readonly harmful = { steps: 0, repeated: 0 };
  readonly sop: SopTally;
  /** Kept steps with a response, and without. */
  scored = 0;
  unpredicted = 0;

  constructor(private readonly opts: { rule: RewardRule; coords: CoordinateConvention }) {
    this.sop = new SopTally(opts.rule);
  }

  /** Add one kept step of `trajectory` with its response; returns every rule's result, or null when there is none. */
  step(trajectory: SopTrajectory, sample: TalliedSample, response: string | undefined): RuleResults | null {
    if (this.opts.rule === "ui-s1") {
      trajectory.episode.push({
        checkOptions: uiS1EvalCheckOptions(uiS1TrajStep(sample.step, sample.annotation)),
        width: sample.step.screenshot.width,
        height: sample.step.screenshot.height,
        response: response ?? null,
        ...(this.opts.coords === "qwen3-rel1000" ? { predictionFrame: [REL1000_SCALE, REL1000_SCALE] as [number, number] } : {}),
      });
    }
    if (response === undefined) {
      this.unpredicted += 1;
      if (sample.isTarget) trajectory.targets.push(null);
      return null;
    }
    this.scored += 1;
    const results = Object.fromEntries(REWARD_RULES.map((rule) => [rule, rewardFor(rule, response, sample.groundTruth)])) as RuleResults;
    for (const rule of REWARD_RULES) this.rewards[rule].add(results[rule]);
    const r = results[this.opts.rule];
    if (sample.annotation === "HARMFUL") {
      this.harmful.steps += 1;
      this.harmful.repeated += r.extractMatch ? 1 : 0;
    } else {
      this.accuracy.add(r);
      const action = sample.groundTruth.gt_action.action;
      if (!this.perAction.has(action)) this.perAction.set(action, new AccuracyTally());
      this.perAction.get(action)!.add(r);
    }
    if (sample.isTarget) trajectory.targets.push(r.extractMatch);
    return results;
  }

  /** The figures so far; per action sorted by name. */
  figures(): {
    scoredSteps: number;
    unpredictedSteps: number;
    rewards: Record<RewardRule, RewardMeans>;
    accuracy: Rates;
    perAction: Record<string, Rates>;
    harmful: { steps: number; repeated: number };
    sop: SopFigures;
  } {
    return {
      scoredSteps: this.scored,
      unpredictedSteps: this.unpredicted,
      rewards: Object.fromEntries(REWARD_RULES.map((r) => [r, this.rewards[r].means()])) as Record<RewardRule, RewardMeans>,
      accuracy: this.accuracy.rates(),
      perAction: Object.fromEntries([...this.perAction.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, v.rates()])),
      harmful: { ...this.harmful },
      sop: this.sop.figures(),
    };
  }
}
