// GET /api/eval/runs/:id: one run with its figures. PATCH /api/eval/runs/:id: pause, resume or cancel it
import { evalCommandInput, evalRunAnswerSchema } from "@/lib/domain/eval";
import { idParams } from "@/lib/domain/views";
import { commandEvalRun, getEvalRun } from "@/lib/server/eval";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "model.manage",
  params: idParams,
  output: evalRunAnswerSchema,
  handler: async ({ actor, params }) => ({ run: await getEvalRun({ caller: actor, id: params.id }) }),
});

export const PATCH = route({
  permission: "model.manage",
  params: idParams,
  body: evalCommandInput,
  output: evalRunAnswerSchema,
  handler: async ({ actor, params, body }) => ({ run: await commandEvalRun({ caller: actor, id: params.id, command: body.command }) }),
});
