// GET /api/model/jobs: pre-annotation and judge jobs. POST: start one in the background (admin)
import { startModelJobInput } from "@/lib/domain/model";
import { authed, json, readJson } from "@/lib/server/http";
import { listModelJobs, startModelJob } from "@/lib/server/model-jobs";

export const GET = authed(async (_req: Request, _ctx: unknown, actor) => json({ jobs: await listModelJobs(actor) }));

export const POST = authed(async (req: Request, _ctx: unknown, actor) => {
  const input = startModelJobInput.parse(await readJson(req));
  return json({ job: await startModelJob(actor, input) }, 202);
});
