import { z } from "zod";
import { groundTruthContradictions } from "./annotation";
import {
  conventionFrame,
  coordinateConventionSchema,
  framePair,
  fromConventionPoint,
  isPointOnScreen,
  QWEN_MIN_PIXELS,
  toConventionPoint,
  boxSchema,
  type CoordinateConvention,
  type FramePair,
  type Point,
} from "./geometry";
import { hasRefusedCharacter, REFUSED_CHARACTER_MESSAGE, text } from "./limits";
import { mobileUseSystemPrompt, mobileUseUserText, type ActionSpace } from "./prompt";
import { modelUrlProblem } from "./redact";
import { readMobileR1Response, REWARD_RULES, type Annotation, type GroundTruth, type RewardResult, type RewardRule } from "./rewards";
import { isPointless, mapPoints, pointsOf, POINTLESS_MESSAGE, toolCallSchema, type ToolCall } from "./tool-call";
import { isTrainingTarget, type CanonicalStep, type CanonicalTrajectory, type Verdict } from "./trajectory";
import { AccuracyTally, ScoreTally, SopTally, SopTrajectory } from "./score-tally";
import { uiS1Tag } from "./ui-s1-reward";

// Evaluation runs (issue 25 items 2-6): a saved endpoint answers every kept step of a frozen evaluation set,
// teacher-forced as UI-S1's offline evaluation does (each step sees the ground-truth history and its own
// screenshot), and the answers are scored by the same reward rules, SOP code and tally `bridge score` uses
// (lib/domain/rewards.ts, lib/domain/ui-s1-reward.ts, lib/domain/score-tally.ts). This module is the pure part: the samples (the
// prompt and the ground truth of each step), the figures, and why a step failed.

// ── Endpoints ────────────────────────────────────────────────────────────────────────────────────

const apiKeySchema = z
  .string()
  .max(4_000)
  .refine((s) => !hasRefusedCharacter(s), REFUSED_CHARACTER_MESSAGE);

const endpointName = text("projectName")
  .trim()
  .min(1)
  .regex(/^[^/\\\s][^/\\]*$/, "must not contain a slash");

/** A saved evaluation endpoint as an admin enters it. `apiKey`: absent keeps the stored one, "" clears it. */
export const saveEvalEndpointInput = z.object({
  name: endpointName,
  baseUrl: z
    .string()
    .trim()
    .min(1)
    .max(2_000)
    .refine((s) => !hasRefusedCharacter(s), REFUSED_CHARACTER_MESSAGE)
    .superRefine((s, ctx) => {
      const problem = modelUrlProblem(s);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  model: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((s) => !hasRefusedCharacter(s), REFUSED_CHARACTER_MESSAGE),
  apiKey: apiKeySchema.optional(),
  /** The frame its answers are in: Qwen2.5-VL's resized pixels (qwen25-abs) or Qwen3-VL's 0..1000 (qwen3-rel1000). */
  coords: coordinateConventionSchema.default("qwen25-abs"),
  concurrency: z.number().int().min(1).max(32).default(4),
  timeoutMs: z.number().int().min(1_000).max(600_000).default(60_000),
});
export type SaveEvalEndpointInput = z.input<typeof saveEvalEndpointInput>;

/**
 * "Test connection" for the endpoint form: one request to the URL and model as typed. Without `apiKey`, the key
 * saved under `name` is used when it was saved for this URL (so a saved endpoint can be tested without retyping it).
 */
export const testEvalEndpointInput = saveEvalEndpointInput
  .pick({ baseUrl: true, model: true, timeoutMs: true })
  .extend({ name: z.string().trim().max(200).optional(), apiKey: apiKeySchema.optional() });
export type TestEvalEndpointInput = z.input<typeof testEvalEndpointInput>;

export const evalEndpointViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  model: z.string(),
  hasKey: z.boolean(),
  coords: coordinateConventionSchema,
  concurrency: z.number().int(),
  timeoutMs: z.number().int(),
});
export type EvalEndpointView = z.infer<typeof evalEndpointViewSchema>;

// ── Runs ─────────────────────────────────────────────────────────────────────────────────────────

export const EVAL_RULES = REWARD_RULES;
export const evalRuleSchema = z.enum(["ui-s1", "mobile-r1", "studio-lenient"]);

