// GET /api/reviews/:id: the review's context (claim, last decision, what changed since, what people changed per step)
// POST /api/reviews/:id: approve (optionally with the reviewer's fixes) or send back ({decision, comment?, version, fixes?})
import { decisionResultSchema, reviewContextSchema, reviewDecisionInput } from "@/lib/domain/review";
import { idParams } from "@/lib/domain/views";
import { decideReview, reviewContext } from "@/lib/server/review";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "trajectory.review",
  params: idParams,
  output: reviewContextSchema,
  handler: ({ actor, params }) => reviewContext({ actor, id: params.id }),
});

export const POST = route({
  permission: "trajectory.review",
  params: idParams,
  body: reviewDecisionInput,
  output: decisionResultSchema,
  handler: ({ actor, params, body }) => decideReview({ actor, id: params.id, ...body }),
});
