// GET /api/reviews: submitted work waiting for review (reviewers and admins)
import { authed, json } from "@/lib/server/http";
import { reviewQueue } from "@/lib/server/review";

export const GET = authed(async (_req: Request, _ctx: unknown, actor) => json({ rows: await reviewQueue(actor) }));
