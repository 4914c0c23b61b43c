// PUT /api/trajectories/:id/annotation: save the outcome, discard flag and cut point (versioned)
import { z } from "zod";
import { saveTrajectoryInput } from "@/lib/domain/annotation";
import { saveTrajectoryAnnotation } from "@/lib/server/annotate";
import { authed, json, readJson } from "@/lib/server/http";

const paramsSchema = z.object({ id: z.string().min(1).max(100) });

export const PUT = authed(async (req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  const { id } = paramsSchema.parse(await ctx.params);
  const input = saveTrajectoryInput.parse(await readJson(req));
  return json(await saveTrajectoryAnnotation(actor, id, input));
});
