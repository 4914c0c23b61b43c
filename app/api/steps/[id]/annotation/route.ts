// PUT /api/steps/:id/annotation: save one step's annotation (409 with the current step when the version is stale)
import { z } from "zod";
import { saveStepInput } from "@/lib/domain/annotation";
import { saveStepAnnotation } from "@/lib/server/annotate";
import { authed, json, readJson } from "@/lib/server/http";

const paramsSchema = z.object({ id: z.string().min(1).max(100) });

export const PUT = authed(async (req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  const { id } = paramsSchema.parse(await ctx.params);
  const input = saveStepInput.parse(await readJson(req));
  return json(await saveStepAnnotation(actor, id, input));
});
