import { z } from "zod";

// Wire shapes of the imports API: the route answers with these, the client parses them.

/** One import batch as GET /api/imports lists it (newest first). */
export const importBatchSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  format: z.string(),
  project: z.string(),
  status: z.string(),
  trajectories: z.number().int(),
  steps: z.number().int(),
  duplicates: z.number().int(),
  startedAt: z.string(),
});
export type ImportBatch = z.infer<typeof importBatchSchema>;
export const importBatchesSchema = z.object({ batches: z.array(importBatchSchema) });

/** POST /api/imports: what one import added (a refused import answers 422 with its problems instead). */
export const importSuccessSchema = z.object({
  ok: z.literal(true),
  batchId: z.string(),
  project: z.string(),
  trajectories: z.number().int(),
  steps: z.number().int(),
  duplicates: z.number().int(),
  screenshots: z.number().int(),
});
export type ImportSuccess = z.infer<typeof importSuccessSchema>;
