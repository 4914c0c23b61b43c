// GET /api/stats: counts of trajectories, steps, apps and statuses (an annotator's own work only)
import { authed, json } from "@/lib/server/http";
import { getStats } from "@/lib/server/trajectories";

export const GET = authed(async (_req: Request, _ctx: unknown, actor) => json(await getStats(actor)));
