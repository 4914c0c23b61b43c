import { queryOptions } from "@tanstack/react-query";
import { assignablePeopleSchema, assignResultSchema, type AssignInput } from "@/lib/domain/assignments";
import {
  statsSchema,
  trajectoryFiltersSchema,
  trajectoryPageSchema,
  trajectoryViewSchema,
  type TrajectoryFilters,
} from "@/lib/domain/views";
import { filtersFromUrl, getJson, searchString, sendJson } from "./fetcher";

export function parseFilters(params: Record<string, string | string[] | undefined>): TrajectoryFilters {
  return filtersFromUrl(trajectoryFiltersSchema, params);
}

export function filtersToSearch(f: Partial<TrajectoryFilters>): string {
  return searchString({
    project: f.project,
    app: f.app,
    status: f.status,
    q: f.q,
    assignee: f.assignee,
    duplicates: f.duplicates,
    copies: f.copies,
    copyOf: f.copyOf,
    sort: f.sort,
    dir: f.sort ? (f.dir ?? "asc") : undefined,
    page: f.page && f.page > 1 ? f.page : undefined,
  });
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

/** People an admin can give work to. */
export const assignablePeopleQuery = () =>
  queryOptions({
    queryKey: ["assignable-people"] as const,
    queryFn: ({ signal }) => getJson("/api/assignments", assignablePeopleSchema, signal),
  });

/** Give trajectories to a person (email) or back to the pool (null); `skipNearDuplicates` leaves out re-runs that are not their group's keeper. */
export const assignTrajectories = (trajectoryIds: string[], assignee: string | null, skipNearDuplicates = false) =>
  sendJson("POST", "/api/assignments", { trajectoryIds, assignee, skipNearDuplicates } satisfies AssignInput, assignResultSchema);
