// GET /api/judge/agreement: the model judge against people over reviewed trajectories (confusion matrix, kappa, per app, disagreements)
import { authed, json } from "@/lib/server/http";
import { judgeAgreement } from "@/lib/server/judge";

export const GET = authed(async (_req: Request, _ctx: unknown, actor) => json(await judgeAgreement(actor)));
