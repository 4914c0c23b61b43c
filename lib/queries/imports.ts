import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { importBatchesSchema, importSuccessSchema, type ImportSuccess } from "@/lib/domain/imports";
import type { ImportProblem } from "@/lib/domain/problems";
import { ApiError, apiErrorFrom, getJson } from "./fetcher";
import { trajectoryKeys } from "./trajectories";

const problemSchema = z.object({
  file: z.string(),
  line: z.number().optional(),
  step: z.number().optional(),
  field: z.string().optional(),
  message: z.string(),
}) satisfies z.ZodType<ImportProblem>;

/** The problems an import error carries (empty for other errors). */
export function problemsOf(e: unknown): ImportProblem[] {
  if (!(e instanceof ApiError)) return [];
  const parsed = z.array(problemSchema).safeParse(e.issues);
  return parsed.success ? parsed.data : [];
}

export const importKeys = { all: ["imports"] as const, batches: () => [...importKeys.all, "batches"] as const };

export const importBatchesQuery = () =>
  queryOptions({
    queryKey: importKeys.batches(),
    queryFn: ({ signal }) => getJson("/api/imports", importBatchesSchema, signal),
  });

export type UploadProgress = { phase: "uploading"; loaded: number; total: number } | { phase: "importing" };

/**
 * POST the form to /api/imports. XMLHttpRequest rather than fetch because only it reports upload
 * progress; the server then checks and imports, which shows as the "importing" phase.
 */
export function postImport(form: FormData, onProgress: (p: UploadProgress) => void): Promise<ImportSuccess> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/imports");
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => onProgress({ phase: "uploading", loaded: e.loaded, total: e.total });
    xhr.upload.onload = () => onProgress({ phase: "importing" });
    xhr.onerror = () => reject(new ApiError(0, "network", "The upload was interrupted; check the connection and try again."));
    xhr.onload = () => {
      const body: unknown = xhr.response;
      if (xhr.status < 200 || xhr.status >= 300) return reject(apiErrorFrom(xhr.status, body));
      const parsed = importSuccessSchema.safeParse(body);
      if (parsed.success) resolve(parsed.data);
      else reject(new ApiError(xhr.status, "bad_response", "The server's answer was not understood."));
    };
    xhr.send(form);
  });
}

export function useImportMutation(onProgress: (p: UploadProgress) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => postImport(form, onProgress),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: importKeys.all });
      void client.invalidateQueries({ queryKey: trajectoryKeys.all });
      void client.invalidateQueries({ queryKey: trajectoryKeys.stats() });
    },
  });
}
