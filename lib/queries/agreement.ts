import { queryOptions } from "@tanstack/react-query";
import { agreementReportSchema } from "@/lib/domain/overlap";
import { getJson } from "./fetcher";

/** The agreement between people on overlapped work (GET /api/dashboard/agreement). */
export const agreementQuery = () =>
  queryOptions({
    queryKey: ["dashboard", "agreement"] as const,
    queryFn: ({ signal }) => getJson("/api/dashboard/agreement", agreementReportSchema, signal),
    refetchInterval: 60_000,
  });
