import { z } from "zod";
import { screenElementsSchema } from "./elements";
import { boxSchema } from "./geometry";
import { text } from "./limits";
import { thoughtPartsSchema } from "./thought";
import { taskStatusSchema } from "./status";
import { stepToolCallSchema } from "./tool-call";
import { stepProvenanceSchema } from "./provenance";

export const TRAJECTORY_SOURCES = ["mobile-r1", "ui-s1", "studio", "demo"] as const;
export type TrajectorySource = (typeof TRAJECTORY_SOURCES)[number];

export const OUTCOMES = ["success", "failure"] as const;
export const outcomeSchema = z.enum(OUTCOMES);
export type Outcome = z.infer<typeof outcomeSchema>;

/**
 * Per-step verdict. `harmful`: the executed action was a mistake; the step stays as context and
 * is never a training target (UI-S1 `annotation: HARMFUL`). `unreviewed` until an annotator looks.
 */
export const VERDICTS = ["unreviewed", "good", "corrected", "harmful", "neutral"] as const;
export const verdictSchema = z.enum(VERDICTS);
export type Verdict = z.infer<typeof verdictSchema>;

/**
 * Which lane a trajectory's work took, as recorded at its last hand-in: `full` (every step corrected in the
 * editor), `fast` (the first-error fast lane, lib/domain/lane.ts), `fast-then-full` (fast lane first, then
 * fully corrected). Null until it was handed in either way.
 */
export const LANES = ["full", "fast", "fast-then-full"] as const;
export const laneSchema = z.enum(LANES);
export type Lane = z.infer<typeof laneSchema>;

export const screenshotRefSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "must be a lower-case hex sha256"),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** Path of the file relative to the export folder (screenshots/<sha>.png), when exported. */
  file: z.string().optional(),
});

/** The model's output for one step as it was imported: never edited. Coordinates in original pixels. */
export const originalOutputSchema = z.object({
  /** Full response text as the model wrote it, when the source had one. */
  response: z.string().optional(),
  thought: z.string().optional(),
  clearAction: z.string().optional(),
  toolCall: stepToolCallSchema,
  /** The target box that came with the import (bbox, else the first candidate), original pixels; the annotator's box may differ. */
  box: boxSchema.optional(),
  /** The action exactly as the source file held it (any dialect), for provenance. */
  rawAction: z.unknown().optional(),
  /** Other per-step fields the source had (step_instruction, subtask, check_options...). */
  extra: z.record(z.string(), z.unknown()).optional(),
  /**
   * The source row's own fields that the ones above do not keep verbatim, under the source format's
   * names: the image path as written (`image`, `screenshot`), `thought` / `subtask` / `action_description`
   * exactly as given (absent when the row had none), the box as written (`bbox`). An export writes an
   * unchanged step back from these (lib/server/export/index.ts).
   */
  row: z.record(z.string(), z.unknown()).optional(),
});
export type OriginalOutput = z.infer<typeof originalOutputSchema>;

/** The highest step version an import accepts (a 32-bit integer column on PostgreSQL). */
export const MAX_STEP_VERSION = 2_147_483_647;

/** One annotated step in the canonical (studio) form. All geometry in original screenshot pixels. */
export const canonicalStepSchema = z.object({
  index: z.number().int().nonnegative(),
  screenshot: screenshotRefSchema,
  original: originalOutputSchema,
  thought: thoughtPartsSchema.extend({ text: z.string() }),
  clearAction: z.string(),
  toolCall: stepToolCallSchema,
  box: boxSchema.nullable(),
  candidateBoxes: z.array(boxSchema),
  /**
   * The screen's elements as imported (an accessibility tree's nodes, boxes in original pixels): the
   * box tool snaps to them. Imported screen data, never edited; absent when the source had none.
   */
  elements: screenElementsSchema.optional(),
  verdict: verdictSchema,
  /**
   * Per field: who wrote it (`by`) and how (typed, suggested-accepted, suggested-edited, prefilled, with
   * the suggestion's prompt and model); a field without an entry holds what was imported. An import
   * writes it back, so a step a person wrote stays a person's work after a move.
   */
  provenance: stepProvenanceSchema.optional(),
  /** How many times the step was written in the studio it was exported from (1: never saved); absent: 1. */
  version: z.number().int().positive().max(MAX_STEP_VERSION).optional(),
  /**
   * The step's process label as the trainer rows carry it (lib/domain/process-label.ts): +1 good, 0 neutral,
   * -1 the model's action was wrong, null nobody reviewed it. Written by the export; absent in older files.
   */
  processLabel: z
    .union([z.literal(1), z.literal(0), z.literal(-1)])
    .nullable()
    .optional(),
});
export type CanonicalStep = z.infer<typeof canonicalStepSchema>;

