// POST /api/users/:id/password: set a new password (generated unless given) and sign the person out everywhere
import { newPasswordSchema, resetPasswordInput } from "@/lib/domain/people";
import { idParams } from "@/lib/domain/views";
import { resetPassword } from "@/lib/server/people";
import { route } from "@/lib/server/http";

export const POST = route({
  permission: "people.manage",
  params: idParams,
  body: resetPasswordInput,
  output: newPasswordSchema,
  handler: async ({ actor, params, body }) => ({ password: await resetPassword({ actor, id: params.id, ...body }) }),
});
