import type { StepAnnotation, TrajectoryAnnotation } from "./annotation";
import type { ScreenElement } from "./elements";
import { isPointInBox, swipeDirection, type Box, type Point } from "./geometry";
import { isPointless, type ActionType, type StepToolCall } from "./tool-call";

// Agreement between people who corrected the same trajectory independently (issue 26, item 2).
// Generic tools compare labels as strings; two corrections of a GUI step agree when their actions
// would do the same thing on that screen: the same action type, points in the same target, boxes that
// overlap, the same typed text. Computed here once, for the dashboard, the API and the CLI alike.

/** The tolerances of a comparison; coordinates are ORIGINAL screenshot pixels. */
export type AgreementOptions = {
  /** Two points with no common box or element agree within this distance (px). */
  pointTolerancePx: number;
  /** Two boxes agree at this intersection over union or more. */
  boxIou: number;
  /** Two thoughts agree at this similarity (thoughtSimilarity, 0..1) or more. */
  thoughtThreshold: number;
};

/**
 * 28 px is a fingertip's width on a 1080-px-wide phone screenshot (about 7 mm on a 6.5" screen: 2.6 % of
 * the width); 0.5 IoU is the detection convention; 0.7 on character bigrams keeps rephrasings of one
 * sentence together and parts that name another target apart (see agreement.test.ts).
 */
export const DEFAULT_AGREEMENT_OPTIONS: AgreementOptions = { pointTolerancePx: 28, boxIou: 0.5, thoughtThreshold: 0.7 };

/** The step fields compared, in the order the dashboard lists them. */
export const STEP_AGREEMENT_FIELDS = ["actionType", "point", "box", "text", "verdict", "thought"] as const;
export type StepAgreementField = (typeof STEP_AGREEMENT_FIELDS)[number];

/** The trajectory fields compared. */
export const TRAJECTORY_AGREEMENT_FIELDS = ["outcome", "cut", "discard"] as const;
export type TrajectoryAgreementField = (typeof TRAJECTORY_AGREEMENT_FIELDS)[number];

/** Per field: did the two agree? A field absent from the record was not comparable on this step (e.g. text on two clicks). */
export type StepAgreement = Partial<Record<StepAgreementField, boolean>>;

/** Intersection over union of two boxes [x1, y1, x2, y2]; 0 when either has no area. */
export function boxIou([ax1, ay1, ax2, ay2]: Box, [bx1, by1, bx2, by2]: Box): number {
  const iw = Math.max(0, Math.min(ax2, bx2) - Math.max(ax1, bx1));
  const ih = Math.max(0, Math.min(ay2, by2) - Math.max(ay1, by1));
  const inter = iw * ih;
  const union = (ax2 - ax1) * (ay2 - ay1) + (bx2 - bx1) * (by2 - by1) - inter;
  return union > 0 ? inter / union : 0;
}

/** Text compared as a person means it: Unicode NFKC, case folded, runs of white space as one space, trimmed. */
export function normalizeTypedText(s: string): string {
  return s.normalize("NFKC").toLocaleLowerCase("en-US").replace(/\s+/gu, " ").trim();
}

/** The characters a thought's meaning lives in: NFKC, lower case, letters and digits only (any script). */
function meaningChars(s: string): string[] {
  return Array.from(
    s
      .normalize("NFKC")
      .toLocaleLowerCase("en-US")
      .replace(/[^\p{L}\p{N}]+/gu, ""),
  );
}

/**
 * Similarity of two thoughts, 0..1: the Dice coefficient of their character-bigram multisets after
 * meaningChars (Sørensen-Dice on bigrams). Character bigrams work the same for Chinese, which has no
 * spaces between words, and for English; punctuation, spacing and case do not count. Two empty texts are 1;
 * one empty text is 0; a one-character text is compared as its single character.
 */
export function thoughtSimilarity(a: string, b: string): number {
  const ca = meaningChars(a);
  const cb = meaningChars(b);
  if (ca.length === 0 && cb.length === 0) return 1;
  if (ca.length === 0 || cb.length === 0) return 0;
  const grams = (c: string[]) => (c.length === 1 ? [c[0]!] : c.slice(1).map((ch, i) => c[i]! + ch));
  const counts = new Map<string, number>();
  const ga = grams(ca);
  const gb = grams(cb);
  for (const g of ga) counts.set(g, (counts.get(g) ?? 0) + 1);
  let shared = 0;
  for (const g of gb) {
    const left = counts.get(g) ?? 0;
    if (left > 0) {
      shared += 1;
      counts.set(g, left - 1);
    }
  }
  return (2 * shared) / (ga.length + gb.length);
}

