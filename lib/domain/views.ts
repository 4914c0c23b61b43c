import { z } from "zod";
import { screenElementsSchema } from "./elements";
import { boxSchema } from "./geometry";
import { text } from "./limits";
import { taskStatusSchema } from "./status";
import { stepToolCallSchema } from "./tool-call";
import { stepProvenanceSchema } from "./provenance";
import { originalOutputSchema, outcomeSchema, verdictSchema } from "./trajectory";
import { fastLaneAfterSchema, laneSchema } from "./lane";

// What the API answers with: used by the route handlers to shape responses and by the client to
// parse them, so a drift between the two fails loudly.

/** The `[id]` segment of a route's path. */
export const idParams = z.object({ id: text("id").min(1) });

/** The answer of a call that has nothing else to say. */
export const okSchema = z.object({ ok: z.literal(true) });

/** GET /api/screenshots/:sha: the content address, and which variant (the 720 px WebP for viewing, or the original bytes). */
export const screenshotParams = z.object({ sha: z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lower-case hex characters") });
export const SCREENSHOT_VARIANTS = ["display", "original"] as const;
export const screenshotQuery = z.object({ variant: z.enum(SCREENSHOT_VARIANTS).default("display") });

export const statsSchema = z.object({
  trajectories: z.number(),
  steps: z.number(),
  apps: z.number(),
  screenshots: z.number(),
  byStatus: z.record(taskStatusSchema, z.number()),
  byApp: z.array(z.object({ app: z.string(), trajectories: z.number(), steps: z.number() })),
  /** Projects with trajectories the caller may see, by name. */
  byProject: z.array(z.object({ project: z.string(), trajectories: z.number() })),
});
export type StudioStats = z.infer<typeof statsSchema>;

/**
 * GET /api/trajectories: filters and page. The list page keeps the same fields in its URL
 * (lib/queries/trajectories.ts parseFilters reads them field by field with this schema).
 */
export const listTrajectoriesInput = z.object({
  /** A project's name (exact). */
  project: text("projectName").optional(),
  app: text("appName").optional(),
  status: taskStatusSchema.optional(),
  q: text("query").optional(),
  /** An assignee's email, or "none" for work nobody has. */
  assignee: text("email").optional(),
  /** The column the page is sorted by (every column of the list); none: oldest first, as imported. */
  sort: z.enum(["app", "instruction", "steps", "status", "outcome", "assignee", "source"]).optional(),
  dir: z.enum(["asc", "desc"]).optional(),
  /** "only": just the trajectories in a near-duplicate group (keepers and the others), each row saying its group. */
  duplicates: z.enum(["only"]).optional(),
  /**
   * People's copies (overlap and gold): absent, the trajectories themselves only; "only", just the copies;
   * "all", both. Those who review or assign only: an annotator's list is their own work, copies unmarked.
   */
  copies: z.enum(["only", "all"]).optional(),
  /** Just the copies of this trajectory (by id), as the list's "N copies" mark links to. */
  copyOf: text("id").optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export const TRAJECTORY_SORTS = listTrajectoriesInput.shape.sort.unwrap().options;
export type TrajectorySort = (typeof TRAJECTORY_SORTS)[number];
export type ListTrajectoriesInput = z.infer<typeof listTrajectoriesInput>;
/** The list page's filters as its URL keeps them (the page size is the page's own). */
export const trajectoryFiltersSchema = listTrajectoriesInput.omit({ pageSize: true });
export type TrajectoryFilters = z.infer<typeof trajectoryFiltersSchema>;

export const trajectoryRowSchema = z.object({
  id: z.string(),
  project: z.string(),
  app: z.string(),
  instruction: z.string(),
  status: taskStatusSchema,
  outcome: outcomeSchema.nullable(),
  stepCount: z.number(),
  source: z.string(),
  sourceRef: z.string().nullable(),
  assignee: z.string().nullable(),
  updatedAt: z.coerce.string(),
  /** How many people's independent copies were made of it (overlap, issue 26); 0: not overlapped. Copies are rows of the list only under `copies` or `copyOf`. */
  copies: z.number().int().nonnegative().default(0),
  /**
   * A person's copy: the trajectory it copies and why it was made (an overlap copy, or a gold task's copy).
   * Null on originals, and on every row an annotator is shown (their copies are their work like any other).
   */
  copyOf: z
    .object({ id: z.string(), kind: z.enum(["overlap", "gold"]) })
    .nullable()
    .default(null),
  /** Marked as a gold task: its approved annotation is the answer people's gold copies are scored against. */
  isGold: z.boolean().default(false),
  /**
   * Its near-duplicate group, given only under `duplicates=only`: the group's keeper (the trajectory a
   * deduplicated release keeps), whether this is it, and how many trajectories the group holds.
   */
  nearDuplicate: z.object({ keeperId: z.string(), isKeeper: z.boolean(), groupSize: z.number().int().min(2) }).optional(),
});
export type TrajectoryRow = z.infer<typeof trajectoryRowSchema>;

/** The list's tiles: what the filtered list holds in all its pages (the same rows as `total`). */
export const listTallySchema = z.object({
  trajectories: z.number(),
  steps: z.number(),
  apps: z.number(),
  byStatus: z.record(taskStatusSchema, z.number()),
});
export type ListTally = z.infer<typeof listTallySchema>;

export const trajectoryPageSchema = z.object({
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  rows: z.array(trajectoryRowSchema),
  tally: listTallySchema,
});
export type TrajectoryPage = z.infer<typeof trajectoryPageSchema>;

export const stepViewSchema = z.object({
  id: z.string(),
  index: z.number().int(),
  screenshot: z.object({ sha256: z.string(), width: z.number(), height: z.number() }),
  original: originalOutputSchema,
  thought: z.object({ state: z.string(), nextAction: z.string(), purpose: z.string(), text: z.string() }),
  clearAction: z.string(),
  toolCall: stepToolCallSchema,
  box: boxSchema.nullable(),
  candidateBoxes: z.array(boxSchema),
  /** The screen's elements as imported (original pixels), when the step came with them: the box tool's snap targets. */
  elements: screenElementsSchema.optional(),
  verdict: verdictSchema,
  version: z.number().int(),
  /** where each text field's value came from; a field with no entry holds what was imported */
  provenance: stepProvenanceSchema.default({}),
});
export type StepView = z.infer<typeof stepViewSchema>;

export const trajectoryViewSchema = z.object({
  id: z.string(),
  project: z.string(),
  app: z.string(),
  instruction: z.string(),
  source: z.string(),
  sourceRef: z.string().nullable(),
  status: taskStatusSchema,
  outcome: outcomeSchema.nullable(),
  originalOutcome: outcomeSchema.nullable(),
  isDiscarded: z.boolean(),
  cutAfter: z.number().int().nullable(),
  assigneeId: z.string().nullable(),
  assignee: z.string().nullable(),
  leaseUntil: z.coerce.string().nullable(),
  version: z.number().int(),
  /** The lane of the last hand-in (full, fast, fast-then-full); null until handed in. */
  lane: laneSchema.nullable().default(null),
  /** The project's choice for the steps after a fast-lane first error: cut, or queue for full correction. */
  fastLaneAfter: fastLaneAfterSchema.default("cut"),
  steps: z.array(stepViewSchema),
});
export type TrajectoryView = z.infer<typeof trajectoryViewSchema>;

/** The trajectory-level annotation as saved: what PUT /api/trajectories/:id/annotation answers. */
export const trajectoryAnnotationViewSchema = z.object({
  outcome: outcomeSchema.nullable(),
  isDiscarded: z.boolean(),
  cutAfter: z.number().int().nullable(),
  version: z.number().int(),
  status: taskStatusSchema,
});
export type TrajectoryAnnotationView = z.infer<typeof trajectoryAnnotationViewSchema>;

/** One row of "My tasks": a trajectory assigned to the person, with progress. */
export const taskRowSchema = z.object({
  id: z.string(),
  app: z.string(),
  instruction: z.string(),
  status: taskStatusSchema,
  outcome: outcomeSchema.nullable(),
  stepCount: z.number().int(),
  /** Steps with a verdict. */
  doneSteps: z.number().int(),
  leaseUntil: z.coerce.string().nullable(),
  updatedAt: z.coerce.string(),
  /** Sent back and not resubmitted yet: the reviewer's reason. */
  sentBack: z.object({ reason: z.string().nullable(), reviewer: z.string(), at: z.coerce.string() }).nullable().default(null),
  /** Comments nobody has resolved yet. */
  openComments: z.number().int().default(0),
  /** The lane of the last hand-in; null until handed in. */
  lane: laneSchema.nullable().default(null),
  /** Work handed in through the fast lane: the step (0-based) it marked as the first error; null for none, or another lane. */
  firstError: z.number().int().nonnegative().nullable().default(null),
});
export const taskListSchema = z.object({ tasks: z.array(taskRowSchema), available: z.number().int() });
export type TaskList = z.infer<typeof taskListSchema>;

/** POST /api/tasks/next: the task to work on, or null when there is none. */
export const nextTaskSchema = z.object({ id: z.string().nullable() });
/** POST /api/tasks/next?skipNearDuplicates=true: pass over near-duplicates that are not their group's keeper. */
export const nextTaskQuery = z.object({ skipNearDuplicates: z.enum(["true", "false"]).default("false") });
export const leaseSchema = z.object({ leaseUntil: z.coerce.string().nullable() });
