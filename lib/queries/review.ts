import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { commentViewSchema, type CommentInput, type ReviewDecisionInput } from "@/lib/domain/review";
import { taskStatusSchema } from "@/lib/domain/status";
import { getJson, sendJson } from "./fetcher";

const queueRowSchema = z.object({
  id: z.string(),
  app: z.string(),
  instruction: z.string(),
  stepCount: z.number(),
  outcome: z.string().nullable(),
  submittedAt: z.string().nullable(),
  annotator: z.string().nullable(),
});
export type ReviewQueueRow = z.infer<typeof queueRowSchema>;

export const reviewKeys = {
  queue: () => ["reviews"] as const,
  comments: (trajectoryId: string) => ["comments", trajectoryId] as const,
};

export const reviewQueueQuery = () =>
  queryOptions({ queryKey: reviewKeys.queue(), queryFn: ({ signal }) => getJson("/api/reviews", z.object({ rows: z.array(queueRowSchema) }), signal) });

export const commentsQuery = (trajectoryId: string) =>
  queryOptions({
    queryKey: reviewKeys.comments(trajectoryId),
    queryFn: ({ signal }) => getJson(`/api/comments?trajectoryId=${encodeURIComponent(trajectoryId)}`, z.object({ rows: z.array(commentViewSchema) }), signal),
  });

export const postComment = (input: CommentInput) => sendJson("POST", "/api/comments", input, commentViewSchema);

export const postDecision = (trajectoryId: string, input: ReviewDecisionInput) =>
  sendJson("POST", `/api/reviews/${encodeURIComponent(trajectoryId)}`, input, z.object({ status: taskStatusSchema, version: z.number() }));