/** The point an action acts at (a swipe's start), or null for actions without one and taps not yet placed. */
function actionPoint(call: StepToolCall): Point | null {
  if (isPointless(call)) return null;
  if (call.action === "click" || call.action === "long_press" || call.action === "swipe") return call.coordinate;
  return null;
}

function actionText(call: StepToolCall): string | null {
  if (call.action === "type" || call.action === "key" || call.action === "open" || call.action === "answer") return call.text;
  return null;
}

function boxArea([x1, y1, x2, y2]: Box): number {
  return (x2 - x1) * (y2 - y1);
}

/** The smallest element whose bounds hold the point (the one a tap there would hit), or null. */
function elementAt(p: Point, elements: readonly ScreenElement[]): ScreenElement | null {
  let best: ScreenElement | null = null;
  for (const e of elements) if (isPointInBox(p, e.bbox) && (!best || boxArea(e.bbox) < boxArea(best.bbox))) best = e;
  return best;
}

/**
 * Do two points name the same target? In this order: when either person drew a target box, both points
 * must lie in one of those boxes (a box is the person's statement of what the target is, so the pixel
 * distance no longer matters); else, when the screen's elements are known, both points must hit the same
 * smallest element; else they must lie within the tolerance.
 */
export function pointsAgree(
  pa: Point,
  pb: Point,
  ctx: { boxA: Box | null; boxB: Box | null; elements?: readonly ScreenElement[] },
  opts: AgreementOptions = DEFAULT_AGREEMENT_OPTIONS,
): boolean {
  const boxes = [ctx.boxA, ctx.boxB].filter((b): b is Box => b !== null);
  if (boxes.length > 0) return boxes.some((b) => isPointInBox(pa, b) && isPointInBox(pb, b));
  if (ctx.elements && ctx.elements.length > 0) {
    const ea = elementAt(pa, ctx.elements);
    if (ea !== null) return ea === elementAt(pb, ctx.elements);
  }
  return Math.hypot(pa[0] - pb[0], pa[1] - pb[1]) <= opts.pointTolerancePx;
}

/**
 * How two corrections of one step agree, field by field. The point is compared when both actions have
 * one (a swipe's start, and its direction must match too); the box when either drew one (one box
 * against none disagrees); the text when both actions carry text; the verdict, action type and thought
 * always.
 */
export function stepAgreement(
  a: StepAnnotation,
  b: StepAnnotation,
  elements?: readonly ScreenElement[],
  opts: AgreementOptions = DEFAULT_AGREEMENT_OPTIONS,
): StepAgreement {
  const out: StepAgreement = {
    actionType: a.toolCall.action === b.toolCall.action,
    verdict: a.verdict === b.verdict,
    thought: thoughtSimilarity(a.thought.text, b.thought.text) >= opts.thoughtThreshold,
  };
  const pa = actionPoint(a.toolCall);
  const pb = actionPoint(b.toolCall);
  if (pa && pb) {
    let same = pointsAgree(pa, pb, { boxA: a.box, boxB: b.box, elements }, opts);
    if (same && a.toolCall.action === "swipe" && b.toolCall.action === "swipe")
      same =
        swipeDirection(a.toolCall.coordinate, a.toolCall.coordinate2) === swipeDirection(b.toolCall.coordinate, b.toolCall.coordinate2);
    out.point = same;
  }
  if (a.box || b.box) out.box = a.box !== null && b.box !== null && boxIou(a.box, b.box) >= opts.boxIou;
  const ta = actionText(a.toolCall);
  const tb = actionText(b.toolCall);
  if (ta !== null && tb !== null) out.text = normalizeTypedText(ta) === normalizeTypedText(tb);
  return out;
}

/**
 * How two people's trajectory-level answers agree: the outcome (when both set one), the cut (the
 * number of steps kept for training, null meaning all of `stepCount`), and the discard.
 */
export function trajectoryAgreement(
  a: TrajectoryAnnotation,
  b: TrajectoryAnnotation,
  stepCount: number,
): Partial<Record<TrajectoryAgreementField, boolean>> {
  const kept = (t: TrajectoryAnnotation) => (t.cutAfter === null ? stepCount : Math.min(t.cutAfter + 1, stepCount));
  const out: Partial<Record<TrajectoryAgreementField, boolean>> = { cut: kept(a) === kept(b), discard: a.isDiscarded === b.isDiscarded };
  if (a.outcome !== null && b.outcome !== null) out.outcome = a.outcome === b.outcome;
  return out;
}

/**
 * Cohen's kappa for two raters over any set of categories: (p_o - p_e) / (1 - p_e), p_e from each
 * rater's own marginals. Null with no pairs, or when chance agreement is total (both always gave one
 * and the same category): kappa is undefined there.
 */
