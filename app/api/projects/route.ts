// GET /api/projects: the projects with their lane settings (admin)
import { projectLaneListSchema } from "@/lib/domain/lane";
import { listProjectLanes } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "project.configure",
  output: projectLaneListSchema,
  handler: ({ actor }) => listProjectLanes({ actor }),
});
