import { z } from "zod";
import { TASK_STATUSES } from "./status";
import { VERDICTS } from "./trajectory";

const statusCounts = z.object(
  Object.fromEntries(TASK_STATUSES.map((s) => [s, z.number()])) as Record<(typeof TASK_STATUSES)[number], z.ZodNumber>,
);

/** What the progress and quality page shows; built by lib/server/annotate/dashboard.ts, parsed by the client. */
export const dashboardSchema = z.object({
  byApp: z.array(z.object({ app: z.string() }).extend(statusCounts.shape)),
  verdicts: z.object(Object.fromEntries(VERDICTS.map((v) => [v, z.number()])) as Record<(typeof VERDICTS)[number], z.ZodNumber>),
  annotators: z.array(
    z.object({
      email: z.string(),
      assigned: z.number(),
      inProgress: z.number(),
      submitted: z.number(),
      approved: z.number(),
      sentBack: z.number(),
    }),
  ),
  daily: z.array(z.object({ day: z.string(), stepEdits: z.number(), submitted: z.number(), approved: z.number(), sentBack: z.number() })),
  review: z.object({ approved: z.number(), sentBack: z.number() }),
  /**
   * Handed-in work by lane (lib/domain/lane.ts), so fast-lane tasks are counted apart from fully corrected
   * ones: `queued` is fast-lane work back in progress, waiting for its full correction.
   */
  lanes: z.object({ full: z.number(), fast: z.number(), fastThenFull: z.number(), queued: z.number() }),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

type DailyRow = Dashboard["daily"][number];

/**
 * The 14-day rows from the first day anything happened (a save, a hand-in, a decision): days before
 * any work existed are left out, so no line rises from a zero nobody worked on. No active day: none.
 */
export function activeDays(daily: readonly DailyRow[]): DailyRow[] {
  const first = daily.findIndex((d) => d.stepEdits + d.submitted + d.approved + d.sentBack > 0);
  return first < 0 ? [] : daily.slice(first);
}

/**
 * The verdict chart's bars (the steps someone judged) and, apart, the steps nobody has judged yet:
 * drawn in one chart, the unreviewed steps dwarf every verdict a person gave.
 */
export function verdictFigures(verdicts: Dashboard["verdicts"]) {
  const judged = VERDICTS.filter((v) => v !== "unreviewed").map((v) => ({ verdict: v, steps: verdicts[v] }));
  const judgedSteps = judged.reduce((n, r) => n + r.steps, 0);
  return { judged, judgedSteps, unreviewed: verdicts.unreviewed };
}
