import { z } from "zod";
import { text } from "./limits";
import { EXPORT_STATUS_OPTIONS } from "./exports";
import { laneSchema } from "./trajectory";

// Snapshots: frozen evaluation sets and dataset releases, both an immutable list of exactly which
// trajectory annotation versions they hold (each member's canonical export JSON as it was).

export const SNAPSHOT_KINDS = ["eval-set", "release"] as const;
export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];

/** A set or release name: what people type and the CLI takes (no spaces at the ends, no slash). */
const snapshotName = text("projectName")
  .trim()
  .min(1)
  .regex(/^[^/\\]+$/, "must not contain a slash");

/** Which trajectories a snapshot takes: the export's filter (status, apps, project), or explicit ids. */
const snapshotFilter = {
  status: z.enum(EXPORT_STATUS_OPTIONS).default("approved"),
  apps: z.array(text("appName").trim().min(1)).max(200).default([]),
  project: text("projectName")
    .trim()
    .optional()
    .transform((s) => s || undefined),
};

/**
 * Freeze an evaluation set: approved work by default (the filter's status), or exactly the trajectories
 * `ids` names (each must exist and satisfy the status). Freezing a name again makes its next version.
 */
export const freezeEvalSetInput = z.object({
  name: snapshotName,
  ...snapshotFilter,
  ids: z.array(text("id").min(1)).max(100_000).optional(),
  heldOut: z.boolean().default(false),
});
export type FreezeEvalSetInput = z.input<typeof freezeEvalSetInput>;

/**
 * Cut a release: the filter's work, leaving out held-out evaluation sets' trajectories unless `includeHeldOut`.
 * `lanes` keeps only trajectories last handed in through one of those lanes (lib/domain/lane.ts; a trajectory
 * never handed in has no lane and is left out by any lane filter); empty: every lane and none.
 * `dropNearDuplicates` keeps only the keeper of each near-duplicate group among the matching work
 * (lib/domain/near-duplicates.ts: same normalised instruction and actions, every screen's dHash within a few bits).
 */
export const cutReleaseInput = z.object({
  name: snapshotName,
  ...snapshotFilter,
  lanes: z
    .array(laneSchema)
    .max(3)
    .default([])
    .transform((l) => [...new Set(l)].sort()),
  includeHeldOut: z.boolean().default(false),
  dropNearDuplicates: z.boolean().default(false),
  /** The data's licence, an SPDX id (CC-BY-4.0): the release's dataset card and Croissant name it. */
  license: z
    .string()
    .trim()
    .max(64)
    .regex(/^[A-Za-z0-9.+-]+$/, "must be an SPDX licence id, e.g. CC-BY-4.0")
    .optional()
    .or(z.literal("").transform(() => undefined)),
});
export type CutReleaseInput = z.input<typeof cutReleaseInput>;

/**
 * What a cut took and what it left out, and why, counted in the order the filters apply: of the `before`
 * trajectories in scope (the project's, or every one; people's overlap copies aside), those of another status,
 * then another app, then another lane, then held out in evaluation sets (`heldOutSets` names them), then
 * near-duplicates dropped; `after` is what the release holds.
 */
export const cutAccountSchema = z.object({
  before: z.number().int().nonnegative(),
  after: z.number().int().nonnegative(),
  status: z.number().int().nonnegative(),
  app: z.number().int().nonnegative(),
  lane: z.number().int().nonnegative(),
  heldOut: z.number().int().nonnegative(),
  heldOutSets: z.array(z.string()),
  nearDuplicate: z.number().int().nonnegative(),
});
export type CutAccount = z.infer<typeof cutAccountSchema>;

export const setHeldOutInput = z.object({ heldOut: z.boolean() });

/** A snapshot as lists show it. `number` is the set's version or the release number. */
export const snapshotSchema = z.object({
  id: z.string(),
  kind: z.enum(SNAPSHOT_KINDS),
  name: z.string(),
  number: z.number().int().positive(),
  heldOut: z.boolean(),
  filters: z.record(z.string(), z.unknown()),
  /** sha256 over the members' ids and canonical JSON hashes, in member order. */
  contentSha256: z.string(),
  trajectories: z.number().int().nonnegative(),
  steps: z.number().int().nonnegative(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** A release's account of what its cut left out (releases cut before it was kept have none). */
  leftOut: cutAccountSchema.optional(),
});
export type SnapshotItem = z.infer<typeof snapshotSchema>;
export const snapshotsSchema = z.object({ snapshots: z.array(snapshotSchema) });
export const snapshotAnswerSchema = z.object({ snapshot: snapshotSchema });

/** One member as a set's page shows it. */
export const snapshotMemberSchema = z.object({
  trajectoryId: z.string(),
  version: z.number().int(),
  sha256: z.string(),
  app: z.string(),
  instruction: z.string(),
  steps: z.number().int(),
});
export const snapshotDetailSchema = z.object({ snapshot: snapshotSchema, members: z.array(snapshotMemberSchema) });

/** Who changed a field between two releases, from the audit trail. */
export const changeAuthorSchema = z.object({ by: z.string(), at: z.string() });

/** One changed field of a trajectory between two releases; `step` is the 0-based index, null for the trajectory's own fields. */
export const fieldChangeSchema = z.object({
  step: z.number().int().nonnegative().nullable(),
  field: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  changedBy: z.array(changeAuthorSchema),
});
export type FieldChange = z.infer<typeof fieldChangeSchema>;

const diffTrajectory = z.object({ id: z.string(), app: z.string(), instruction: z.string() });
export const releaseDiffSchema = z.object({
  from: z.number().int(),
  to: z.number().int(),
  added: z.array(diffTrajectory),
  removed: z.array(diffTrajectory),
  changed: z.array(
    diffTrajectory.extend({
      fromVersion: z.number().int(),
      toVersion: z.number().int(),
      fields: z.array(fieldChangeSchema),
    }),
  ),
  unchanged: z.number().int().nonnegative(),
});
export type ReleaseDiff = z.infer<typeof releaseDiffSchema>;

/** The diff's query: two release numbers. */
export const releaseDiffQuery = z.object({ from: z.coerce.number().int().positive(), to: z.coerce.number().int().positive() });
