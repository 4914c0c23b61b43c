// POST /api/effort: the editor's active time since its last report, per step (idle and hidden time excluded)
import { effortReportAnswer, effortReportInput } from "@/lib/domain/effort";
import { recordEffort } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const POST = route({
  permission: "signed-in",
  body: effortReportInput,
  output: effortReportAnswer,
  handler: async ({ actor, body }) => ({ recorded: await recordEffort({ actor, ...body }) }),
});
