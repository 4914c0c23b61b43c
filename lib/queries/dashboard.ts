import { queryOptions } from "@tanstack/react-query";
import { dashboardSchema } from "@/lib/domain/dashboard";
import { getJson } from "./fetcher";

export const dashboardQuery = () =>
  queryOptions({
    queryKey: ["dashboard"] as const,
    queryFn: ({ signal }) => getJson("/api/dashboard", dashboardSchema, signal),
    refetchInterval: 60_000,
  });
