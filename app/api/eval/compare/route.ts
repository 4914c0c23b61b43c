// GET /api/eval/compare?a=&b=: two runs on the same set version, each figure with its difference, regressions first
import { evalCompareQuery, evalCompareSchema } from "@/lib/domain/eval";
import { compareEvalRuns } from "@/lib/server/eval";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "model.manage",
  query: evalCompareQuery,
  output: evalCompareSchema,
  handler: ({ actor, query }) => compareEvalRuns({ caller: actor, a: query.a, b: query.b }),
});
