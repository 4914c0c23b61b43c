import { z } from "zod";

/**
 * Where a field's value came from. A field with no entry holds what was imported (the model's
 * output in the source file). `prefilled`: written by a pre-annotation job, no person has touched it.
 */
export const FIELD_SOURCES = ["typed", "suggested-accepted", "suggested-edited", "prefilled"] as const;
export const fieldSourceSchema = z.enum(FIELD_SOURCES);
export type FieldSource = z.infer<typeof fieldSourceSchema> | "imported";

/** The fields whose provenance is tracked. */
export const PROVENANCE_FIELDS = [
  "thought.state",
  "thought.nextAction",
  "thought.purpose",
  "thought.text",
  "clearAction",
  "toolCall",
] as const;
export type ProvenanceField = (typeof PROVENANCE_FIELDS)[number];

export const fieldProvenanceSchema = z.object({
  source: fieldSourceSchema,
  /** the suggestion it came from, its prompt file and model */
  suggestionId: z.string().optional(),
  prompt: z.string().optional(),
  model: z.string().optional(),
  at: z.string(),
});
export type FieldProvenance = z.infer<typeof fieldProvenanceSchema>;
export const stepProvenanceSchema = z.partialRecord(z.enum(PROVENANCE_FIELDS), fieldProvenanceSchema);
export type StepProvenance = z.infer<typeof stepProvenanceSchema>;
