// POST /api/suggestions/:id/accept: record that the person took this suggestion (its values then arrive with the next save)
import { z } from "zod";
import { authed, json } from "@/lib/server/http";
import { acceptSuggestion } from "@/lib/server/suggest";

const paramsSchema = z.object({ id: z.string().min(1).max(100) });

export const POST = authed(async (_req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  const { id } = paramsSchema.parse(await ctx.params);
  return json({ suggestion: await acceptSuggestion(actor, id) });
});
