import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { getJson, sendJson } from "./fetcher";
import { type StartExportInput, exportsSchema, exportAnswerSchema } from "@/lib/domain/exports";

export const exportKeys = {
  all: ["exports"] as const,
  list: () => [...exportKeys.all, "list"] as const,
  detail: (id: string) => [...exportKeys.all, "detail", id] as const,
};

export const exportsQuery = () =>
  queryOptions({ queryKey: exportKeys.list(), queryFn: ({ signal }) => getJson("/api/exports", exportsSchema, signal) });

/** One export's progress; polls twice a second while it runs. */
export const exportQuery = (id: string) =>
  queryOptions({
    queryKey: exportKeys.detail(id),
    queryFn: ({ signal }) => getJson(`/api/exports/${encodeURIComponent(id)}`, exportAnswerSchema, signal),
    refetchInterval: (q) => (q.state.data?.export.state === "running" ? 500 : false),
  });

export function useStartExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: StartExportInput) => sendJson("POST", "/api/exports", input, exportAnswerSchema),
    // The answer is the job's first state: its progress polls from there.
    onSuccess: (answer) => client.setQueryData(exportKeys.detail(answer.export.id), answer),
    onSettled: () => client.invalidateQueries({ queryKey: exportKeys.list() }),
  });
}
