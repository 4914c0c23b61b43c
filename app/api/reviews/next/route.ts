// POST /api/reviews/next: claim the next submitted trajectory to review (or keep the one already claimed); {id} or {id: null}
import { authed, json } from "@/lib/server/http";
import { startNextReview } from "@/lib/server/review";

export const POST = authed(async (_req: Request, _ctx: unknown, actor) => json({ id: await startNextReview(actor) }));
