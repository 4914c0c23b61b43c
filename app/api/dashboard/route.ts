// GET /api/dashboard: progress and quality counts (reviewers and admins)
import { authed, json } from "@/lib/server/http";
import { getDashboard } from "@/lib/server/dashboard";

export const GET = authed(async (_req: Request, _ctx: unknown, actor) => json(await getDashboard(actor)));
