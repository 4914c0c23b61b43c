import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { importJobAnswerSchema, importProblemSchema, importJobsSchema, type ImportJob } from "@/lib/domain/imports";
import type { ImportProblem } from "@/lib/domain/problems";
import { ApiError, apiErrorFrom, getJson } from "./fetcher";
import { trajectoryKeys } from "./trajectories";

/** The problems an import error carries (empty for other errors). */
export function problemsOf(e: unknown): ImportProblem[] {
  if (!(e instanceof ApiError)) return [];
  const parsed = z.array(importProblemSchema).safeParse(e.issues);
  return parsed.success ? parsed.data : [];
}

export const importKeys = {
  all: ["imports"] as const,
  jobs: () => [...importKeys.all, "jobs"] as const,
  job: (id: string) => [...importKeys.all, "job", id] as const,
};

/** How often a running import is asked about. */
const POLL_MS = 700;

/** Recent imports; asked again every moment while one of them runs. */
export const importJobsQuery = () =>
  queryOptions({
    queryKey: importKeys.jobs(),
    queryFn: ({ signal }) => getJson("/api/imports", importJobsSchema, signal),
    refetchInterval: (q) => (q.state.data?.jobs.some((j) => j.state === "running") ? POLL_MS : false),
  });

/** One import, followed until it ends. */
export const importJobQuery = (id: string) =>
  queryOptions({
    queryKey: importKeys.job(id),
    queryFn: ({ signal }) => getJson(`/api/imports/${encodeURIComponent(id)}`, importJobAnswerSchema, signal).then((r) => r.job),
    refetchInterval: (q) => (q.state.data && q.state.data.state !== "running" ? false : POLL_MS),
  });

export type UploadProgress = { phase: "uploading"; loaded: number; total: number } | { phase: "received" };

/**
 * POST the form to /api/imports. XMLHttpRequest rather than fetch because only it reports upload
 * progress; once the server has the files it answers with the running import (then followed with
 * importJobQuery).
 */
export function postImport(form: FormData, onProgress: (p: UploadProgress) => void): Promise<ImportJob> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/imports");
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => onProgress({ phase: "uploading", loaded: e.loaded, total: e.total });
    xhr.upload.onload = () => onProgress({ phase: "received" });
    xhr.onerror = () => reject(new ApiError(0, "network", "The upload was interrupted; check the connection and try again."));
    xhr.onload = () => {
      const body: unknown = xhr.response;
      if (xhr.status < 200 || xhr.status >= 300) return reject(apiErrorFrom(xhr.status, body));
      const parsed = importJobAnswerSchema.safeParse(body);
      if (parsed.success) resolve(parsed.data.job);
      else reject(new ApiError(xhr.status, "bad_response", "The server's answer was not understood."));
    };
    xhr.send(form);
  });
}

export function useImportMutation(onProgress: (p: UploadProgress) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => postImport(form, onProgress),
    onSettled: () => void client.invalidateQueries({ queryKey: importKeys.jobs() }),
  });
}

/** What an ended import changed: the lists and counts that may show its trajectories. */
export function useImportEnded() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: importKeys.jobs() });
    void client.invalidateQueries({ queryKey: trajectoryKeys.all });
    void client.invalidateQueries({ queryKey: trajectoryKeys.stats() });
  };
}
