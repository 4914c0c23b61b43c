// POST /api/reviews/:id/claim: claim a submitted trajectory for review, or renew this reviewer's claim (the page's heartbeat)
// DELETE /api/reviews/:id/claim: leave it without deciding (ends the caller's own claim)
import { claimResultSchema } from "@/lib/domain/review";
import { idParams } from "@/lib/domain/views";
import { claimReview, releaseReview } from "@/lib/server/review";
import { route } from "@/lib/server/http";

export const POST = route({
  permission: "trajectory.review",
  params: idParams,
  output: claimResultSchema,
  handler: ({ actor, params }) => claimReview({ actor, id: params.id }),
});

export const DELETE = route({
  permission: "trajectory.review",
  params: idParams,
  output: claimResultSchema,
  handler: ({ actor, params }) => releaseReview({ actor, id: params.id }),
});
