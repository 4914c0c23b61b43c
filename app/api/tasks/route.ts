// GET /api/tasks: the signed-in person's tasks with progress, and how many are free to take
import { authed, json } from "@/lib/server/http";
import { listMyTasks } from "@/lib/server/tasks";

export const GET = authed(async (_req: Request, _ctx: unknown, actor) => json(await listMyTasks(actor)));
