// GET /api/trajectories/:id: one trajectory with all its steps
import { z } from "zod";
import { json, route } from "@/lib/server/http";
import { getTrajectory } from "@/lib/server/trajectories";

const paramsSchema = z.object({ id: z.string().min(1).max(100) });

export const GET = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = paramsSchema.parse(await ctx.params);
  return json(await getTrajectory(id));
});
