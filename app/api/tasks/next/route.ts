// POST /api/tasks/next: start the next task (own unfinished work first, else take a free one); { id } or { id: null };
// ?skipNearDuplicates=true passes over near-duplicates that are not their group's keeper
import { nextTaskQuery, nextTaskSchema } from "@/lib/domain/views";
import { route } from "@/lib/server/http";
import { startNextTask } from "@/lib/server/annotate";

export const POST = route({
  permission: "trajectory.take",
  query: nextTaskQuery,
  output: nextTaskSchema,
  handler: async ({ actor, query }) => ({ id: await startNextTask({ actor, skipNearDuplicates: query.skipNearDuplicates === "true" }) }),
});
