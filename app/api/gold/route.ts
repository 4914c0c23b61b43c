// POST /api/gold: mark approved trajectories as gold tasks, or unmark them (admins)
import { goldMarkInput, goldMarkResultSchema } from "@/lib/domain/gold";
import { markGold } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const POST = route({
  permission: "trajectory.assign",
  body: goldMarkInput,
  output: goldMarkResultSchema,
  handler: ({ actor, body }) => markGold({ actor, ...body }),
});
