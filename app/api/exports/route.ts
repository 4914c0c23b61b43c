// GET /api/exports: running and finished exports. POST /api/exports: start an export in the background (poll GET /api/exports/:id)
import { exportAnswerSchema, exportsSchema, startExportInput } from "@/lib/domain/exports";
import { startExportJob, listExports } from "@/lib/server/export";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "export.run",
  output: exportsSchema,
  handler: async ({ actor }) => ({ exports: await listExports({ actor }) }),
});

export const POST = route({
  permission: "export.run",
  body: startExportInput,
  output: exportAnswerSchema,
  status: 202,
  handler: async ({ actor, body }) => ({ export: await startExportJob({ actor, ...body }) }),
});
