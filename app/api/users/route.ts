// GET /api/users: everyone with a studio account. POST /api/users: create a person (the password is in this answer only)
import { authed, json, readJson } from "@/lib/server/http";
import { createUser, createUserInput, listUsers } from "@/lib/server/people";
import { auditActor, authorize } from "@/lib/server/session";
import { toPerson, type Person } from "@/lib/domain/people";

export const GET = authed(async (_req: Request, _ctx: unknown, actor) => {
  authorize(actor, "people.manage");
  const people: Person[] = (await listUsers()).map(toPerson);
  return json({ people });
});

export const POST = authed(async (req: Request, _ctx: unknown, actor) => {
  authorize(actor, "people.manage");
  const input = createUserInput.parse(await readJson(req, { optional: true }));
  const { user, password } = await createUser(auditActor(actor), input);
  return json({ person: toPerson(user), password }, 201);
});
