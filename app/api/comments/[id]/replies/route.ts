// POST /api/comments/:id/replies: reply in a comment's thread ({body})
import { z } from "zod";
import { replyInput } from "@/lib/domain/review";
import { authed, json, readJson } from "@/lib/server/http";
import { replyToComment } from "@/lib/server/review";

const paramsSchema = z.object({ id: z.string().min(1).max(100) });

export const POST = authed(async (req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  const { id } = paramsSchema.parse(await ctx.params);
  return json(await replyToComment(actor, id, replyInput.parse(await readJson(req))), 201);
});