export function cohensKappaOf(pairs: readonly (readonly [string, string])[]): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  const left = new Map<string, number>();
  const right = new Map<string, number>();
  let same = 0;
  for (const [x, y] of pairs) {
    if (x === y) same += 1;
    left.set(x, (left.get(x) ?? 0) + 1);
    right.set(y, (right.get(y) ?? 0) + 1);
  }
  let pe = 0;
  for (const [c, k] of left) pe += (k / n) * ((right.get(c) ?? 0) / n);
  if (pe === 1) return null;
  return (same / n - pe) / (1 - pe);
}

/**
 * Krippendorff's alpha for nominal data, any number of raters, missing values allowed: `units[u]` holds
 * the values the raters gave unit u (null: that rater gave none). Units with fewer than two values are
 * not pairable and are left out. alpha = 1 - D_o / D_e from the coincidence matrix (Krippendorff 2011,
 * "Computing Krippendorff's Alpha-Reliability", section C). Null when fewer than two values are
 * pairable or every pairable value is the same category (D_e = 0).
 */
export function krippendorffAlphaNominal(units: readonly (readonly (string | null)[])[]): number | null {
  /** o_cc summed (the coincidences within a category) and n_c per category */
  let agreeing = 0;
  const nc = new Map<string, number>();
  for (const unit of units) {
    const values = unit.filter((v): v is string => v !== null);
    const m = values.length;
    if (m < 2) continue;
    const counts = new Map<string, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    for (const [c, k] of counts) {
      agreeing += (k * (k - 1)) / (m - 1);
      nc.set(c, (nc.get(c) ?? 0) + k);
    }
  }
  let n = 0;
  let sameByChance = 0;
  for (const k of nc.values()) {
    n += k;
    sameByChance += k * (k - 1);
  }
  if (n < 2) return null;
  const expected = n * (n - 1) - sameByChance;
  if (expected === 0) return null;
  return ((n - 1) * agreeing - sameByChance) / expected;
}

// ── The report: per pair of people, per app, per action type ─────────────────────────────────────

/** One person's independent correction of one trajectory. */
export type AnnotationCopy = {
  trajectoryId: string;
  /** the person's id (or any stable name) */
  person: string;
  app: string;
  trajectory: TrajectoryAnnotation;
  steps: readonly StepAnnotation[];
  /** the screen's elements per step index, when the import brought them */
  elements?: readonly (readonly ScreenElement[] | undefined)[];
};

/** Agreement on one field: how many comparisons, how many agreed, their rate, and kappa for categorical fields. */
export type FieldFigure = { compared: number; agreed: number; rate: number | null; kappa?: number | null };
export type FieldFigures = Record<StepAgreementField | TrajectoryAgreementField, FieldFigure>;

export type AgreementReport = {
  options: AgreementOptions;
  overall: FieldFigures;
  byPair: { a: string; b: string; trajectories: number; steps: number; fields: FieldFigures }[];
  byApp: { app: string; fields: FieldFigures }[];
  /** a step pair counts under each of its two action types (once when they are the same) */
  byActionType: { actionType: ActionType; fields: FieldFigures }[];
  /** Krippendorff's alpha across every person, per categorical field (steps for action type and verdict, trajectories for outcome) */
  alpha: { actionType: number | null; verdict: number | null; outcome: number | null };
  /** trajectories corrected by two people or more */
  trajectories: number;
};

const ALL_FIELDS = [...STEP_AGREEMENT_FIELDS, ...TRAJECTORY_AGREEMENT_FIELDS] as const;
const CATEGORICAL: Partial<Record<(typeof ALL_FIELDS)[number], true>> = { actionType: true, verdict: true, outcome: true };

/** Counts per field with the label pairs kappa needs; turned into FieldFigures at the end. */
class Tally {
  readonly counts = new Map<string, { compared: number; agreed: number; pairs: [string, string][] }>();
  add(field: string, agreed: boolean, labels?: [string, string]): void {
    const c = this.counts.get(field) ?? { compared: 0, agreed: 0, pairs: [] };
    c.compared += 1;
    if (agreed) c.agreed += 1;
    if (labels) c.pairs.push(labels);
    this.counts.set(field, c);
  }
  figures(): FieldFigures {
    const out = {} as FieldFigures;
    for (const f of ALL_FIELDS) {
      const c = this.counts.get(f) ?? { compared: 0, agreed: 0, pairs: [] };
      const fig: FieldFigure = { compared: c.compared, agreed: c.agreed, rate: c.compared === 0 ? null : c.agreed / c.compared };
      if (CATEGORICAL[f]) fig.kappa = cohensKappaOf(c.pairs);
      out[f] = fig;
    }
    return out;
  }
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const it of items) out.set(key(it), [...(out.get(key(it)) ?? []), it]);
  return out;
}

