// POST /api/users/:id/password: set a new password (generated unless given) and sign the person out everywhere
import { z } from "zod";
import { authed, json, readJson } from "@/lib/server/http";
import { resetPassword } from "@/lib/server/people";
import { auditActor, authorize } from "@/lib/server/session";
import { resetPasswordInput } from "@/lib/domain/people";

const paramsSchema = z.object({ id: z.string().min(1).max(100) });

export const POST = authed(async (req: Request, ctx: { params: Promise<{ id: string }> }, actor) => {
  authorize(actor, "people.manage");
  const { id } = paramsSchema.parse(await ctx.params);
  const { password } = resetPasswordInput.parse((await readJson(req, { optional: true })) ?? {});
  return json({ password: await resetPassword(auditActor(actor), id, password) });
});
