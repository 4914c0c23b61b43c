// POST /api/tasks/next: start the next task (own unfinished work first, else take a free one); { id } or { id: null }
import { authed, json } from "@/lib/server/http";
import { startNextTask } from "@/lib/server/tasks";

export const POST = authed(async (_req: Request, _ctx: unknown, actor) => json({ id: await startNextTask(actor) }));
