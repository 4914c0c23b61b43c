import { queryOptions } from "@tanstack/react-query";
import {
  claimResultSchema,
  commentsSchema,
  commentViewSchema,
  decisionResultSchema,
  nextReviewSchema,
  reviewContextSchema,
  reviewQueueSchema,
  type CommentInput,
  type ReplyInput,
  type ResolveInput,
  type ReviewDecisionInput,
} from "@/lib/domain/review";
import { getJson, searchString, sendJson } from "./fetcher";

export const reviewKeys = {
  queue: () => ["reviews"] as const,
  context: (trajectoryId: string) => ["reviews", "context", trajectoryId] as const,
  comments: (trajectoryId: string) => ["comments", trajectoryId] as const,
};

export const reviewQueueQuery = () =>
  queryOptions({ queryKey: reviewKeys.queue(), queryFn: ({ signal }) => getJson("/api/reviews", reviewQueueSchema, signal) });

export const reviewContextQuery = (trajectoryId: string) =>
  // Always fresh when a review opens: a resubmission must be compared with the decision as it is now.
  queryOptions({
    queryKey: reviewKeys.context(trajectoryId),
    queryFn: ({ signal }) => getJson(`/api/reviews/${encodeURIComponent(trajectoryId)}`, reviewContextSchema, signal),
    staleTime: 0,
  });

export const commentsQuery = (trajectoryId: string) =>
  queryOptions({
    queryKey: reviewKeys.comments(trajectoryId),
    queryFn: ({ signal }) => getJson(`/api/comments${searchString({ trajectoryId })}`, commentsSchema, signal),
    staleTime: 0,
  });

export const postComment = (input: CommentInput) => sendJson("POST", "/api/comments", input, commentViewSchema);
export const postReply = (commentId: string, input: ReplyInput) =>
  sendJson("POST", `/api/comments/${encodeURIComponent(commentId)}/replies`, input, commentViewSchema);
export const patchResolved = (commentId: string, input: ResolveInput) =>
  sendJson("PATCH", `/api/comments/${encodeURIComponent(commentId)}`, input, commentViewSchema);

export const postDecision = (trajectoryId: string, input: ReviewDecisionInput) =>
  sendJson("POST", `/api/reviews/${encodeURIComponent(trajectoryId)}`, input, decisionResultSchema);

/** "Start next review": the id to open, or null when nothing is free. */
export const postNextReview = () => sendJson("POST", "/api/reviews/next", {}, nextReviewSchema).then((r) => r.id);

/** Claim (or renew the claim on) one review: the page's heartbeat. */
export const postClaim = (trajectoryId: string) =>
  sendJson("POST", `/api/reviews/${encodeURIComponent(trajectoryId)}/claim`, {}, claimResultSchema);

/** "Leave without deciding": end this reviewer's own claim so someone else may take the review. */
export const deleteClaim = (trajectoryId: string) =>
  sendJson("DELETE", `/api/reviews/${encodeURIComponent(trajectoryId)}/claim`, {}, claimResultSchema);
