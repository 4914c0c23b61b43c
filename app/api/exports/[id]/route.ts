// GET /api/exports/:id: one export's state, progress and (when finished) counts
import { z } from "zod";
import { authed, json } from "@/lib/server/http";
import { getExport } from "@/lib/server/export-jobs";
import { authorize } from "@/lib/server/session";

const paramsSchema = z.object({ id: z.string().min(1).max(200) });

export const GET = authed(async (_req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  authorize(actor, "export.run");
  const { id } = paramsSchema.parse(await ctx.params);
  return json({ export: await getExport(id) });
});
