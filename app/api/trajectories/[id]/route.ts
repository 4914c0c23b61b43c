// GET /api/trajectories/:id: one trajectory with all its steps
import { idParams, trajectoryViewSchema } from "@/lib/domain/views";
import { route } from "@/lib/server/http";
import { getTrajectoryFor } from "@/lib/server/annotate";

export const GET = route({
  permission: "trajectory.read",
  params: idParams,
  output: trajectoryViewSchema,
  handler: ({ actor, params }) => getTrajectoryFor({ actor, id: params.id }),
});
