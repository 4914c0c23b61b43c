// GET /api/trajectories: one page of the trajectories the caller may see, filtered by app, status and instruction text
import { authed, json } from "@/lib/server/http";
import { listTrajectories, listTrajectoriesInput } from "@/lib/server/trajectories";

export const GET = authed(async (req: Request, _ctx: unknown, actor) => {
  const params = Object.fromEntries(new URL(req.url).searchParams);
  // An empty filter field in the URL means "no filter", not an invalid value.
  const input = listTrajectoriesInput.parse(Object.fromEntries(Object.entries(params).filter(([, v]) => v !== "")));
  return json(await listTrajectories(input, actor));
});
