import { z } from "zod";
import { roleSchema } from "./permissions";
import { text } from "./limits";

// Wire shapes of the assignments API: the route parses and answers with these, the client sends and parses them.

/** POST /api/assignments: give trajectories to a person (their email), or back to the pool (null). */
export const assignInput = z.object({
  trajectoryIds: z.array(text("id").min(1)).min(1, "choose at least one trajectory").max(1000),
  assignee: text("email").trim().toLowerCase().email().nullable(),
});
export type AssignInput = z.input<typeof assignInput>;

export const assignResultSchema = z.object({ assigned: z.number().int(), unchanged: z.number().int() });
export type AssignResult = z.infer<typeof assignResultSchema>;

/** GET /api/assignments: the people work can go to (active annotators and admins). */
export const assignablePeopleSchema = z.object({ people: z.array(z.object({ email: z.string(), name: z.string(), role: roleSchema })) });
export type AssignablePerson = z.infer<typeof assignablePeopleSchema>["people"][number];
