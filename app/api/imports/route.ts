// GET /api/imports: recent import batches. POST /api/imports: import an uploaded .zip, or a .jsonl with its images
import { importBatchesSchema, importSuccessSchema } from "@/lib/domain/imports";
import { AppError } from "@/lib/server/errors";
import { route } from "@/lib/server/route";
import { importUpload, listImportBatches } from "@/lib/server/upload";

const SHOWN_PROBLEMS = 1000;

export const GET = route({
  permission: "import.run",
  output: importBatchesSchema,
  handler: async ({ actor }) => ({ batches: await listImportBatches({ actor }) }),
});

// The body is a multipart upload, streamed to disk by the use case (no JSON body to parse here).
export const POST = route({
  permission: "import.run",
  output: importSuccessSchema,
  handler: async ({ actor, req }) => {
    const result = await importUpload(req, actor);
    if (result.ok) return result;
    const n = result.problemCount;
    throw new AppError(
      "unprocessable",
      `${n} problem${n === 1 ? "" : "s"} found; nothing was imported.`,
      result.problems.slice(0, SHOWN_PROBLEMS),
    );
  },
});
