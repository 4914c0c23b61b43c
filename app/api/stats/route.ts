// GET /api/stats: counts of trajectories, steps, apps and statuses
import { json, route } from "@/lib/server/http";
import { getStats } from "@/lib/server/trajectories";

export const GET = route(async () => json(await getStats()));
