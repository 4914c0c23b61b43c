// DELETE /api/tokens/:id: revoke a token: your own, or anyone's for admins
import { z } from "zod";
import { can } from "@/lib/domain/permissions";
import { authed, json } from "@/lib/server/http";
import { auditActor, authorize } from "@/lib/server/session";
import { revokeToken } from "@/lib/server/tokens";

const paramsSchema = z.object({ id: z.string().min(1).max(100) });

export const DELETE = authed(async (_req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  authorize(actor, "tokens.manage-own");
  const { id } = paramsSchema.parse(await ctx.params);
  // Someone else's token is "not found" unless you may manage every token.
  await revokeToken(auditActor(actor), id, can(actor, "tokens.manage-all") ? undefined : actor.id);
  return json({ ok: true });
});
