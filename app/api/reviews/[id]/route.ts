// GET /api/reviews/:id: the review's context (claim, last decision, what changed since, what people changed per step)
// POST /api/reviews/:id: approve (optionally with the reviewer's fixes) or send back ({decision, comment?, version, fixes?})
import { z } from "zod";
import { reviewDecisionInput } from "@/lib/domain/review";
import { authed, json, readJson } from "@/lib/server/http";
import { decideReview, reviewContext } from "@/lib/server/review";

const paramsSchema = z.object({ id: z.string().min(1).max(100) });

export const GET = authed(async (_req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  const { id } = paramsSchema.parse(await ctx.params);
  return json(await reviewContext(actor, id));
});

export const POST = authed(async (req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  const { id } = paramsSchema.parse(await ctx.params);
  const input = reviewDecisionInput.parse(await readJson(req));
  return json(await decideReview(actor, id, input));
});
