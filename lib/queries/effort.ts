import { queryOptions } from "@tanstack/react-query";
import { effortFiguresSchema, type EffortReportInput } from "@/lib/domain/effort";
import { getJson } from "./fetcher";

/**
 * Send the editor's active time. `keepalive` lets the last report of a closing page still go out; a
 * failed report is dropped (it is a measure, and the next one carries on counting), never retried
 * into a pile of requests.
 */
export function sendEffortReport(report: EffortReportInput): void {
  void fetch("/api/effort", {
    method: "POST",
    headers: { Accept: "application/json", "Content-Type": "application/json" },
    body: JSON.stringify(report),
    keepalive: true,
  }).catch(() => undefined);
}

export const effortFiguresQuery = () =>
  queryOptions({
    queryKey: ["dashboard", "effort"] as const,
    queryFn: ({ signal }) => getJson("/api/dashboard/effort", effortFiguresSchema, signal),
    refetchInterval: 60_000,
  });