/** Start a run: a set (its latest version unless `version`), a saved endpoint by name, and the rule. */
export const startEvalRunInput = z.object({
  set: z.string().trim().min(1).max(200),
  version: z.number().int().positive().optional(),
  endpoint: z.string().trim().min(1).max(200),
  rule: evalRuleSchema.default("ui-s1"),
});
export type StartEvalRunInput = z.input<typeof startEvalRunInput>;

export const EVAL_RUN_STATES = ["running", "paused", "cancelled", "succeeded", "failed"] as const;

/**
 * Why a step scored 0 under the run's rule: no tool call could be read (`unparseable`), another action type
 * (`wrong-type`), a click or long press outside the target (`outside-box`), a typed/opened/answered text that
 * differs (`text-mismatch`), or any other argument (a swipe's direction, a button, a terminate status).
 */
export const FAILURE_KINDS = ["wrong-type", "outside-box", "text-mismatch", "wrong-argument", "unparseable"] as const;
export const failureKindSchema = z.enum(FAILURE_KINDS);
export type FailureKind = z.infer<typeof failureKindSchema>;

const rateSchema = z.object({
  steps: z.number().int(),
  typeAccuracy: z.number().nullable(),
  stepAccuracy: z.number().nullable(),
  groundingSteps: z.number().int(),
  groundingAccuracy: z.number().nullable(),
});
export type Rates = z.infer<typeof rateSchema>;

const sopSchema = z.object({
  definition: z.enum(["eval_qwenvl", "studio"]),
  trajectories: z.number().int(),
  /** in % */
  successRate: z.number().nullable(),
  /** in [0, 1] */
  progress: z.number().nullable(),
  incomplete: z.number().int(),
});
export type SopFigures = z.infer<typeof sopSchema>;

const meansSchema = z.object({
  steps: z.number().int(),
  format: z.number().nullable(),
  action: z.number().nullable(),
  score: z.number().nullable(),
});

/**
 * A run's figures: the same fields, computed the same way, as `bridge score`'s summary (lib/bridge/score.ts
 * ScoreSummary) on the run's predictions file, plus per app, the failure kinds and the confusion matrix of
 * true (rows) against predicted (columns, `unparseable` for no call) action types over non-harmful steps.
 */
export const evalFiguresSchema = z.object({
  rule: evalRuleSchema,
  coords: coordinateConventionSchema,
  maxPixels: z.number().int(),
  scoredSteps: z.number().int(),
  unpredictedSteps: z.number().int(),
  /** Kept steps the bridge would not score (a problem in the ground truth), by reason. */
  problems: z.number().int(),
  rewards: z.record(z.string(), meansSchema),
  accuracy: rateSchema,
  perAction: z.record(z.string(), rateSchema),
  perApp: z.record(z.string(), rateSchema.extend({ sop: sopSchema })),
  harmful: z.object({ steps: z.number().int(), repeated: z.number().int() }),
  sop: sopSchema,
  failures: z.record(z.string(), z.number().int()),
  confusion: z.record(z.string(), z.record(z.string(), z.number().int())),
});
export type EvalFigures = z.infer<typeof evalFiguresSchema>;

