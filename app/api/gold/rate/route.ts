// GET /api/gold/rate: every project's gold rate and gold tasks; PUT: the share of each person's takes that are gold tasks, per project (admins)
import { goldRateInput, goldRateResultSchema, goldRatesSchema } from "@/lib/domain/gold";
import { listGoldRates, setGoldRate } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "project.configure",
  output: goldRatesSchema,
  handler: ({ actor }) => listGoldRates({ actor }),
});

export const PUT = route({
  permission: "project.configure",
  body: goldRateInput,
  output: goldRateResultSchema,
  handler: ({ actor, body }) => setGoldRate({ actor, ...body }),
});
