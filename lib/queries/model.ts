import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import {
  connectionTestSchema,
  judgeAgreementSchema,
  modelJobAnswerSchema,
  modelJobListSchema,
  modelSettingsViewSchema,
  suggestionViewSchema,
  type SaveModelSettingsInput,
  type StartModelJobInput,
  type SuggestionKind,
} from "@/lib/domain/model";
import { apiErrorFrom, getJson, sendJson } from "./fetcher";
export * from "@/lib/domain/model";

export const modelKeys = {
  all: ["model"] as const,
  settings: () => [...modelKeys.all, "settings"] as const,
  jobs: () => [...modelKeys.all, "jobs"] as const,
  agreement: () => [...modelKeys.all, "agreement"] as const,
};

const settingsAnswer = z.object({ settings: modelSettingsViewSchema });

export const modelSettingsQuery = () =>
  queryOptions({ queryKey: modelKeys.settings(), queryFn: ({ signal }) => getJson("/api/model/settings", settingsAnswer, signal) });

export function useSaveModelSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SaveModelSettingsInput) => sendJsonPut("/api/model/settings", input, settingsAnswer),
    onSuccess: (answer) => client.setQueryData(modelKeys.settings(), answer),
  });
}

/** PUT with the same error handling as sendJson. */
async function sendJsonPut<T>(url: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
  const res = await fetch(url, {
    method: "PUT",
    headers: { Accept: "application/json", "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer: unknown = await res.json().catch(() => undefined);
  if (!res.ok) throw apiErrorFrom(res.status, answer);
  return schema.parse(answer);
}

export function useTestModelConnection() {
  return useMutation({ mutationFn: () => sendJson("POST", "/api/model/test", undefined, z.object({ test: connectionTestSchema })) });
}

/** Jobs, polled every second while one runs, and every five while one is paused (its last item may still land). */
export const modelJobsQuery = () =>
  queryOptions({
    queryKey: modelKeys.jobs(),
    queryFn: ({ signal }) => getJson("/api/model/jobs", modelJobListSchema, signal),
    refetchInterval: (q) => {
      const jobs = q.state.data?.jobs ?? [];
      return jobs.some((j) => j.state === "running") ? 1_000 : jobs.some((j) => j.state === "paused") ? 5_000 : false;
    },
  });

export function useStartModelJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: StartModelJobInput) => sendJson("POST", "/api/model/jobs", input, modelJobAnswerSchema),
    onSettled: () => client.invalidateQueries({ queryKey: modelKeys.jobs() }),
  });
}

export function useModelJobCommand() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, command }: { id: string; command: "pause" | "resume" | "cancel" }) =>
      sendJson("POST", `/api/model/jobs/${encodeURIComponent(id)}`, { command }, modelJobAnswerSchema),
    onSettled: () => client.invalidateQueries({ queryKey: modelKeys.jobs() }),
  });
}

export const judgeAgreementQuery = () =>
  queryOptions({ queryKey: modelKeys.agreement(), queryFn: ({ signal }) => getJson("/api/judge/agreement", judgeAgreementSchema, signal) });

const suggestionAnswer = z.object({ suggestion: suggestionViewSchema });

export function requestSuggestion(stepId: string, kind: SuggestionKind) {
  return sendJson("POST", `/api/steps/${encodeURIComponent(stepId)}/suggestions`, { kind }, suggestionAnswer).then((a) => a.suggestion);
}

const waitingAnswer = z.object({ suggestion: suggestionViewSchema.nullable() });

/** The suggestion a job left waiting on this step (an evaluation run's answer sent to annotation), or null. */
export function waitingSuggestionRequest(stepId: string, signal?: AbortSignal) {
  return getJson(`/api/steps/${encodeURIComponent(stepId)}/suggestions`, waitingAnswer, signal).then((a) => a.suggestion);
}

export function acceptSuggestionRequest(id: string) {
  return sendJson("POST", `/api/suggestions/${encodeURIComponent(id)}/accept`, undefined, suggestionAnswer).then((a) => a.suggestion);
}
