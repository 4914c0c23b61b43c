// POST /api/eval/endpoints/test: "Test connection" on the endpoint form: one request to the URL and model as typed (admin)
import { z } from "zod";
import { testEvalEndpointInput } from "@/lib/domain/eval";
import { connectionTestSchema } from "@/lib/domain/model";
import { testEvalEndpoint } from "@/lib/server/eval";
import { route } from "@/lib/server/http";

export const POST = route({
  permission: "model.manage",
  body: testEvalEndpointInput,
  output: z.object({ test: connectionTestSchema }),
  handler: async ({ actor, body, req }) => ({ test: await testEvalEndpoint({ caller: actor, signal: req.signal, ...body }) }),
});
