import { z } from "zod";
import { text } from "./limits";

/**
 * Where a field's value came from. A field with no entry holds what was imported (the model's
 * output in the source file). `prefilled`: written by a pre-annotation job, no person has touched it.
 */
export const FIELD_SOURCES = ["typed", "suggested-accepted", "suggested-edited", "prefilled"] as const;
export const fieldSourceSchema = z.enum(FIELD_SOURCES);
export type FieldSource = z.infer<typeof fieldSourceSchema> | "imported";

/**
 * The sources that mean a person wrote the field: typed it, or accepted (and maybe edited) a
 * suggestion. A job never overwrites a field with one of these.
 */
export const PERSON_SOURCES = ["typed", "suggested-accepted", "suggested-edited"] as const satisfies readonly FieldSource[];

/**
 * The fields whose provenance is tracked: the text and action fields, and the box and verdict, so a
 * save that only draws a box or sets a verdict still leaves a person's mark on the step.
 */
export const PROVENANCE_FIELDS = [
  "thought.state",
  "thought.nextAction",
  "thought.purpose",
  "thought.text",
  "clearAction",
  "toolCall",
  "box",
  "verdict",
] as const;
export type ProvenanceField = (typeof PROVENANCE_FIELDS)[number];

/** The fields a pre-annotation job writes. */
export const PREFILL_FIELDS = [
  "thought.state",
  "thought.nextAction",
  "thought.purpose",
  "thought.text",
] as const satisfies readonly ProvenanceField[];
export type PrefillField = (typeof PREFILL_FIELDS)[number];

/**
 * One field's provenance. Bounded, since a studio-format import reads it from a file: `by` is who
 * wrote it (a person's email, `cli`, or `model-job:<id>`), `at` an ISO 8601 instant.
 */
export const fieldProvenanceSchema = z.object({
  source: fieldSourceSchema,
  /** who wrote the value: the audit trail's actor label (an email for a person) */
  by: text("auditText").optional(),
  /** the suggestion it came from, its prompt file and model */
  suggestionId: text("id").optional(),
  prompt: text("auditText").optional(),
  model: text("auditText").optional(),
  at: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date and time" }),
});
export type FieldProvenance = z.infer<typeof fieldProvenanceSchema>;
export const stepProvenanceSchema = z.partialRecord(z.enum(PROVENANCE_FIELDS), fieldProvenanceSchema);
export type StepProvenance = z.infer<typeof stepProvenanceSchema>;

/** Did a person write this field (typed it or accepted a suggestion into it)? */
export function isWrittenByPerson(entry: FieldProvenance | undefined): boolean {
  return !!entry && (PERSON_SOURCES as readonly string[]).includes(entry.source);
}

/** The fields of a step a person wrote, in PROVENANCE_FIELDS order. */
export function fieldsWrittenByPeople(provenance: StepProvenance): ProvenanceField[] {
  return PROVENANCE_FIELDS.filter((f) => isWrittenByPerson(provenance[f]));
}

/**
 * The one rule for "untouched by people": no field of the step was written by a person. Decided from
 * provenance alone, never from the step's version (a studio-format import starts every step at the
 * version it carries, and a pre-annotated step is at version 2 without any person's work).
 */
export function isUntouchedByPeople(provenance: StepProvenance): boolean {
  return fieldsWrittenByPeople(provenance).length === 0;
}

/** Why a pre-annotation job left a step alone (stored per step, counted in the job's summary). */
export const PREFILL_SKIP_REASONS = [
  /** the trajectory is submitted or approved, and the job was not told to include such work */
  "handed-in",
  /** a person wrote a field of the step (with handed-in work included: a part of its thought) */
  "person-wrote",
  /** the step or its trajectory changed while the model answered */
  "changed-meanwhile",
  /** the step's stored provenance cannot be read, so it is treated as a person's work */
  "provenance-unreadable",
  /** the step (or trajectory) was deleted */
  "gone",
] as const;
export type PrefillSkipReason = (typeof PREFILL_SKIP_REASONS)[number];

/**
 * May a pre-annotation job write this step's thought? By default only into a step no person wrote
 * anything in, of a trajectory not handed in (`isHandedIn`: submitted or approved). With
 * `includePeoplesWork` (an admin's explicit choice) handed-in trajectories and steps people worked on
 * are included, but a thought any part of which a person wrote is still left whole: its four parts
 * belong together, so the job never mixes a person's parts with the model's. `provenance` null: the
 * stored value could not be read.
 */
export function prefillDecision(
  provenance: StepProvenance | null,
  opts: { isHandedIn: boolean; includePeoplesWork: boolean },
): { write: true } | { write: false; reason: PrefillSkipReason } {
  if (opts.isHandedIn && !opts.includePeoplesWork) return { write: false, reason: "handed-in" };
  if (provenance === null) return { write: false, reason: "provenance-unreadable" };
  const isFree = opts.includePeoplesWork ? !PREFILL_FIELDS.some((f) => isWrittenByPerson(provenance[f])) : isUntouchedByPeople(provenance);
  return isFree ? { write: true } : { write: false, reason: "person-wrote" };
}
