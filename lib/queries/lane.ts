import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { projectLaneListSchema, projectLaneViewSchema, type FastLaneAfter, type FastLaneSubmitInput } from "@/lib/domain/lane";
import { trajectoryViewSchema } from "@/lib/domain/views";
import { getJson, sendJson } from "./fetcher";
import { taskKeys } from "./tasks";
import { trajectoryKeys } from "./trajectories";

export const laneKeys = {
  all: ["lane"] as const,
  projects: () => [...laneKeys.all, "projects"] as const,
};

/** The projects with their fast-lane setting (admin). */
export const projectLanesQuery = () =>
  queryOptions({ queryKey: laneKeys.projects(), queryFn: ({ signal }) => getJson("/api/projects", projectLaneListSchema, signal) });

/** Set what the fast lane does after the first error in one project. */
export function useSetProjectLane() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, fastLaneAfter }: { id: string; fastLaneAfter: FastLaneAfter }) =>
      sendJson("PUT", `/api/projects/${encodeURIComponent(id)}/lane`, { fastLaneAfter }, projectLaneViewSchema),
    onSettled: () => void client.invalidateQueries({ queryKey: laneKeys.projects() }),
  });
}

/** Hand a trajectory in through the first-error fast lane. */
export function useFastLaneSubmit(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: FastLaneSubmitInput) =>
      sendJson("POST", `/api/trajectories/${encodeURIComponent(id)}/fast-lane`, input, trajectoryViewSchema),
    onSuccess: (view) => client.setQueryData(trajectoryKeys.detail(id), view),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: taskKeys.all });
      void client.invalidateQueries({ queryKey: trajectoryKeys.lists() });
      void client.invalidateQueries({ queryKey: ["dashboard"] });
    },
  });
}
