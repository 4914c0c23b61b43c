import { z } from "zod";
import { text } from "./limits";
import { pyJsonDumps, type ToolCall } from "./tool-call";
import type { StepView } from "./views";

export const reviewDecisionInput = z.object({
  decision: z.enum(["approve", "reject"]),
  /** Required when sending work back: the annotator needs to know why. */
  comment: text("comment").trim().optional(),
  /** The trajectory version the reviewer looked at; a newer one answers 409. */
  version: z.number().int().positive(),
}).refine((v) => v.decision === "approve" || (v.comment ?? "").length > 0, { message: "say why when sending work back", path: ["comment"] });
export type ReviewDecisionInput = z.infer<typeof reviewDecisionInput>;

export const commentInput = z.object({
  trajectoryId: text("id").min(1),
  stepIndex: z.number().int().nonnegative().nullable().default(null),
  body: text("comment").trim().min(1, "a comment needs text"),
});
export type CommentInput = z.input<typeof commentInput>;

export const commentViewSchema = z.object({
  id: z.string(),
  stepIndex: z.number().int().nullable(),
  author: z.string(),
  body: z.string(),
  isResolved: z.boolean(),
  createdAt: z.coerce.string(),
});
export type CommentView = z.infer<typeof commentViewSchema>;

export type StepChange = "thought" | "clearAction" | "toolCall" | "box" | "verdict";

const sameCall = (a: ToolCall, b: ToolCall) => pyJsonDumps(a) === pyJsonDumps(b);

/**
 * What the annotator changed in a step against the model's original output. The box and the
 * verdict have no original, so they count as changes once set.
 */
export function stepChanges(step: StepView): StepChange[] {
  const changes: StepChange[] = [];
  if ((step.original.thought ?? "") !== step.thought.text) changes.push("thought");
  if ((step.original.clearAction ?? "") !== step.clearAction) changes.push("clearAction");
  if (!sameCall(step.original.toolCall, step.toolCall)) changes.push("toolCall");
  if (step.box !== null && !step.candidateBoxes.some((b) => b.every((v, i) => v === step.box![i]))) changes.push("box");
  if (step.verdict !== "unreviewed" && step.verdict !== "good") changes.push("verdict");
  return changes;
}
