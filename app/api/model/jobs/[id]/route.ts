// GET /api/model/jobs/:id: one job's state, progress and tokens. POST {command: pause|resume|cancel} (admin)
import { z } from "zod";
import { modelJobCommandInput } from "@/lib/domain/model";
import { authed, json, readJson } from "@/lib/server/http";
import { commandModelJob, getModelJob } from "@/lib/server/model-jobs";

const paramsSchema = z.object({ id: z.string().min(1).max(200) });

export const GET = authed(async (_req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  const { id } = paramsSchema.parse(await ctx.params);
  return json({ job: await getModelJob(actor, id) });
});

export const POST = authed(async (req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  const { id } = paramsSchema.parse(await ctx.params);
  const { command } = modelJobCommandInput.parse(await readJson(req));
  return json({ job: await commandModelJob(actor, id, command) });
});
