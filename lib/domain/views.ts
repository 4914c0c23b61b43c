import { z } from "zod";
import { boxSchema } from "./geometry";
import { taskStatusSchema } from "./status";
import { toolCallSchema } from "./tool-call";
import { stepProvenanceSchema } from "./provenance";
import { originalOutputSchema, outcomeSchema, verdictSchema } from "./trajectory";

// What the API answers with: used by the route handlers to shape responses and by the client to
// parse them, so a drift between the two fails loudly.

export const statsSchema = z.object({
  trajectories: z.number(),
  steps: z.number(),
  apps: z.number(),
  screenshots: z.number(),
  byStatus: z.record(taskStatusSchema, z.number()),
  byApp: z.array(z.object({ app: z.string(), trajectories: z.number(), steps: z.number() })),
});
export type StudioStats = z.infer<typeof statsSchema>;

export const trajectoryRowSchema = z.object({
  id: z.string(),
  app: z.string(),
  instruction: z.string(),
  status: taskStatusSchema,
  outcome: outcomeSchema.nullable(),
  stepCount: z.number(),
  source: z.string(),
  sourceRef: z.string().nullable(),
  assignee: z.string().nullable(),
  updatedAt: z.coerce.string(),
});
export type TrajectoryRow = z.infer<typeof trajectoryRowSchema>;

export const trajectoryPageSchema = z.object({
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  rows: z.array(trajectoryRowSchema),
});
export type TrajectoryPage = z.infer<typeof trajectoryPageSchema>;

export const stepViewSchema = z.object({
  id: z.string(),
  index: z.number().int(),
  screenshot: z.object({ sha256: z.string(), width: z.number(), height: z.number() }),
  original: originalOutputSchema,
  thought: z.object({ state: z.string(), nextAction: z.string(), purpose: z.string(), text: z.string() }),
  clearAction: z.string(),
  toolCall: toolCallSchema,
  box: boxSchema.nullable(),
  candidateBoxes: z.array(boxSchema),
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
});
export type TaskRow = z.infer<typeof taskRowSchema>;
export const taskListSchema = z.object({ tasks: z.array(taskRowSchema), available: z.number().int() });
export type TaskList = z.infer<typeof taskListSchema>;

/** POST /api/tasks/next: the task to work on, or null when there is none. */
export const nextTaskSchema = z.object({ id: z.string().nullable() });
export const leaseSchema = z.object({ leaseUntil: z.coerce.string().nullable() });
