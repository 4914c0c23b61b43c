import { z } from "zod";
import { STEP_AGREEMENT_FIELDS, TRAJECTORY_AGREEMENT_FIELDS } from "./agreement";
import { text } from "./limits";

// Gold tasks (issue 26 item 4): wire shapes of POST /api/gold, GET and PUT /api/gold/rate and GET /api/dashboard/gold.

/** POST /api/gold: mark approved trajectories as gold tasks (or unmark them). */
export const goldMarkInput = z.object({
  trajectoryIds: z.array(text("id").min(1)).min(1).max(1000),
  isGold: z.boolean().default(true),
});
export type GoldMarkInput = z.input<typeof goldMarkInput>;
export const goldMarkResultSchema = z.object({ changed: z.number().int() });

/** PUT /api/gold/rate: the share 0..1 of each person's takes that are gold tasks, per project; null: none. */
export const goldRateInput = z.object({ project: text("projectName").min(1), rate: z.number().min(0).max(1).nullable() });
export type GoldRateInput = z.input<typeof goldRateInput>;
export const goldRateResultSchema = z.object({ rate: z.number().nullable() });

/** The highest rate the admin's projects page offers (50 %): gold is a sample of a person's work, not most of it. The API takes up to 1. */
export const GOLD_RATE_UI_MAX = 0.5;

/** GET /api/gold/rate: every project's gold rate (null: never set) and how many gold tasks (trajectories marked gold) it has. */
export const goldRatesSchema = z.object({
  projects: z.array(z.object({ project: z.string(), rate: z.number().nullable(), goldTasks: z.number().int().nonnegative() })),
});
export type GoldRates = z.infer<typeof goldRatesSchema>;

/** GET /api/dashboard/gold?threshold=: accuracy 0..1 below which a person is flagged. */
export const goldAccuracyQuery = z.object({ threshold: z.coerce.number().min(0).max(1).optional() });

export const goldAccuracySchema = z.object({
  threshold: z.number(),
  people: z.array(
    z.object({
      email: z.string(),
      /** gold tasks handed in */
      goldTasks: z.number().int(),
      /** agreed comparisons / all comparisons, every field together; null with none */
      accuracy: z.number().nullable(),
      isFlagged: z.boolean(),
      fields: z.array(
        z.object({
          field: z.enum([...STEP_AGREEMENT_FIELDS, ...TRAJECTORY_AGREEMENT_FIELDS]),
          compared: z.number().int(),
          agreed: z.number().int(),
          rate: z.number().nullable(),
        }),
      ),
    }),
  ),
});
export type GoldAccuracy = z.infer<typeof goldAccuracySchema>;
