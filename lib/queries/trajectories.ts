import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { TASK_STATUSES, type TaskStatus } from "@/lib/domain/status";
import { statsSchema, trajectoryPageSchema, trajectoryViewSchema } from "@/lib/domain/views";
import { getJson, searchString, sendJson } from "./fetcher";

export { statsSchema, trajectoryPageSchema, trajectoryRowSchema, trajectoryViewSchema } from "@/lib/domain/views";
export type { StepView, TrajectoryPage, TrajectoryRow, TrajectoryView } from "@/lib/domain/views";

/** List filters as they appear in the URL. */
export type TrajectoryFilters = { app?: string; status?: TaskStatus; q?: string; assignee?: string; page: number };

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
    assignee: one("assignee")?.slice(0, 200),
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

export function filtersToSearch(f: Partial<TrajectoryFilters>): string {
  return searchString({ app: f.app, status: f.status, q: f.q, assignee: f.assignee, page: f.page && f.page > 1 ? f.page : undefined });
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

const assignablePeopleSchema = z.object({ people: z.array(z.object({ email: z.string(), name: z.string(), role: z.string() })) });

/** People an admin can give work to. */
export const assignablePeopleQuery = () =>
  queryOptions({ queryKey: ["assignable-people"] as const, queryFn: ({ signal }) => getJson("/api/assignments", assignablePeopleSchema, signal) });

/** Give trajectories to a person (email) or back to the pool (null). */
export const assignTrajectories = (trajectoryIds: string[], assignee: string | null) =>
  sendJson("POST", "/api/assignments", { trajectoryIds, assignee }, z.object({ assigned: z.number(), unchanged: z.number() }));
