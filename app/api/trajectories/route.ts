// GET /api/trajectories: one page of trajectories, filtered by app, status and instruction text
import { json, route } from "@/lib/server/http";
import { listTrajectories, listTrajectoriesInput } from "@/lib/server/trajectories";

export const GET = route(async (req: Request) => {
  const params = Object.fromEntries(new URL(req.url).searchParams);
  // An empty filter field in the URL means "no filter", not an invalid value.
  const input = listTrajectoriesInput.parse(Object.fromEntries(Object.entries(params).filter(([, v]) => v !== "")));
  return json(await listTrajectories(input));
});
