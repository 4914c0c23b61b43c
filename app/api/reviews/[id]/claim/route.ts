// POST /api/reviews/:id/claim: claim a submitted trajectory for review, or renew this reviewer's claim (the page's heartbeat)
// DELETE /api/reviews/:id/claim: leave it without deciding (ends the caller's own claim)
import { z } from "zod";
import { authed, json } from "@/lib/server/http";
import { claimReview, releaseReview } from "@/lib/server/review";

const paramsSchema = z.object({ id: z.string().min(1).max(100) });

export const POST = authed(async (_req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  const { id } = paramsSchema.parse(await ctx.params);
  return json(await claimReview(actor, id));
});

export const DELETE = authed(async (_req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  const { id } = paramsSchema.parse(await ctx.params);
  return json(await releaseReview(actor, id));
});
