// POST /api/trajectories/:id/lease: the editor's heartbeat, extending the assignee's lease
import { z } from "zod";
import { renewLease } from "@/lib/server/annotate";
import { authed, json } from "@/lib/server/http";

const paramsSchema = z.object({ id: z.string().min(1).max(100) });

export const POST = authed(async (_req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  const { id } = paramsSchema.parse(await ctx.params);
  return json(await renewLease(actor, id));
});
