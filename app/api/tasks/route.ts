// GET /api/tasks: the signed-in person's tasks with progress, and how many are free to take
import { taskListSchema } from "@/lib/domain/views";
import { route } from "@/lib/server/http";
import { listMyTasks } from "@/lib/server/annotate";

export const GET = route({ permission: "signed-in", output: taskListSchema, handler: ({ actor }) => listMyTasks({ actor }) });
