// The review capability: the queue, claims ("Start next review"), decisions, the review page's
// context and comments. Each lives in its own file; this names them for `@/lib/server/review`.
export { reviewQueue } from "./queue";
export { REVIEW_LEASE_MS, claimReview, releaseReview, startNextReview } from "./claims";
export { decideReview } from "./decide";
export { reviewContext, snapshotOf } from "./context";
export { addComment, listComments, replyToComment, setCommentResolved } from "./comments";
export { adjudicate, alternativesOf, getAdjudication } from "./adjudicate";
