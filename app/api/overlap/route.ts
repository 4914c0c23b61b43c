// POST /api/overlap: give chosen trajectories, or a share of a project's untouched work, to 2 or 3 people independently (admins)
import { overlapInput, overlapResultSchema } from "@/lib/domain/overlap";
import { overlapTrajectories } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const POST = route({
  permission: "trajectory.assign",
  body: overlapInput,
  output: overlapResultSchema,
  handler: ({ actor, body }) => overlapTrajectories({ actor, ...body }),
});
