// GET /api/assignments: people work can go to. POST /api/assignments: give trajectories to a person or back to the pool (admins)
import { assignablePeopleSchema, assignInput, assignResultSchema } from "@/lib/domain/assignments";
import { assignablePeople, assignTrajectories } from "@/lib/server/annotate";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "trajectory.assign",
  output: assignablePeopleSchema,
  handler: async ({ actor }) => ({ people: await assignablePeople({ actor }) }),
});

export const POST = route({
  permission: "trajectory.assign",
  body: assignInput,
  output: assignResultSchema,
  handler: ({ actor, body }) => assignTrajectories({ actor, ...body }),
});
