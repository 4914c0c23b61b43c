// GET /api/trajectories/:id: one trajectory with all its steps
import { z } from "zod";
import { authed, json } from "@/lib/server/http";
import { getTrajectoryFor } from "@/lib/server/trajectories";

const paramsSchema = z.object({ id: z.string().min(1).max(100) });

export const GET = authed(async (_req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  const { id } = paramsSchema.parse(await ctx.params);
  return json(await getTrajectoryFor(actor, id));
});
