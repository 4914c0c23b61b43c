import { z } from "zod";

// Wire shapes of the imports API: the route answers with these, the client parses them.

/** One problem found in imported data, as the import page lists it. */
export const importProblemSchema = z.object({
  file: z.string(),
  line: z.number().optional(),
  step: z.number().optional(),
  field: z.string().optional(),
  message: z.string(),
});

export const IMPORT_JOB_STATES = ["running", "succeeded", "refused", "failed"] as const;
export const IMPORT_PHASES = ["checking", "writing", "committing"] as const;

/**
 * An import as its person follows it (POST /api/imports answers 202 with it; GET /api/imports/:id
 * polls it): running with its phase and counts, then succeeded (what it added), refused (the
 * problems in the data; nothing imported) or failed (the server's error; nothing imported).
 */
export const importJobSchema = z.object({
  id: z.string(),
  state: z.enum(IMPORT_JOB_STATES),
  fileName: z.string(),
  format: z.string(),
  project: z.string(),
  createdBy: z.string(),
  phase: z.enum(IMPORT_PHASES),
  lines: z.number().int(),
  trajectories: z.number().int(),
  steps: z.number().int(),
  duplicates: z.number().int(),
  screenshots: z.number().int(),
  batchId: z.string().nullable(),
  problems: z.array(importProblemSchema),
  problemCount: z.number().int(),
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportJob = z.infer<typeof importJobSchema>;
export const importJobsSchema = z.object({ jobs: z.array(importJobSchema) });
/** POST /api/imports (202) and GET /api/imports/:id. */
export const importJobAnswerSchema = z.object({ job: importJobSchema });
