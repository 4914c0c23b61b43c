// PUT /api/gold/rate: the share of each person's takes that are gold tasks, per project (admins)
import { goldRateInput, goldRateResultSchema } from "@/lib/domain/gold";
import { setGoldRate } from "@/lib/server/gold";
import { route } from "@/lib/server/route";

export const PUT = route({
  permission: "project.configure",
  body: goldRateInput,
  output: goldRateResultSchema,
  handler: ({ actor, body }) => setGoldRate({ actor, ...body }),
});
