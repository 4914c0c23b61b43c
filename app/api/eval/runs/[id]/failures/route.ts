// GET /api/eval/runs/:id/failures?app=&action=&failure=: the run's failed steps, both actions in original pixels
import { evalFailuresQuery, evalFailuresSchema } from "@/lib/domain/eval";
import { idParams } from "@/lib/domain/views";
import { evalFailures } from "@/lib/server/eval";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "model.manage",
  params: idParams,
  query: evalFailuresQuery,
  output: evalFailuresSchema,
  handler: async ({ actor, params, query }) => ({ failures: await evalFailures({ caller: actor, id: params.id, ...query }) }),
});
