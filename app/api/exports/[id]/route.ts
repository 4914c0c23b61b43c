// GET /api/exports/:id: one export's state, progress and (when finished) counts
import { exportAnswerSchema } from "@/lib/domain/exports";
import { idParams } from "@/lib/domain/views";
import { getExport } from "@/lib/server/export";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "export.run",
  params: idParams,
  output: exportAnswerSchema,
  handler: async ({ actor, params }) => ({ export: await getExport({ actor, id: params.id }) }),
});
