// GET /api/me: who is asking. PATCH /api/me: change your own language or display name
import { authed, json, readJson } from "@/lib/server/http";
import { updateUser, updateUserInput } from "@/lib/server/people";
import { auditActor } from "@/lib/server/session";
import { toPerson, type Me } from "@/lib/domain/people";

// Only these fields: a person may not change their own role or disabled flag.
const meInput = updateUserInput.pick({ locale: true, name: true }).strict();

export const GET = authed(async (_req: Request, _ctx: unknown, actor) => {
  const person: Me = { id: actor.id, email: actor.email, name: actor.name, role: actor.role, locale: actor.locale ?? "en" };
  return json({ person });
});

export const PATCH = authed(async (req: Request, _ctx: unknown, actor) => {
  const patch = meInput.parse(await readJson(req, { optional: true }));
  return json({ person: toPerson(await updateUser(auditActor(actor), actor.id, patch)) });
});