/**
 * The agreement figures of a set of copies: every pair of people who corrected the same trajectory is
 * compared step by step (steps at the same index; a step only one of them has is not compared) and on
 * the trajectory's own fields. Pairs are named in sorted order (a < b). A person with two copies of one
 * trajectory is our bug (leases never give one person two copies): refused.
 */
export function agreementReport(copies: readonly AnnotationCopy[], opts: AgreementOptions = DEFAULT_AGREEMENT_OPTIONS): AgreementReport {
  const overall = new Tally();
  const pairs = new Map<string, { tally: Tally; trajectories: number; steps: number }>();
  const apps = new Map<string, Tally>();
  const types = new Map<ActionType, Tally>();
  const typeUnits: (string | null)[][] = [];
  const verdictUnits: (string | null)[][] = [];
  const outcomeUnits: (string | null)[][] = [];
  let overlapped = 0;

  for (const [trajectoryId, group] of groupBy(copies, (c) => c.trajectoryId)) {
    const people = group.map((c) => c.person);
    if (new Set(people).size !== people.length) throw new Error(`trajectory ${trajectoryId}: one person has two copies`);
    if (group.length < 2) continue;
    overlapped += 1;
    const sorted = [...group].sort((x, y) => (x.person < y.person ? -1 : x.person > y.person ? 1 : 0));
    const stepCount = Math.max(...sorted.map((c) => c.steps.length));
    for (let i = 0; i < stepCount; i++) {
      typeUnits.push(sorted.map((c) => c.steps[i]?.toolCall.action ?? null));
      verdictUnits.push(sorted.map((c) => c.steps[i]?.verdict ?? null));
    }
    outcomeUnits.push(sorted.map((c) => c.trajectory.outcome));
    for (let x = 0; x < sorted.length; x++) {
      for (let y = x + 1; y < sorted.length; y++) {
        const a = sorted[x]!;
        const b = sorted[y]!;
        const key = `${a.person}\u0000${b.person}`;
        const pair = pairs.get(key) ?? { tally: new Tally(), trajectories: 0, steps: 0 };
        pairs.set(key, pair);
        pair.trajectories += 1;
        const app = apps.get(a.app) ?? new Tally();
        apps.set(a.app, app);
        const tallies = [overall, pair.tally, app];
        const trajectory = trajectoryAgreement(a.trajectory, b.trajectory, Math.min(a.steps.length, b.steps.length));
        for (const f of TRAJECTORY_AGREEMENT_FIELDS) {
          const agreed = trajectory[f];
          if (agreed === undefined) continue;
          const labels: [string, string] | undefined =
            f === "outcome" ? [a.trajectory.outcome ?? "", b.trajectory.outcome ?? ""] : undefined;
          for (const t of tallies) t.add(f, agreed, labels);
        }
        const common = Math.min(a.steps.length, b.steps.length);
        for (let i = 0; i < common; i++) {
          const sa = a.steps[i]!;
          const sb = b.steps[i]!;
          pair.steps += 1;
          const fields = stepAgreement(sa, sb, a.elements?.[i] ?? b.elements?.[i], opts);
          const byType = [...new Set([sa.toolCall.action, sb.toolCall.action])].map((t) => {
            const tally = types.get(t) ?? new Tally();
            types.set(t, tally);
            return tally;
          });
          for (const f of STEP_AGREEMENT_FIELDS) {
            const agreed = fields[f];
            if (agreed === undefined) continue;
            const labels: [string, string] | undefined =
              f === "actionType" ? [sa.toolCall.action, sb.toolCall.action] : f === "verdict" ? [sa.verdict, sb.verdict] : undefined;
            for (const t of [...tallies, ...byType]) t.add(f, agreed, labels);
          }
        }
      }
    }
  }

  const byName = <T extends string>(m: Map<T, Tally>) => [...m].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return {
    options: opts,
    overall: overall.figures(),
    byPair: [...pairs].map(([key, p]) => {
      const [a, b] = key.split("\u0000") as [string, string];
      return { a, b, trajectories: p.trajectories, steps: p.steps, fields: p.tally.figures() };
    }),
    byApp: byName(apps).map(([app, t]) => ({ app, fields: t.figures() })),
    byActionType: byName(types).map(([actionType, t]) => ({ actionType, fields: t.figures() })),
    alpha: {
      actionType: krippendorffAlphaNominal(typeUnits),
      verdict: krippendorffAlphaNominal(verdictUnits),
      outcome: krippendorffAlphaNominal(outcomeUnits),
    },
    trajectories: overlapped,
  };
}
