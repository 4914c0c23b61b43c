import { z } from "zod";

// Time and effort (issue 26 item 5): how long people actually work on a step. The editor counts the
// gaps between a person's own input events; a gap longer than IDLE_AFTER_MS counts nothing (they were
// away), and time with the page hidden or without focus counts nothing either. Attributed to the step
// that was on screen when the gap began.

/** A gap between two input events longer than this is idle time, not work. */
export const IDLE_AFTER_MS = 60_000;
/** The editor reports what it counted this often (and when the page is hidden or closed). */
export const EFFORT_FLUSH_MS = 15_000;
/**
 * The most active time one report may carry per step: a report covers at most one flush interval
 * while the page is open, or the time since the last one when it is hidden; a stalled timer or a
 * sleeping laptop can stretch that, never past this.
 */
export const MAX_REPORTED_MS = 5 * 60_000;

/**
 * Counts active milliseconds per step from input events. `event(now, step)` at every keystroke, click,
 * wheel or pointer move; `pause()` when the page loses focus or is hidden (the next event starts a new
 * span); `take()` returns what was counted since the last take and forgets it.
 */
export class ActiveClock {
  #last: { at: number; step: string } | null = null;
  #counted = new Map<string, number>();

  constructor(private readonly idleAfterMs = IDLE_AFTER_MS) {}

  event(now: number, step: string): void {
    const last = this.#last;
    if (last && now >= last.at) {
      const gap = now - last.at;
      if (gap <= this.idleAfterMs) this.#counted.set(last.step, (this.#counted.get(last.step) ?? 0) + gap);
    }
    this.#last = { at: now, step };
  }

  pause(): void {
    this.#last = null;
  }

  take(): Map<string, number> {
    const out = this.#counted;
    this.#counted = new Map();
    return out;
  }
}

/** POST /api/effort: what the editor counted since its last report, per step of one trajectory. */
export const effortReportInput = z
  .object({
    trajectoryId: z.string().min(1).max(64),
    steps: z
      .array(z.object({ stepId: z.string().min(1).max(64), activeMs: z.number().int().min(1).max(MAX_REPORTED_MS) }).strict())
      .min(1)
      .max(50),
  })
  .strict();
export type EffortReportInput = z.infer<typeof effortReportInput>;
export const effortReportAnswer = z.object({ recorded: z.number().int() });

const timeRow = z.object({ steps: z.number().int(), medianMs: z.number().nullable(), totalMs: z.number(), edits: z.number().int() });
/** GET /api/dashboard/effort: median active time per step (one person's time on one step), by person, app and action type. */
export const effortFiguresSchema = z.object({
  idleAfterMs: z.number().int(),
  overall: timeRow,
  byPerson: z.array(timeRow.extend({ email: z.string() })),
  byApp: z.array(timeRow.extend({ app: z.string() })),
  byActionType: z.array(timeRow.extend({ actionType: z.string() })),
});
export type EffortFigures = z.infer<typeof effortFiguresSchema>;

/** The median of a list of numbers (the mean of the middle two for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
