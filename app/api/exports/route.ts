// GET /api/exports: running and finished exports. POST /api/exports: start an export in the background (poll GET /api/exports/:id)
import { authed, json, readJson } from "@/lib/server/http";
import { listExports, startExportJob } from "@/lib/server/export-jobs";
import { auditActor, authorize } from "@/lib/server/session";
import { startExportInput } from "@/lib/domain/exports";

export const GET = authed(async (_req: Request, _ctx: unknown, actor) => {
  authorize(actor, "export.run");
  return json({ exports: await listExports() });
});

export const POST = authed(async (req: Request, _ctx: unknown, actor) => {
  authorize(actor, "export.run");
  const input = startExportInput.parse(await readJson(req, { optional: true }));
  return json({ export: await startExportJob(input, auditActor(actor)) }, 202);
});
