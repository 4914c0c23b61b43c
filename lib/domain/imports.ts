import { z } from "zod";
import { storedMessageSchema } from "./stored-message";
import { IMPORT_PROBLEM_CODES, type ImportProblem } from "./problems";

// Wire shapes of the imports API: the route answers with these, the client parses them.

/** One problem found in imported data, as the import page lists it. */
export const importProblemSchema = z
  .object({
    file: z.string(),
    line: z.number().optional(),
    step: z.number().optional(),
    field: z.string().optional(),
    // Problems stored before they had codes (or with a code this build does not know) read as their stored words.
    code: z.enum(IMPORT_PROBLEM_CODES).catch("other"),
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    message: z.string(),
  })
  .transform((p): ImportProblem => (p.code === "other" && !p.params ? { ...p, params: { detail: p.message } } : p));

/**
 * What an import does with trajectories whose content (the import's fingerprint: app, instruction,
 * each step's screenshot hash and original model output) is already in ANOTHER project: stop and
 * ask before writing anything ("ask"), import them as copies anyway ("import"), or leave them out
 * ("skip"). The same content in the import's own project is always skipped (a duplicate).
 */
export const OTHER_PROJECT_CHOICES = ["ask", "import", "skip"] as const;
export const otherProjectChoiceSchema = z.enum(OTHER_PROJECT_CHOICES);
export type OtherProjectChoice = z.infer<typeof otherProjectChoiceSchema>;

/** How many trajectories of a file are already in one other project, by the project's name. */
export const otherProjectCopiesSchema = z.array(z.object({ project: z.string(), count: z.number().int().positive() }));
export type OtherProjectCopies = z.infer<typeof otherProjectCopiesSchema>;

/** asked: stopped before writing anything because some of the data is already in other projects (`otherProjects`). */
export const IMPORT_JOB_STATES = ["running", "succeeded", "refused", "failed", "asked"] as const;
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
  /**
   * Trajectories of the file already in other projects, by project: asked about (state asked),
   * skipped or imported as copies (succeeded, as `onOtherProjects` says).
   */
  otherProjects: otherProjectCopiesSchema,
  onOtherProjects: otherProjectChoiceSchema,
  /** The failure in English (scripts); `errorMessage` is what the page words in its reader's language. */
  error: z.string().nullable(),
  errorMessage: storedMessageSchema.nullable().optional(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ImportJob = z.infer<typeof importJobSchema>;
/**
 * GET /api/imports: the recent imports, and how many trajectories came in without one (the demo
 * seed loads its data through the import itself, but not as a job anyone ran), so the page can say
 * where those came from.
 */
export const importJobsSchema = z.object({ jobs: z.array(importJobSchema), seeded: z.number().int() });
/** POST /api/imports (202) and GET /api/imports/:id. */
export const importJobAnswerSchema = z.object({ job: importJobSchema });
