// GET /api/trajectories: one page of the trajectories the caller may see, filtered by app, status, instruction text and assignee
import { listTrajectoriesInput, trajectoryPageSchema } from "@/lib/domain/views";
import { route } from "@/lib/server/http";
import { listTrajectories } from "@/lib/server/annotate";

export const GET = route({
  permission: "trajectory.list",
  query: listTrajectoriesInput,
  output: trajectoryPageSchema,
  handler: ({ actor, query }) => listTrajectories({ actor, ...query }),
});
