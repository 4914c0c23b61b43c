// GET /api/imports: recent imports in every state (running ones with their progress), and how many trajectories the seed brought.
// POST /api/imports: upload a .zip, or a .jsonl with its images; answers 202 with the running import
// once the files are received (poll GET /api/imports/:id); a refused upload answers its error and leaves nothing.
import { importJobAnswerSchema, importJobsSchema } from "@/lib/domain/imports";
import { listImportJobs, seededTrajectories, startUploadImport } from "@/lib/server/import";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "import.run",
  output: importJobsSchema,
  handler: async ({ actor }) => ({ jobs: await listImportJobs({ actor }), seeded: await seededTrajectories({ actor }) }),
});

// The body is a multipart upload, streamed to disk by the use case (no JSON body to parse here).
export const POST = route({
  permission: "import.run",
  output: importJobAnswerSchema,
  status: 202,
  handler: async ({ actor, req }) => ({ job: await startUploadImport({ actor, req }) }),
});
