// PATCH /api/comments/:id: resolve a comment or open it again ({isResolved})
import { z } from "zod";
import { resolveInput } from "@/lib/domain/review";
import { authed, json, readJson } from "@/lib/server/http";
import { setCommentResolved } from "@/lib/server/review";

const paramsSchema = z.object({ id: z.string().min(1).max(100) });

export const PATCH = authed(async (req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  const { id } = paramsSchema.parse(await ctx.params);
  return json(await setCommentResolved(actor, id, resolveInput.parse(await readJson(req))));
});
