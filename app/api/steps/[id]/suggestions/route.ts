// POST /api/steps/:id/suggestions {kind: thought|action}: ask the model for a suggestion for this step (whoever may edit it)
import { z } from "zod";
import { requestSuggestionInput } from "@/lib/domain/model";
import { authed, json, readJson } from "@/lib/server/http";
import { suggestForStep } from "@/lib/server/suggest";

const paramsSchema = z.object({ id: z.string().min(1).max(100) });

export const POST = authed(async (req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  const { id } = paramsSchema.parse(await ctx.params);
  const { kind } = requestSuggestionInput.parse(await readJson(req));
  return json({ suggestion: await suggestForStep(actor, id, kind) }, 201);
});
