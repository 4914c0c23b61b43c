import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { getJson, sendJson } from "./fetcher";
import {
  evalCompareSchema,
  evalEndpointAnswerSchema,
  evalEndpointsSchema,
  evalFailuresSchema,
  evalRunAnswerSchema,
  evalRunsSchema,
  sendResultSchema,
  type FailureKind,
  type SaveEvalEndpointInput,
  type SendToAnnotationInput,
  type StartEvalRunInput,
  type TestEvalEndpointInput,
} from "@/lib/domain/eval";
import { connectionTestSchema } from "@/lib/domain/model";

export type FailureFilters = { app?: string; action?: string; failure?: FailureKind };

export const evalKeys = {
  all: ["eval"] as const,
  endpoints: () => [...evalKeys.all, "endpoints"] as const,
  runs: () => [...evalKeys.all, "runs"] as const,
  run: (id: string) => [...evalKeys.all, "run", id] as const,
  failures: (id: string, f: FailureFilters) => [...evalKeys.all, "failures", id, f] as const,
  compare: (a: string, b: string) => [...evalKeys.all, "compare", a, b] as const,
};

const live = (state: string | undefined) => (state === "running" ? 1_000 : false);

export const evalEndpointsQuery = () =>
  queryOptions({ queryKey: evalKeys.endpoints(), queryFn: ({ signal }) => getJson("/api/eval/endpoints", evalEndpointsSchema, signal) });

export const evalRunsQuery = () =>
  queryOptions({
    queryKey: evalKeys.runs(),
    queryFn: ({ signal }) => getJson("/api/eval/runs", evalRunsSchema, signal),
    refetchInterval: (q) => (q.state.data?.runs.some((r) => r.state === "running") ? 1_000 : false),
  });

export const evalRunQuery = (id: string) =>
  queryOptions({
    queryKey: evalKeys.run(id),
    queryFn: ({ signal }) => getJson(`/api/eval/runs/${encodeURIComponent(id)}`, evalRunAnswerSchema, signal),
    refetchInterval: (q) => live(q.state.data?.run.state),
  });

/** One page (from 1) of a run's failed steps under the filters. */
export const evalFailuresQuery = (id: string, f: FailureFilters, page = 1) => {
  const params = new URLSearchParams(Object.entries(f).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));
  params.set("page", String(page));
  return queryOptions({
    queryKey: [...evalKeys.failures(id, f), page] as const,
    queryFn: ({ signal }) => getJson(`/api/eval/runs/${encodeURIComponent(id)}/failures?${params}`, evalFailuresSchema, signal),
  });
};

export const evalCompareQuery = (a: string, b: string) =>
  queryOptions({
    queryKey: evalKeys.compare(a, b),
    queryFn: ({ signal }) => getJson(`/api/eval/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`, evalCompareSchema, signal),
  });

export function useSaveEvalEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SaveEvalEndpointInput) => sendJson("POST", "/api/eval/endpoints", input, evalEndpointAnswerSchema),
    onSettled: () => client.invalidateQueries({ queryKey: evalKeys.endpoints() }),
  });
}

/** "Test connection" on the endpoint form: one request through the server to the URL and model as typed. */
export function useTestEvalEndpoint() {
  return useMutation({
    mutationFn: (input: TestEvalEndpointInput) =>
      sendJson("POST", "/api/eval/endpoints/test", input, z.object({ test: connectionTestSchema })),
  });
}

export function useStartEvalRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: StartEvalRunInput) => sendJson("POST", "/api/eval/runs", input, evalRunAnswerSchema),
    onSettled: () => client.invalidateQueries({ queryKey: evalKeys.runs() }),
  });
}

export function useCommandEvalRun(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (command: "pause" | "resume" | "cancel") =>
      sendJson("PATCH", `/api/eval/runs/${encodeURIComponent(id)}`, { command }, evalRunAnswerSchema),
    onSettled: () => client.invalidateQueries({ queryKey: evalKeys.all }),
  });
}

export function useSendToAnnotation(id: string) {
  return useMutation({
    mutationFn: (input: SendToAnnotationInput) =>
      sendJson("POST", `/api/eval/runs/${encodeURIComponent(id)}/send`, input, sendResultSchema),
  });
}
