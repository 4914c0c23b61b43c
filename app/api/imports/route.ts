// GET /api/imports: recent import batches. POST /api/imports: import an uploaded .zip, or a .jsonl with its images
import { AppError } from "@/lib/server/errors";
import { json, route } from "@/lib/server/http";
import { importUpload, listImportBatches } from "@/lib/server/upload";

const SHOWN_PROBLEMS = 1000;

export const GET = route(async () => json({ batches: await listImportBatches() }));

export const POST = route(async (req: Request) => {
  const result = await importUpload(req);
  if (!result.ok) {
    const n = result.problems.length;
    throw new AppError("unprocessable", `${n} problem${n === 1 ? "" : "s"} found; nothing was imported.`, result.problems.slice(0, SHOWN_PROBLEMS));
  }
  return json(result);
});
