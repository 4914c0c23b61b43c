import { z } from "zod";
import { text } from "./limits";
import { STEP_AGREEMENT_FIELDS, TRAJECTORY_AGREEMENT_FIELDS, type AgreementReport } from "./agreement";
import { ACTION_TYPES } from "./tool-call";

// Overlap (issue 26 item 1): a share of a project's trajectories, or chosen ones, given to N people
// independently. Wire shapes of POST /api/overlap and GET /api/dashboard/agreement.

/** The most copies of one trajectory: agreement across 2 or 3 people is what the issue asks for. */
export const OVERLAP_COPIES = [2, 3] as const;

/**
 * POST /api/overlap: make `copies` independent copies of each chosen trajectory. Either `trajectoryIds`
 * (all of them) or `project` with `share` (0..1 of its untouched work, picked by a hash of each
 * trajectory's fingerprint, so the same share picks the same trajectories on every server), and
 * optionally `assignees`, the people who get the copies.
 */
export const overlapInput = z
  .object({
    project: text("projectName").min(1).optional(),
    trajectoryIds: z.array(text("id").min(1)).min(1).max(1000).optional(),
    share: z.number().min(0).max(1).default(1),
    copies: z.union([z.literal(2), z.literal(3)]),
    /**
     * Who gets each copy, in the same action: one entry per copy (an email, or null to leave that copy
     * in the pool for "Start next task"), the k-th copy of every chosen trajectory to the k-th person.
     * Absent: every copy waits in the pool.
     */
    assignees: z.array(text("email").min(1).nullable()).min(2).max(3).optional(),
  })
  .refine((v) => (v.project === undefined) !== (v.trajectoryIds === undefined), {
    message: "name a project or trajectory ids, not both",
    path: ["project"],
  });
export type OverlapInput = z.input<typeof overlapInput>;

export const overlapResultSchema = z.object({
  /** the trajectories now overlapped, each with its copies' ids */
  overlapped: z.array(z.object({ id: z.string(), copies: z.array(z.string()) })),
});
export type OverlapResult = z.infer<typeof overlapResultSchema>;

const fieldFigure = z.object({
  compared: z.number().int(),
  agreed: z.number().int(),
  rate: z.number().nullable(),
  kappa: z.number().nullable().optional(),
});
const fieldFigures = z.object(
  Object.fromEntries([...STEP_AGREEMENT_FIELDS, ...TRAJECTORY_AGREEMENT_FIELDS].map((f) => [f, fieldFigure])) as Record<
    (typeof STEP_AGREEMENT_FIELDS)[number] | (typeof TRAJECTORY_AGREEMENT_FIELDS)[number],
    typeof fieldFigure
  >,
);

/** GET /api/dashboard/agreement: lib/domain/agreement.ts's report over the handed-in overlap copies; people named by email. */
export const agreementReportSchema = z.object({
  options: z.object({ pointTolerancePx: z.number(), boxIou: z.number(), thoughtThreshold: z.number() }),
  overall: fieldFigures,
  byPair: z.array(
    z.object({ a: z.string(), b: z.string(), trajectories: z.number().int(), steps: z.number().int(), fields: fieldFigures }),
  ),
  byApp: z.array(z.object({ app: z.string(), fields: fieldFigures })),
  byActionType: z.array(z.object({ actionType: z.enum(ACTION_TYPES), fields: fieldFigures })),
  alpha: z.object({ actionType: z.number().nullable(), verdict: z.number().nullable(), outcome: z.number().nullable() }),
  trajectories: z.number().int(),
}) satisfies z.ZodType<AgreementReport>;

/** GET /api/dashboard/agreement?project=: one project's overlap, or all of them. */
export const agreementQuery = z.object({ project: text("projectName").min(1).optional() });
