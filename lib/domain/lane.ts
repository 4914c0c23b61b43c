// The first-error fast lane: a second way to work a task (issue 24 item 4). A person plays the trajectory
// step by step, sets the outcome and marks the first step where the model went wrong (or none). The steps
// before it become GOOD, the marked one gets a verdict (and may be corrected on the spot), and what comes
// after it is cut or queued for full correction, as the project's admin chose. The labels this writes are
// ordinary verdicts, so process labels and first_error (lib/domain/process-label.ts) read them unchanged.
import { z } from "zod";
import { sameJson } from "./dialect";
import { outcomeSchema, type Lane, type Verdict } from "./trajectory";
import type { StepToolCall } from "./tool-call";

export { LANES, laneSchema, type Lane } from "./trajectory";

/** What the fast lane does with the steps after the first error: `cut` them off, or `queue` the task for full correction. */
export const FAST_LANE_AFTER = ["cut", "queue"] as const;
export const fastLaneAfterSchema = z.enum(FAST_LANE_AFTER);
export type FastLaneAfter = z.infer<typeof fastLaneAfterSchema>;

/** A project's lane settings (admin). */
export const projectLaneSettingsSchema = z.object({ fastLaneAfter: fastLaneAfterSchema });
export type ProjectLaneSettings = z.infer<typeof projectLaneSettingsSchema>;
/** PUT /api/projects/:id/lane: the settings. */
export const saveProjectLaneInput = projectLaneSettingsSchema;

/** One project as the admin's settings list shows it. */
export const projectLaneViewSchema = z
  .object({ id: z.string(), name: z.string(), trajectories: z.number().int().nonnegative() })
  .merge(projectLaneSettingsSchema);
export const projectLaneListSchema = z.object({ projects: z.array(projectLaneViewSchema) });
export type ProjectLaneView = z.infer<typeof projectLaneViewSchema>;

/**
 * POST /api/trajectories/:id/fast-lane: hand the trajectory in through the fast lane. `version` is the
 * trajectory's version the person worked from; `firstError` the 0-based index of the first step where the
 * model went wrong, or null for "none".
 */
export const fastLaneSubmitInput = z.object({
  version: z.number().int().positive(),
  outcome: outcomeSchema,
  firstError: z.number().int().nonnegative().nullable(),
});
export type FastLaneSubmitInput = z.infer<typeof fastLaneSubmitInput>;

type LaneStep = { index: number; verdict: Verdict; toolCall: StepToolCall; original: { toolCall: StepToolCall } };

/** Why the fast lane cannot be applied; each names the step (0-based index) where there is one. */
export type FastLaneProblem =
  { code: "lane.firstErrorPastEnd"; stepIndex: number; stepCount: number } | { code: "lane.correctedBeforeError"; stepIndex: number };

/** What applying the fast lane writes: each step's new verdict (only those that change), the cut, and whether the task waits for full correction. */
export type FastLanePlan = {
  verdicts: { index: number; verdict: Verdict }[];
  /** The new cut (index of the last kept step), or `keep` to leave the trajectory's own. */
  cutAfter: number | null | "keep";
  /** Steps after the first error still need a person: the task goes back to the pool, in progress. */
  isQueued: boolean;
};

/**
 * The labels the fast lane gives, from the steps as they are (0-based indexes, original pixels):
 * - steps before `firstError`: `good` (a step whose tool call a person replaced cannot be good: a problem);
 * - the step at `firstError`: `corrected` when a person replaced its tool call on the spot, else `harmful`,
 *   so its process label is -1 either way and first_error names it (1-based: firstError + 1);
 * - steps after it: with `cut`, cut off (cutAfter = firstError) and left as they are; with `queue`, left as
 *   they are and the task queued for full correction (when there is any step after it).
 * `firstError` null: every step `good`, the cut kept, nothing queued.
 */
export function fastLanePlan(
  steps: readonly LaneStep[],
  firstError: number | null,
  after: FastLaneAfter,
): { ok: true; plan: FastLanePlan } | { ok: false; problems: FastLaneProblem[] } {
  const ordered = [...steps].sort((a, b) => a.index - b.index);
  if (firstError !== null && firstError >= ordered.length) {
    return { ok: false, problems: [{ code: "lane.firstErrorPastEnd", stepIndex: firstError, stepCount: ordered.length }] };
  }
  const end = firstError ?? ordered.length;
  const isReplaced = (s: LaneStep) => !sameJson(s.toolCall, s.original.toolCall);
  const problems: FastLaneProblem[] = ordered
    .filter((s) => s.index < end && isReplaced(s))
    .map((s) => ({ code: "lane.correctedBeforeError", stepIndex: s.index }));
  if (problems.length > 0) return { ok: false, problems };
  const verdicts: { index: number; verdict: Verdict }[] = [];
  for (const s of ordered) {
    const next: Verdict | null = s.index < end ? "good" : s.index === firstError ? (isReplaced(s) ? "corrected" : "harmful") : null;
    if (next !== null && next !== s.verdict) verdicts.push({ index: s.index, verdict: next });
  }
  const hasRest = firstError !== null && firstError < ordered.length - 1;
  return {
    ok: true,
    plan: {
      verdicts,
      cutAfter: firstError === null || after === "queue" ? "keep" : firstError,
      isQueued: after === "queue" && hasRest,
    },
  };
}

/** The lane recorded when work is handed in `how`, after it last took `previous` (null: never handed in). */
export function laneAfterHandIn(previous: Lane | null, how: "fast" | "full"): Lane {
  if (how === "fast") return "fast";
  return previous === "fast" || previous === "fast-then-full" ? "fast-then-full" : "full";
}

/**
 * The first error a fast-lane hand-in marked, read back from the verdicts it wrote (0-based step index):
 * the first step that is `harmful` or `corrected` (the steps before it are `good`), or null when the
 * person said the model made no error. Only meaningful for work whose lane is `fast`.
 */
export function fastLaneFirstError(steps: readonly { index: number; verdict: Verdict }[]): number | null {
  const marked = steps.filter((s) => s.verdict === "harmful" || s.verdict === "corrected").map((s) => s.index);
  return marked.length === 0 ? null : Math.min(...marked);
}
