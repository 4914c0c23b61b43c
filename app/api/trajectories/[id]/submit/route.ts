// POST /api/trajectories/:id/submit: submit for review (422 listing what is incomplete)
import { idParams, trajectoryViewSchema } from "@/lib/domain/views";
import { submitTrajectory } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const POST = route({
  permission: "trajectory.submit",
  params: idParams,
  output: trajectoryViewSchema,
  handler: ({ actor, params }) => submitTrajectory({ actor, id: params.id }),
});
