// POST /api/reviews/:id: approve submitted work or send it back ({decision, comment?, version})
import { z } from "zod";
import { reviewDecisionInput } from "@/lib/domain/review";
import { authed, json, readJson } from "@/lib/server/http";
import { decideReview } from "@/lib/server/review";

const paramsSchema = z.object({ id: z.string().min(1).max(100) });

export const POST = authed(async (req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  const { id } = paramsSchema.parse(await ctx.params);
  const input = reviewDecisionInput.parse(await readJson(req));
  return json(await decideReview(actor, id, input));
});
