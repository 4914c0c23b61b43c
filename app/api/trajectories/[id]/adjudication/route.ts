// GET /api/trajectories/:id/adjudication: an overlapped trajectory with every person's copy (reviewers and admins)
// POST /api/trajectories/:id/adjudication: approve the values chosen among the copies (409 when not overlapped, too few handed in, or stale)
import { adjudicateInput, adjudicationViewSchema } from "@/lib/domain/adjudication";
import { idParams, trajectoryViewSchema } from "@/lib/domain/views";
import { adjudicate, getAdjudication } from "@/lib/server/review";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "trajectory.review",
  params: idParams,
  output: adjudicationViewSchema,
  handler: ({ actor, params }) => getAdjudication({ actor, id: params.id }),
});

export const POST = route({
  permission: "trajectory.review",
  params: idParams,
  body: adjudicateInput,
  output: trajectoryViewSchema,
  handler: ({ actor, params, body }) => adjudicate({ actor, id: params.id, ...body }),
});
