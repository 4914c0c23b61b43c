// POST /api/tasks/next: start the next task (own unfinished work first, else take a free one); { id } or { id: null }
import { nextTaskSchema } from "@/lib/domain/views";
import { route } from "@/lib/server/route";
import { startNextTask } from "@/lib/server/tasks";

export const POST = route({
  permission: "trajectory.take",
  output: nextTaskSchema,
  handler: async ({ actor }) => ({ id: await startNextTask({ actor }) }),
});
