import { z } from "zod";
import { stepAnnotationSchema, trajectoryAnnotationSchema } from "./annotation";
import { text } from "./limits";
import { taskStatusSchema } from "./status";
import { trajectoryViewSchema } from "./views";

// Adjudication (issue 26 item 3): a reviewer compares the overlap copies of one trajectory and approves
// the values they choose, field by field; the copies stay as alternatives.

/** One person's copy as an alternative: who, where it stands, and their annotation (coordinates in original pixels). */
export const alternativeSchema = z.object({
  copyId: z.string(),
  annotator: z.string().nullable(),
  status: taskStatusSchema,
  ...trajectoryAnnotationSchema.shape,
  steps: z.array(stepAnnotationSchema.extend({ index: z.number().int().nonnegative() })),
});
export type Alternative = z.infer<typeof alternativeSchema>;

/** GET /api/trajectories/:id/adjudication: the trajectory (the model's output and its current annotation) and every copy. */
export const adjudicationViewSchema = z.object({ trajectory: trajectoryViewSchema, copies: z.array(alternativeSchema) });
export type AdjudicationView = z.infer<typeof adjudicationViewSchema>;

/**
 * POST /api/trajectories/:id/adjudication: the values chosen (taken from a copy or edited), one
 * annotation per step in order, the trajectory's own fields, and the version the reviewer saw.
 * `sources[i][field]` names the copy a value was taken from (or "edited"), kept in the audit trail.
 */
export const adjudicateInput = z.object({
  version: z.number().int().positive(),
  trajectory: trajectoryAnnotationSchema,
  steps: z.array(stepAnnotationSchema).min(1),
  sources: z.array(z.record(text("id"), text("id"))).optional(),
});
export type AdjudicateInput = z.input<typeof adjudicateInput>;
