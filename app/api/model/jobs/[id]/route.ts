// GET /api/model/jobs/:id: one job's state, progress and tokens. POST {command: pause|resume|cancel} (admin)
import { modelJobAnswerSchema, modelJobCommandInput } from "@/lib/domain/model";
import { idParams } from "@/lib/domain/views";
import { commandModelJob, getModelJob } from "@/lib/server/model";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "model.manage",
  params: idParams,
  output: modelJobAnswerSchema,
  handler: async ({ actor, params }) => ({ job: await getModelJob({ actor, id: params.id }) }),
});

export const POST = route({
  permission: "model.manage",
  params: idParams,
  body: modelJobCommandInput,
  output: modelJobAnswerSchema,
  handler: async ({ actor, params, body }) => ({ job: await commandModelJob({ actor, id: params.id, command: body.command }) }),
});
