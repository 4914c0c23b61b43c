import { z } from "zod";
import { storedMessageSchema } from "./stored-message";
import { trainerHintsSchema } from "./trainer-hints";
import { text } from "./limits";
import { nextStatus, TASK_STATUSES, type TaskStatus } from "./status";

// Wire shapes of the exports API: route handlers shape their answers with these, the client parses them.

/** Which trajectories an export takes: see exportedStatuses. */
export const EXPORT_STATUS_OPTIONS = ["approved", "submitted", "all"] as const;
export type ExportStatusOption = (typeof EXPORT_STATUS_OPTIONS)[number];

/**
 * The task statuses an export option takes, asked of the transition table: `approved` only
 * approved work; `submitted` adds the work a reviewer can still approve; `all` every status.
 */
export function exportedStatuses(option: ExportStatusOption): readonly TaskStatus[] {
  if (option === "all") return TASK_STATUSES;
  return TASK_STATUSES.filter((s) => s === "approved" || (option === "submitted" && nextStatus(s, "approve") === "approved"));
}

export const startExportInput = z.object({
  status: z.enum(EXPORT_STATUS_OPTIONS).default("approved"),
  apps: z.array(text("appName").trim().min(1)).max(200).default([]),
  project: text("projectName")
    .trim()
    .optional()
    .transform((s) => s || undefined),
  /** random:<seed>:<ratios> or by-app:<apps>, as the CLI's --split */
  split: text("split")
    .trim()
    .optional()
    .transform((s) => s || undefined),
});
export type StartExportInput = z.input<typeof startExportInput>;
export type StartExport = z.output<typeof startExportInput>;

export const exportCountsSchema = z.object({
  trajectories: z.number(),
  steps: z.number(),
  trainingSteps: z.number(),
  harmfulSteps: z.number(),
  screenshots: z.number(),
  bySplit: z.record(z.string(), z.number()),
});

/** One export: a job recorded in the database (web or CLI, any studio process), or a finished folder found in the exports directory. */
export const exportSchema = z.object({
  id: z.string(),
  state: z.enum(["running", "succeeded", "failed"]),
  outDir: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  progress: z.object({ trajectories: z.number(), total: z.number() }),
  filters: z.object({ status: z.string(), apps: z.array(z.string()), project: z.string().nullable(), split: z.string().nullable() }),
  counts: exportCountsSchema.nullable(),
  /** Longest rows measured at export time (manifest.trainer), for the trainer settings; absent for older exports. */
  trainer: trainerHintsSchema.nullable().optional(),
  /** The failure in English (scripts); `errorMessage` is what the page words in its reader's language. */
  error: z.string().nullable(),
  errorMessage: storedMessageSchema.nullable().optional(),
});
export type ExportItem = z.infer<typeof exportSchema>;

export const exportsSchema = z.object({ exports: z.array(exportSchema) });
export const exportAnswerSchema = z.object({ export: exportSchema });
