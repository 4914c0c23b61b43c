// PATCH /api/users/:id: change a person's role, name or language, or disable them (signs them out, revokes their tokens)
import { z } from "zod";
import { authed, json, readJson } from "@/lib/server/http";
import { updateUser, updateUserInput } from "@/lib/server/people";
import { auditActor, authorize } from "@/lib/server/session";
import { toPerson } from "@/lib/domain/people";

const paramsSchema = z.object({ id: z.string().min(1).max(100) });

export const PATCH = authed(async (req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  authorize(actor, "people.manage");
  const { id } = paramsSchema.parse(await ctx.params);
  const patch = updateUserInput.strict().parse(await readJson(req, { optional: true }));
  return json({ person: toPerson(await updateUser(auditActor(actor), id, patch)) });
});
