import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { boxSchema } from "@/lib/domain/geometry";
import { taskStatusSchema, TASK_STATUSES, type TaskStatus } from "@/lib/domain/status";
import { toolCallSchema } from "@/lib/domain/tool-call";
import { originalOutputSchema, outcomeSchema, verdictSchema } from "@/lib/domain/trajectory";
import type { StudioStats, TrajectoryView } from "@/lib/server/trajectories";
import { getJson, searchString } from "./fetcher";

// The server's view schemas live beside its database code, which the browser cannot import; these
// client copies are pinned to the server types with `satisfies`, so a drift fails the type check.
export const statsSchema = z.object({
  trajectories: z.number(),
  steps: z.number(),
  apps: z.number(),
  screenshots: z.number(),
  byStatus: z.record(taskStatusSchema, z.number()),
  byApp: z.array(z.object({ app: z.string(), trajectories: z.number(), steps: z.number() })),
}) satisfies z.ZodType<StudioStats>;

export const trajectoryRowSchema = z.object({
  id: z.string(),
  app: z.string(),
  instruction: z.string(),
  status: taskStatusSchema,
  outcome: outcomeSchema.nullable(),
  stepCount: z.number(),
  source: z.string(),
  sourceRef: z.string().nullable(),
  updatedAt: z.string(),
});
export type TrajectoryRow = z.infer<typeof trajectoryRowSchema>;

export const trajectoryPageSchema = z.object({
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  rows: z.array(trajectoryRowSchema),
});
export type TrajectoryPage = z.infer<typeof trajectoryPageSchema>;

const stepViewSchema = z.object({
  id: z.string(),
  index: z.number().int(),
  screenshot: z.object({ sha256: z.string(), width: z.number(), height: z.number() }),
  original: originalOutputSchema,
  thought: z.object({ state: z.string(), nextAction: z.string(), purpose: z.string(), text: z.string() }),
  clearAction: z.string(),
  toolCall: toolCallSchema,
  box: boxSchema.nullable(),
  candidateBoxes: z.array(boxSchema),
  verdict: verdictSchema,
  version: z.number().int(),
});

export const trajectoryViewSchema = z.object({
  id: z.string(),
  project: z.string(),
  app: z.string(),
  instruction: z.string(),
  source: z.string(),
  sourceRef: z.string().nullable(),
  status: taskStatusSchema,
  outcome: outcomeSchema.nullable(),
  originalOutcome: outcomeSchema.nullable(),
  isDiscarded: z.boolean(),
  cutAfter: z.number().int().nullable(),
  version: z.number().int(),
  steps: z.array(stepViewSchema),
}) satisfies z.ZodType<TrajectoryView>;
export type { TrajectoryView };
export type StepView = TrajectoryView["steps"][number];

/** List filters as they appear in the URL. */
export type TrajectoryFilters = { app?: string; status?: TaskStatus; q?: string; page: number };

export function parseFilters(params: Record<string, string | string[] | undefined>): TrajectoryFilters {
  const one = (k: string) => {
    const v = params[k];
    const s = (Array.isArray(v) ? v[0] : v)?.trim();
    return s ? s : undefined;
  };
  const status = one("status");
  const page = Number(one("page") ?? 1);
  return {
    app: one("app"),
    status: status && (TASK_STATUSES as readonly string[]).includes(status) ? (status as TaskStatus) : undefined,
    q: one("q")?.slice(0, 200),
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

export function filtersToSearch(f: Partial<TrajectoryFilters>): string {
  return searchString({ app: f.app, status: f.status, q: f.q, page: f.page && f.page > 1 ? f.page : undefined });
}

/** Query keys and options for trajectories, from one factory. */
export const trajectoryKeys = {
  all: ["trajectories"] as const,
  lists: () => [...trajectoryKeys.all, "list"] as const,
  list: (f: TrajectoryFilters) => [...trajectoryKeys.lists(), f] as const,
  detail: (id: string) => [...trajectoryKeys.all, "detail", id] as const,
  stats: () => ["stats"] as const,
};

export const PAGE_SIZE = 50;

export const trajectoryListQuery = (f: TrajectoryFilters) =>
  queryOptions({
    queryKey: trajectoryKeys.list(f),
    queryFn: ({ signal }) => getJson(`/api/trajectories${searchString({ ...f, pageSize: PAGE_SIZE })}`, trajectoryPageSchema, signal),
    placeholderData: (prev) => prev,
  });

export const trajectoryQuery = (id: string) =>
  queryOptions({
    queryKey: trajectoryKeys.detail(id),
    queryFn: ({ signal }) => getJson(`/api/trajectories/${encodeURIComponent(id)}`, trajectoryViewSchema, signal),
  });

export const statsQuery = () =>
  queryOptions({ queryKey: trajectoryKeys.stats(), queryFn: ({ signal }) => getJson("/api/stats", statsSchema, signal) });

/** URL of a stored screenshot: the 720 px WebP for viewing, or the original bytes. */
export function screenshotUrl(sha256: string, variant: "display" | "original" = "display"): string {
  return `/api/screenshots/${sha256}?variant=${variant}`;
}
