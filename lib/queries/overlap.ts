import { useMutation, useQueryClient } from "@tanstack/react-query";
import { overlapResultSchema, type OverlapInput } from "@/lib/domain/overlap";
import { sendJson } from "./fetcher";
import { trajectoryKeys } from "./trajectories";

/** Give trajectories to 2 or 3 people independently (POST /api/overlap): each gets its own copy. */
export function useOverlap() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: OverlapInput) => sendJson("POST", "/api/overlap", input, overlapResultSchema),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: trajectoryKeys.lists() });
      void client.invalidateQueries({ queryKey: trajectoryKeys.stats() });
    },
  });
}
