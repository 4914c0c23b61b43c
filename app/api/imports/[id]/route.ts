// GET /api/imports/:id: one import, running (phase and counts) or ended (what it added, its problems, or its error)
import { importJobAnswerSchema } from "@/lib/domain/imports";
import { idParams } from "@/lib/domain/views";
import { getImportJob } from "@/lib/server/import";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "import.run",
  params: idParams,
  output: importJobAnswerSchema,
  handler: async ({ actor, params }) => ({ job: await getImportJob({ actor, id: params.id }) }),
});
