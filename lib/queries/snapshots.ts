import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { getJson, sendJson } from "./fetcher";
import {
  releaseDiffSchema,
  snapshotAnswerSchema,
  snapshotsSchema,
  type CutReleaseInput,
  type FreezeEvalSetInput,
} from "@/lib/domain/snapshots";

export const snapshotKeys = {
  all: ["snapshots"] as const,
  evalSets: () => [...snapshotKeys.all, "eval-sets"] as const,
  releases: () => [...snapshotKeys.all, "releases"] as const,
  diff: (from: number, to: number) => [...snapshotKeys.all, "diff", from, to] as const,
};

export const evalSetsQuery = () =>
  queryOptions({ queryKey: snapshotKeys.evalSets(), queryFn: ({ signal }) => getJson("/api/eval-sets", snapshotsSchema, signal) });

export const releasesQuery = () =>
  queryOptions({ queryKey: snapshotKeys.releases(), queryFn: ({ signal }) => getJson("/api/releases", snapshotsSchema, signal) });

export const releaseDiffQuery = (from: number, to: number) =>
  queryOptions({
    queryKey: snapshotKeys.diff(from, to),
    queryFn: ({ signal }) => getJson(`/api/releases/diff?from=${from}&to=${to}`, releaseDiffSchema, signal),
  });

export function useFreezeEvalSet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: FreezeEvalSetInput) => sendJson("POST", "/api/eval-sets", input, snapshotAnswerSchema),
    onSettled: () => client.invalidateQueries({ queryKey: snapshotKeys.all }),
  });
}

export function useSetHeldOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, heldOut }: { id: string; heldOut: boolean }) =>
      sendJson("PATCH", `/api/eval-sets/${encodeURIComponent(id)}`, { heldOut }, snapshotAnswerSchema),
    onSettled: () => client.invalidateQueries({ queryKey: snapshotKeys.all }),
  });
}

export function useCutRelease() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CutReleaseInput) => sendJson("POST", "/api/releases", input, snapshotAnswerSchema),
    onSettled: () => client.invalidateQueries({ queryKey: snapshotKeys.all }),
  });
}
