// PUT /api/trajectories/:id/annotation: save the outcome, discard flag and cut point (versioned)
import { saveTrajectoryInput } from "@/lib/domain/annotation";
import { idParams, trajectoryAnnotationViewSchema } from "@/lib/domain/views";
import { saveTrajectoryAnnotation } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const PUT = route({
  permission: "trajectory.annotate",
  params: idParams,
  body: saveTrajectoryInput,
  output: trajectoryAnnotationViewSchema,
  handler: ({ actor, params, body }) => saveTrajectoryAnnotation({ actor, id: params.id, ...body }),
});
