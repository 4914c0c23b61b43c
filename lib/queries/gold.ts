import { queryOptions } from "@tanstack/react-query";
import { goldAccuracySchema } from "@/lib/domain/gold";
import { getJson } from "./fetcher";

/** Each person's accuracy against gold tasks (GET /api/dashboard/gold). */
export const goldAccuracyQuery = () =>
  queryOptions({
    queryKey: ["dashboard", "gold"] as const,
    queryFn: ({ signal }) => getJson("/api/dashboard/gold", goldAccuracySchema, signal),
    refetchInterval: 60_000,
  });
