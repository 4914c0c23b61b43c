// GET /api/imports: recent import batches. POST /api/imports: import an uploaded .zip, or a .jsonl with its images
import { AppError } from "@/lib/server/errors";
import { authed, json } from "@/lib/server/http";
import { auditActor, authorize } from "@/lib/server/session";
import { importUpload, listImportBatches } from "@/lib/server/upload";

const SHOWN_PROBLEMS = 1000;

export const GET = authed(async (_req: Request, _ctx: unknown, actor) => {
  authorize(actor, "import.run");
  return json({ batches: await listImportBatches() });
});

export const POST = authed(async (req: Request, _ctx: unknown, actor) => {
  authorize(actor, "import.run");
  const result = await importUpload(req, auditActor(actor));
  if (!result.ok) {
    const n = result.problemCount;
    throw new AppError("unprocessable", `${n} problem${n === 1 ? "" : "s"} found; nothing was imported.`, result.problems.slice(0, SHOWN_PROBLEMS));
  }
  return json(result);
});
