// GET /api/eval/runs/:id/failures?app=&action=&failure=&page=&perPage=: one page of the run's failed steps (both
// actions in original pixels), the total that matches and a count per filter option
import { evalFailuresQuery, evalFailuresSchema } from "@/lib/domain/eval";
import { idParams } from "@/lib/domain/views";
import { evalFailures } from "@/lib/server/eval";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "model.manage",
  params: idParams,
  query: evalFailuresQuery,
  output: evalFailuresSchema,
  handler: ({ actor, params, query }) => evalFailures({ caller: actor, id: params.id, ...query }),
});