export const evalRunViewSchema = z.object({
  id: z.string(),
  set: z.object({ id: z.string(), name: z.string(), version: z.number().int() }),
  endpoint: z.object({ id: z.string(), name: z.string(), model: z.string(), coords: coordinateConventionSchema }),
  rule: evalRuleSchema,
  maxPixels: z.number().int(),
  state: z.enum(EVAL_RUN_STATES),
  /** `failedCalls`: model calls that failed so far (asked again on resume, or left unanswered). */
  progress: z.object({ done: z.number().int(), total: z.number().int(), failedCalls: z.number().int() }),
  tokens: z.object({ prompt: z.number().int(), completion: z.number().int() }),
  error: z.string().nullable(),
  figures: evalFiguresSchema.nullable(),
  createdBy: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type EvalRunView = z.infer<typeof evalRunViewSchema>;

// ── Samples ──────────────────────────────────────────────────────────────────────────────────────

/** UI-S1's annotation of a verdict (as lib/bridge/samples.ts uiS1AnnotationOf). */
export function annotationOf(verdict: Verdict): Annotation {
  if (verdict === "harmful") return "HARMFUL";
  if (verdict === "neutral") return "NEUTRAL";
  return "GOOD";
}

/** The frame options of a run: the model's smart_resize budget (pixels) and the convention it writes. */
export type EvalFrame = { maxPixels: number; coords: CoordinateConvention; actionSpace: ActionSpace };

/** One kept step made ready for the model and the scorer. Geometry noted per field. */
export type EvalSample = {
  step: CanonicalStep;
  /** Original screenshot size and the smart-resized size at the run's maxPixels. */
  frames: FramePair;
  annotation: Annotation;
  isTarget: boolean;
  /** The mobile_use system prompt announcing the convention's frame. */
  system: string;
  /** The user turn without the image: instruction and the ground-truth history in the convention (teacher forcing). */
  userText: string;
  /** Ground truth for the rewards: original pixels plus the frame sizes (and `coords` under rel1000). */
  groundTruth: GroundTruth;
};

export type EvalSampleResult = { ok: true; sample: EvalSample } | { ok: false; step: number; message: string };

/**
 * The kept steps of one trajectory (inside the cut; none when discarded), harmful ones included, each as a
 * sample or the problem that stops it: the same steps, prompts and ground truth as `bridge score` builds from
 * an export (lib/bridge/samples.ts stepSamples with the qwen resizer). History for step i is the annotated
 * calls of steps 0..i-1, each in its own step's frame in the convention.
 */
export function evalSamples(t: CanonicalTrajectory, opts: EvalFrame): EvalSampleResult[] {
  if (t.isDiscarded) return [];
  const kept = t.steps.slice(0, (t.cutAfter ?? t.steps.length - 1) + 1);
  const prepared = kept.map((step): { frames: FramePair; call: ToolCall; modelCall: ToolCall } | { error: string } => {
    const call = step.toolCall;
    if (isPointless(call)) return { error: POINTLESS_MESSAGE };
    try {
      const frames = framePair({ width: step.screenshot.width, height: step.screenshot.height }, opts.maxPixels, QWEN_MIN_PIXELS);
      const modelCall = mapPoints(call, (p) => toConventionPoint(p, opts.coords, frames));
      const frame = conventionFrame(opts.coords, frames);
      const bad = pointsOf(modelCall).filter((p) => !isPointOnScreen(p, frame));
      return bad.length
        ? { error: `toolCall ${bad.map((p) => `[${p.join(", ")}]`).join(", ")} outside the frame` }
        : { frames, call, modelCall };
    } catch (e) {
      return { error: `screenshot size: ${(e as Error).message}` };
    }
  });
  const out: EvalSampleResult[] = [];
  let firstBad: number | undefined;
  for (const step of kept) {
    const prep = prepared[step.index]!;
    if ("error" in prep) {
      out.push({ ok: false, step: step.index, message: prep.error });
      firstBad ??= step.index;
      continue;
    }
    if (firstBad !== undefined) {
      out.push({ ok: false, step: step.index, message: `history step ${firstBad + 1} cannot be converted` });
      continue;
    }
    const contradictions = groundTruthContradictions(prep.call, step.box, prep.frames.original);
    if (contradictions.length > 0) {
      out.push({ ok: false, step: step.index, message: contradictions.map((c) => c.message).join("; ") });
      continue;
    }
    const history = prepared.slice(0, step.index).flatMap((p) => ("error" in p ? [] : [p.modelCall]));
    const annotation = annotationOf(step.verdict);
    const { frames, call } = prep;
    out.push({
      ok: true,
      sample: {
        step,
        frames,
        annotation,
        isTarget: isTrainingTarget(t, step),
        system: mobileUseSystemPrompt(conventionFrame(opts.coords, frames), opts.actionSpace),
        userText: mobileUseUserText(t.instruction, history),
        groundTruth: {
          gt_action: call,
          gt_bbox: step.box,
          candidate_bbox: step.candidateBoxes,
          orig_wh: [frames.original.width, frames.original.height],
          resized_wh: [frames.resized.width, frames.resized.height],
          annotation,
          ...(opts.coords === "qwen25-abs" ? {} : { coords: opts.coords }),
        },
      },
    });
  }
  return out;
}

/** The action space the prompts declare: UI-S1's (with `answer`) when any kept step answers, as `bridge` decides it. */
export function actionSpaceOf(trajectories: Iterable<CanonicalTrajectory>): ActionSpace {
  for (const t of trajectories) {
    if (t.isDiscarded) continue;
    const kept = t.cutAfter === null ? t.steps : t.steps.slice(0, t.cutAfter + 1);
    if (kept.some((s) => s.toolCall.action === "answer")) return "ui-s1";
  }
  return "mobile-use";
}

// ── Reading an answer ────────────────────────────────────────────────────────────────────────────

/**
 * The tool call an answer holds, in whichever layout it is written: the mobile_use `<tool_call>` the studio's
 * prompt asks for, or UI-S1's `<action>{json}</action>`. Null when neither reads. Coordinates as written
 * (the endpoint's convention).
 */
export function answerCall(response: string): ToolCall | null {
  const r1 = readMobileR1Response(response).call;
  if (r1) return r1;
  const action = uiS1Tag(response, "action");
  if (action === null) return null;
  try {
    const parsed = toolCallSchema.safeParse(JSON.parse(action));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The answer's call in original screenshot pixels (for drawing over the screenshot), or null. */
export function answerCallInOriginal(response: string, coords: CoordinateConvention, frames: FramePair): ToolCall | null {
  const call = answerCall(response);
  return call ? mapPoints(call, (p: Point) => fromConventionPoint(p, coords, frames)) : null;
}

const TEXT_ACTIONS = new Set(["type", "open", "answer", "key"]);

/** Why a step scored 0 under its rule (null: it matched). */
export function failureKind(r: RewardResult, gt: GroundTruth, response: string): FailureKind | null {
  if (r.extractMatch) return null;
  if (!r.parsed && answerCall(response) === null) return "unparseable";
  if (!r.typeMatch) return "wrong-type";
  if (r.hit === false) return "outside-box";
  if (TEXT_ACTIONS.has(gt.gt_action.action)) return "text-mismatch";
  return "wrong-argument";
}

// ── Figures ──────────────────────────────────────────────────────────────────────────────────────

/** One scored step as the tally reports it back (for storing per-step results). */
export type ScoredStep = { sample: EvalSample; response: string; result: RewardResult; failure: FailureKind | null; predicted: string };

/**
 * The figures of a run, trajectory by trajectory, computed as `bridge score --rule <rule>` computes them on
 * the same predictions over an export of the same trajectories (lib/bridge/score.ts), through the same tally
 * (lib/domain/score-tally.ts ScoreTally): mean rewards under every rule over scored steps; accuracies over
 * non-harmful scored steps; SOP under `ui-s1` by eval_qwenvl.py's episode (every kept step, in its own frame),
 * otherwise over training targets by the rule's extract_match. A trajectory with a problem step is left out of
 * the SOP, one missing a needed response counts as incomplete. Per app, failure kinds and confusion are its own.
 */
export class EvalTally {
  private readonly tally: ScoreTally;
  private readonly perApp = new Map<string, { acc: AccuracyTally; sop: SopTally }>();
  private readonly failures = Object.fromEntries(FAILURE_KINDS.map((k) => [k, 0])) as Record<FailureKind, number>;
  private readonly confusion = new Map<string, Map<string, number>>();
  private problems = 0;

  constructor(private readonly opts: EvalFrame & { rule: RewardRule }) {
    this.tally = new ScoreTally(opts);
  }

  /** Add one trajectory's samples with the responses by step index; returns its scored steps. */
  add(t: CanonicalTrajectory, samples: EvalSampleResult[], responses: ReadonlyMap<number, string>): ScoredStep[] {
    const app = this.perApp.get(t.app) ?? { acc: new AccuracyTally(), sop: new SopTally(this.opts.rule) };
    this.perApp.set(t.app, app);
    const out: ScoredStep[] = [];
    let complete = true;
    const sopSteps = new SopTrajectory();
    for (const s of samples) {
      if (!s.ok) {
        this.problems += 1;
        complete = false;
        continue;
      }
      const { sample } = s;
      const response = responses.get(sample.step.index);
      const results = this.tally.step(sopSteps, sample, response);
      if (response === undefined || !results) continue;
      const r = results[this.opts.rule];
      const failure = failureKind(r, sample.groundTruth, response);
      const predicted = answerCall(response)?.action ?? "unparseable";
      if (sample.annotation !== "HARMFUL") {
        const action = sample.groundTruth.gt_action.action;
        app.acc.add(r);
        if (failure) this.failures[failure] += 1;
        const row = this.confusion.get(action) ?? new Map<string, number>();
        this.confusion.set(action, row);
        row.set(predicted, (row.get(predicted) ?? 0) + 1);
      }
      out.push({ sample, response, result: r, failure, predicted });
    }
    if (!t.isDiscarded && complete) for (const sop of [this.tally.sop, app.sop]) sop.add(sopSteps);
    return out;
  }

  figures(): EvalFigures {
    const byKey = <T>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => a.localeCompare(b));
    const f = this.tally.figures();
    return {
      rule: this.opts.rule,
      coords: this.opts.coords,
      maxPixels: this.opts.maxPixels,
      scoredSteps: f.scoredSteps,
      unpredictedSteps: f.unpredictedSteps,
      problems: this.problems,
      rewards: f.rewards,
      accuracy: f.accuracy,
      perAction: f.perAction,
      perApp: Object.fromEntries(byKey(this.perApp).map(([k, v]) => [k, { ...v.acc.rates(), sop: v.sop.figures() }])),
      harmful: f.harmful,
      sop: f.sop,
      failures: { ...this.failures },
      confusion: Object.fromEntries(byKey(this.confusion).map(([k, row]) => [k, Object.fromEntries(byKey(row))])),
    };
  }
}

// ── Comparing two runs ───────────────────────────────────────────────────────────────────────────

/** The headline measures a comparison names (the page words them from the catalogue, never shows these keys). */
export const COMPARE_METRICS = ["typeAccuracy", "stepAccuracy", "groundingAccuracy", "sopSuccessRate", "sopProgress"] as const;
export type CompareMetric = (typeof COMPARE_METRICS)[number];

/**
 * One figure of two runs: a's value, b's, b - a in the figure's own unit (`delta`: rates in [0, 1], SOP success in %),
 * and the same change in percentage points (`points`), the one unit the comparison is ordered and shown by (null
 * where either is n/a). `figure` is its key for the command line and tests (`stepAccuracy@<app>`); a page reads
 * `metric` and `scope` (the whole set, one app or one ground-truth action type).
 */
export type FigureDelta = {
  figure: string;
  metric: CompareMetric;
  scope: "all" | "app" | "action";
  /** the app or action type of a per-app or per-action figure */
  of: string | null;
  a: number | null;
  b: number | null;
  delta: number | null;
  points: number | null;
};

/** Whether a compared figure is already in percent (SOP success); every other one is a ratio in [0, 1]. */
export function isPercentFigure(figure: string): boolean {
  return figure.startsWith("sopSuccessRate");
}

/** A change of a compared figure in percentage points: SOP success is in %, the ratios are scaled by 100. */
export function pointsChange(figure: string, delta: number | null): number | null {
  return delta === null ? null : isPercentFigure(figure) ? delta : delta * 100;
}

/** Regressions first, the largest drop first; then improvements, the largest first; then no change; then n/a. */
function byChange(p: { points: number | null }, q: { points: number | null }): number {
  const rank = (x: number | null) => (x === null ? 3 : x < 0 ? 0 : x > 0 ? 1 : 2);
  return rank(p.points) - rank(q.points) || Math.abs(q.points ?? 0) - Math.abs(p.points ?? 0);
}

/**
 * The headline figures of two runs on the same set, each with its difference (b - a), ordered by the size of the
 * change in percentage points, regressions first (so SOP success, in %, and the ratios are weighed alike).
 */
export function compareFigures(a: EvalFigures, b: EvalFigures): FigureDelta[] {
  type Row = Pick<FigureDelta, "figure" | "metric" | "scope" | "of" | "a" | "b">;
  const all = (metric: CompareMetric, x: number | null, y: number | null): Row => ({
    figure: metric,
    metric,
    scope: "all",
    of: null,
    a: x,
    b: y,
  });
  const rows: Row[] = [
    all("typeAccuracy", a.accuracy.typeAccuracy, b.accuracy.typeAccuracy),
    all("stepAccuracy", a.accuracy.stepAccuracy, b.accuracy.stepAccuracy),
    all("groundingAccuracy", a.accuracy.groundingAccuracy, b.accuracy.groundingAccuracy),
    all("sopSuccessRate", a.sop.successRate, b.sop.successRate),
    all("sopProgress", a.sop.progress, b.sop.progress),
  ];
  for (const action of [...new Set([...Object.keys(a.perAction), ...Object.keys(b.perAction)])].sort())
    rows.push({
      figure: `stepAccuracy.${action}`,
      metric: "stepAccuracy",
      scope: "action",
      of: action,
      a: a.perAction[action]?.stepAccuracy ?? null,
      b: b.perAction[action]?.stepAccuracy ?? null,
    });
  for (const app of [...new Set([...Object.keys(a.perApp), ...Object.keys(b.perApp)])].sort())
    rows.push({
      figure: `stepAccuracy@${app}`,
      metric: "stepAccuracy",
      scope: "app",
      of: app,
      a: a.perApp[app]?.stepAccuracy ?? null,
      b: b.perApp[app]?.stepAccuracy ?? null,
    });
  const out = rows.map((row): FigureDelta => {
    const delta = row.a === null || row.b === null ? null : row.b - row.a;
    return { ...row, delta, points: pointsChange(row.figure, delta) };
  });
  // A stable sort: equal changes keep the order above.
  return out.sort(byChange);
}

/** A step one run matched and the other did not. `regression`: a matched it, b did not. */
export const stepChangeSchema = z.object({
  trajectoryId: z.string(),
  step: z.number().int(),
  app: z.string(),
  action: z.string(),
  regression: z.boolean(),
});
export type StepChange = z.infer<typeof stepChangeSchema>;

/** Two runs compared: `a` is the older (by start time) and `b` the newer, whichever order they were asked for in. */
export const evalCompareSchema = z.object({
  a: evalRunViewSchema,
  b: evalRunViewSchema,
  /** ordered by `points`, regressions first (compareFigures) */
  figures: z.array(
    z.object({
      figure: z.string(),
      metric: z.enum(COMPARE_METRICS),
      scope: z.enum(["all", "app", "action"]),
      of: z.string().nullable(),
      a: z.number().nullable(),
      b: z.number().nullable(),
      delta: z.number().nullable(),
      points: z.number().nullable(),
    }),
  ),
  /** regressions first */
  steps: z.array(stepChangeSchema),
});
export type EvalCompare = z.infer<typeof evalCompareSchema>;

// ── Wire shapes of the /api/eval routes ──────────────────────────────────────────────────────────

export const evalEndpointsSchema = z.object({ endpoints: z.array(evalEndpointViewSchema) });
export const evalEndpointAnswerSchema = z.object({ endpoint: evalEndpointViewSchema });
export const evalRunsSchema = z.object({ runs: z.array(evalRunViewSchema) });
export const evalRunAnswerSchema = z.object({ run: evalRunViewSchema });
export const evalCommandInput = z.object({ command: z.enum(["pause", "resume", "cancel"]) });

/** Failed steps shown on one page of the gallery. */
export const FAILURES_PER_PAGE = 12;

/** The failure gallery's filters (all optional) and its page (1-based). */
export const evalFailuresQuery = z.object({
  app: z.string().max(200).optional(),
  action: z.string().max(40).optional(),
  failure: failureKindSchema.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  perPage: z.coerce.number().int().min(1).max(48).default(FAILURES_PER_PAGE),
});
export type EvalFailuresQuery = z.input<typeof evalFailuresQuery>;

/** One failed step: both actions in ORIGINAL screenshot pixels (predicted null: nothing could be read). */
export const evalFailureSchema = z.object({
  trajectoryId: z.string(),
  step: z.number().int(),
  app: z.string(),
  instruction: z.string(),
  gtAction: z.string(),
  predictedAction: z.string().nullable(),
  failure: failureKindSchema,
  response: z.string(),
  screenshot: z.object({ sha256: z.string(), width: z.number().int(), height: z.number().int() }),
  groundTruth: z.object({ toolCall: toolCallSchema, box: boxSchema.nullable() }),
  predicted: toolCallSchema.nullable(),
});
export type EvalFailure = z.infer<typeof evalFailureSchema>;
/**
 * One page of the gallery: its failures, how many match the filters (`total`), and per filter the failures each
 * option would show with the other two filters kept (so a count beside "outside the box" is what choosing it gives).
 */
export const evalFailuresSchema = z.object({
  failures: z.array(evalFailureSchema),
  total: z.number().int(),
  page: z.number().int(),
  perPage: z.number().int(),
  counts: z.object({
    app: z.record(z.string(), z.number().int()),
    action: z.record(z.string(), z.number().int()),
    failure: z.record(z.string(), z.number().int()),
  }),
});
export type EvalFailuresPage = z.infer<typeof evalFailuresSchema>;

/** "Send to annotation": to whom (an email), and optionally only trajectories whose first failure is at this action type / app. */
export const sendToAnnotationInput = z.object({
  assignee: text("email").trim().toLowerCase().email(),
  action: z.string().max(40).optional(),
  app: z.string().max(200).optional(),
});
export type SendToAnnotationInput = z.input<typeof sendToAnnotationInput>;
export const sendResultSchema = z.object({
  trajectories: z.number().int(),
  suggestions: z.number().int(),
  skipped: z.number().int(),
});
export type SendResult = z.infer<typeof sendResultSchema>;

export const evalCompareQuery = z.object({ a: z.string().min(1).max(100), b: z.string().min(1).max(100) });
