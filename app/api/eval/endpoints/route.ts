// GET /api/eval/endpoints: saved evaluation endpoints. POST /api/eval/endpoints: save one by name (replaces it)
import { evalEndpointAnswerSchema, evalEndpointsSchema, saveEvalEndpointInput } from "@/lib/domain/eval";
import { listEvalEndpoints, saveEvalEndpoint } from "@/lib/server/eval";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "model.manage",
  output: evalEndpointsSchema,
  handler: async ({ actor }) => ({ endpoints: await listEvalEndpoints({ caller: actor }) }),
});

export const POST = route({
  permission: "model.manage",
  body: saveEvalEndpointInput,
  output: evalEndpointAnswerSchema,
  handler: async ({ actor, body }) => ({ endpoint: await saveEvalEndpoint({ caller: actor, ...body }) }),
});
