// GET /api/eval/runs: evaluation runs, newest first. POST /api/eval/runs: start one (a set, a saved endpoint, a rule)
import { evalRunAnswerSchema, evalRunsSchema, startEvalRunInput } from "@/lib/domain/eval";
import { listEvalRuns, startEvalRun } from "@/lib/server/eval";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "model.manage",
  output: evalRunsSchema,
  handler: async ({ actor }) => ({ runs: await listEvalRuns({ caller: actor }) }),
});

export const POST = route({
  permission: "model.manage",
  body: startEvalRunInput,
  output: evalRunAnswerSchema,
  status: 202,
  handler: async ({ actor, body }) => ({ run: await startEvalRun({ caller: actor, ...body }) }),
});
