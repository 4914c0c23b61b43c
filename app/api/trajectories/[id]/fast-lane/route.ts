// POST /api/trajectories/:id/fast-lane: hand the trajectory in through the first-error fast lane
import { fastLaneSubmitInput } from "@/lib/domain/lane";
import { idParams, trajectoryViewSchema } from "@/lib/domain/views";
import { submitFastLane } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const POST = route({
  permission: "trajectory.submit",
  params: idParams,
  body: fastLaneSubmitInput,
  output: trajectoryViewSchema,
  handler: ({ actor, params, body }) => submitFastLane({ actor, id: params.id, ...body }),
});
