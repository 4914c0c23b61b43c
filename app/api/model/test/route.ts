// POST /api/model/test: send one real request to the model endpoint and show what came back (admin)
import { authed, json } from "@/lib/server/http";
import { testModelConnection } from "@/lib/server/model";

export const POST = authed(async (_req: Request, _ctx: unknown, actor) => json({ test: await testModelConnection(actor) }));
