import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { nextTaskSchema, taskListSchema } from "@/lib/domain/views";
import { apiErrorFrom, getJson } from "./fetcher";

export const taskKeys = { all: ["tasks"] as const, mine: () => [...taskKeys.all, "mine"] as const };

export const myTasksQuery = () =>
  queryOptions({ queryKey: taskKeys.mine(), queryFn: ({ signal }) => getJson("/api/tasks", taskListSchema, signal), staleTime: 5_000 });

/** POST /api/tasks/next: the id of the task to open, or null when there is nothing to do. */
export function useStartNextTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const res = await fetch("/api/tasks/next", { method: "POST", headers: { accept: "application/json" } });
      const body: unknown = await res.json().catch(() => undefined);
      if (!res.ok) throw apiErrorFrom(res.status, body);
      return nextTaskSchema.parse(body).id;
    },
    onSettled: () => void client.invalidateQueries({ queryKey: taskKeys.all }),
  });
}
