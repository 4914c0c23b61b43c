// An export folder's manifest.json: the contract between the studio, which writes it (an export, a release or a
// frozen evaluation set), and its readers (the export list, the trainer bridge). Written once, here: the writers
// build a value of ExportManifest, and every reader parses with a schema derived from this one.
// scripts/shape.test.ts keeps the format tag in this file only.
import { z } from "zod";
import { trainerHintsSchema } from "./trainer-hints";

/** The format tag every export folder's manifest carries. */
export const EXPORT_FORMAT = "trajectory-studio-export/v1";

/**
 * How an export divides trajectories: `random:<seed>:<ratios>` (e.g. random:42:0.9,0.1 gives train and test; three
 * ratios give train, val, test) or `by-app:<app>,<app>` (those apps held out as test).
 */
export const splitSpecSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("none") }),
  z.object({ kind: z.literal("random"), seed: z.string(), ratios: z.array(z.number()), names: z.array(z.string()) }),
  z.object({ kind: z.literal("by-app"), heldOut: z.array(z.string()) }),
]);
export type SplitSpec = z.infer<typeof splitSpecSchema>;

const count = z.number().int().nonnegative();
const counts = z.record(z.string(), count);

/** Which frozen snapshot a release or evaluation set folder holds. */
const snapshotStampSchema = z.object({
  name: z.string(),
  number: z.number().int().positive(),
  contentSha256: z.string(),
  cutBy: z.string(),
  cutAt: z.string(),
});

/**
 * What the studio writes. Fields added after the first exports have defaults, so an older folder still reads
 * (`split`, `filters.apps`, `filters.project`, the `by*` counts).
 */
export const exportManifestSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  createdAt: z.string(),
  /** The studio's package version (an export; a release names its snapshot instead). */
  studioVersion: z.string().optional(),
  coordinateFrame: z.literal("original screenshot pixels").optional(),
  release: snapshotStampSchema.optional(),
  evalSet: snapshotStampSchema.optional(),
  /** Which work was exported: the status filter, apps and project (a snapshot's own filters for a release). */
  filters: z.looseObject({
    status: z.string(),
    apps: z.array(z.string()).default([]),
    project: z.string().nullable().default(null),
  }),
  split: splitSpecSchema.default({ kind: "none" }),
  counts: z.object({
    trajectories: count,
    steps: count,
    trainingSteps: count,
    harmfulSteps: count,
    screenshots: count,
    byApp: counts.default({}),
    bySplit: counts.default({}),
    byLane: counts.optional(),
  }),
  /** Measured at the max_pixels the export page proposes; the bridge measures again at its own. */
  trainer: trainerHintsSchema.nullable().optional(),
  /** Held-out evaluation sets' trajectories the export left out. */
  heldOut: z.object({ trajectories: count, steps: count, sets: z.array(z.string()) }).optional(),
  /** Relative path -> sha256 of every file in the folder. */
  files: z.record(z.string(), z.string()),
});
export type ExportManifest = z.input<typeof exportManifestSchema>;

/**
 * What the trainer bridge requires of a folder: the format tag and the file list, as the studio writes them. The
 * rest is read where present (a folder made by hand for a test or another tool may carry only these), with the
 * studio's own field shapes.
 */
export const exportFolderManifestSchema = exportManifestSchema
  .pick({ format: true, files: true })
  .extend({
    createdAt: exportManifestSchema.shape.createdAt.optional(),
    studioVersion: exportManifestSchema.shape.studioVersion,
    filters: exportManifestSchema.shape.filters.optional(),
    counts: exportManifestSchema.shape.counts.partial().optional(),
  })
  .loose();
export type ExportFolderManifest = z.infer<typeof exportFolderManifestSchema>;