export const CANONICAL_FORMAT = "trajectory-studio/v1";

/**
 * A release export's lineage of one trajectory: the release (name, number) and the trajectory's
 * annotation version it holds (its trajectory-level version; each step carries its own `version`).
 */
export const lineageSchema = z.object({
  release: z.string(),
  releaseNumber: z.number().int().positive(),
  trajectoryVersion: z.number().int().positive(),
});
export type Lineage = z.infer<typeof lineageSchema>;

/**
 * The editor's address of one step, relative to the studio's URL: `/trajectories/<id>?step=<n>` with
 * n 1-based as the editor's counter shows it (`stepIndex` is the 0-based step index).
 */
export function editorPath(trajectoryId: string, stepIndex: number): string {
  return `/trajectories/${encodeURIComponent(trajectoryId)}?step=${stepIndex + 1}`;
}

/** One trajectory line of the studio's canonical JSONL (what export writes and import reads back). */
export const canonicalTrajectorySchema = z.object({
  format: z.literal(CANONICAL_FORMAT),
  id: z.string().optional(),
  project: text("projectName").optional(),
  app: text("appName"),
  instruction: text("instruction").min(1),
  source: z.enum(TRAJECTORY_SOURCES),
  sourceRef: z.string().nullable().optional(),
  systemPrompt: text("systemPrompt").nullable().optional(),
  status: taskStatusSchema.optional(),
  outcome: outcomeSchema.nullable(),
  originalOutcome: outcomeSchema.nullable().optional(),
  isDiscarded: z.boolean().default(false),
  /** Index of the last step kept for training; null keeps all. */
  cutAfter: z.number().int().nonnegative().nullable(),
  /**
   * How the work was done at its last hand-in: `full`, `fast` (first-error fast lane: steps before the first
   * error good, the marked one wrong, the rest cut or unreviewed) or `fast-then-full`; null or absent: never handed in.
   */
  lane: laneSchema.nullable().optional(),
  steps: z.array(canonicalStepSchema).min(1),
  /** Dataset split the export assigned (train, test, ...), when it made splits. */
  split: z.string().optional(),
  provenance: z.record(z.string(), z.unknown()).optional(),
  /**
   * What the source file held beside the trajectory's own fields (SourceMeta in lib/domain/import-formats:
   * the source format and its top-level fields such as trajectory_length, image_width/height, unknown
   * ones), so an export can write the source's row back. Absent or {} for trajectories made here.
   */
  meta: z.record(z.string(), z.unknown()).optional(),
  /** The latest model judge verdict on the trajectory as executed, beside the human outcome (absent: never judged). */
  judge: z
    .object({
      outcome: outcomeSchema,
      isConsistent: z.boolean(),
      reason: z.string(),
      model: z.string(),
      prompt: z.string(),
      at: z.string(),
    })
    .optional(),
  /**
   * The held-out evaluation sets holding this trajectory ("name v2"), when any: the bridge's training
   * commands refuse its steps without --allow-held-out. Absent: in no held-out set.
   */
  heldOut: z.array(z.string()).optional(),
  /** Where a release export's line came from: the release and the trajectory's annotation version in it. */
  lineage: lineageSchema.optional(),
  /**
   * The 1-based number of the first kept step whose process label is -1, null when none (firstError in
   * lib/domain/process-label.ts, as the trainer rows' first_error). Written by the export; absent in older files.
   */
  firstError: z.number().int().positive().nullable().optional(),
  /**
   * An overlapped trajectory (issue 26): every person's independent annotation, beside the adjudicated
   * one above (which is what training uses); for soft labels or agreement. Absent: not overlapped.
   */
  annotations: z
    .array(
      z.object({
        annotator: z.string().nullable(),
        status: taskStatusSchema,
        outcome: outcomeSchema.nullable(),
        isDiscarded: z.boolean(),
        cutAfter: z.number().int().nonnegative().nullable(),
        steps: z.array(
          z.object({
            index: z.number().int().nonnegative(),
            thought: thoughtPartsSchema.extend({ text: z.string() }),
            clearAction: z.string(),
            toolCall: stepToolCallSchema,
            box: boxSchema.nullable(),
            verdict: verdictSchema,
          }),
        ),
      }),
    )
    .optional(),
});
export type CanonicalTrajectory = z.infer<typeof canonicalTrajectorySchema>;

/** Steps that may be training targets: inside the cut, not harmful, trajectory not discarded. */
export function isTrainingTarget(
  t: Pick<CanonicalTrajectory, "cutAfter" | "isDiscarded">,
  step: Pick<CanonicalStep, "index" | "verdict">,
): boolean {
  if (t.isDiscarded) return false;
  if (t.cutAfter !== null && step.index > t.cutAfter) return false;
  return step.verdict !== "harmful";
}
