// GET /api/assignments: people work can go to. POST /api/assignments: give trajectories to a person or back to the pool (admins)
import { authed, json, readJson } from "@/lib/server/http";
import { assignablePeople, assignInput, assignTrajectories } from "@/lib/server/assign";

export const GET = authed(async (_req: Request, _ctx: unknown, actor) => json({ people: await assignablePeople(actor) }));

export const POST = authed(async (req: Request, _ctx: unknown, actor) => json(await assignTrajectories(actor, assignInput.parse(await readJson(req)))));
