import { queryOptions } from "@tanstack/react-query";
import { adjudicationViewSchema, type AdjudicateInput } from "@/lib/domain/adjudication";
import { trajectoryViewSchema } from "@/lib/domain/views";
import { getJson, sendJson } from "./fetcher";

/** An overlapped trajectory with every person's copy (GET /api/trajectories/:id/adjudication). */
export const adjudicationQuery = (id: string) =>
  queryOptions({
    queryKey: ["adjudication", id] as const,
    queryFn: ({ signal }) => getJson(`/api/trajectories/${encodeURIComponent(id)}/adjudication`, adjudicationViewSchema, signal),
  });

/** Approve the values chosen among the copies. */
export function adjudicate(id: string, body: AdjudicateInput) {
  return sendJson("POST", `/api/trajectories/${encodeURIComponent(id)}/adjudication`, body, trajectoryViewSchema);
}
