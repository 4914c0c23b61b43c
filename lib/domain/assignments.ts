import { z } from "zod";
import { roleSchema } from "./permissions";
import { text } from "./limits";

// Wire shapes of the assignments API: the route parses and answers with these, the client sends and parses them.

/** POST /api/assignments: give trajectories to a person (their email), or back to the pool (null). */
export const assignInput = z.object({
  trajectoryIds: z.array(text("id").min(1)).min(1, "choose at least one trajectory").max(1000),
  assignee: text("email").trim().toLowerCase().email().nullable(),
  /**
   * Leave out the chosen trajectories that are near-duplicates of another (in a group, not its keeper:
   * lib/domain/near-duplicates.ts), so nobody corrects the same run twice; they are counted in `skipped`.
   */
  skipNearDuplicates: z.boolean().default(false),
});
export type AssignInput = z.input<typeof assignInput>;

export const assignResultSchema = z.object({
  assigned: z.number().int(),
  unchanged: z.number().int(),
  /** Near-duplicates left out; only when skipNearDuplicates was asked. */
  skipped: z.number().int().optional(),
});
export type AssignResult = z.infer<typeof assignResultSchema>;

/** GET /api/assignments: the people work can go to (active annotators and admins). */
export const assignablePeopleSchema = z.object({ people: z.array(z.object({ email: z.string(), name: z.string(), role: roleSchema })) });
export type AssignablePerson = z.infer<typeof assignablePeopleSchema>["people"][number];
