// DELETE /api/tokens/:id: revoke a token: your own, or anyone's for admins
import { idParams, okSchema } from "@/lib/domain/views";
import { route } from "@/lib/server/http";
import { revokeToken } from "@/lib/server/people";

export const DELETE = route({
  permission: "tokens.manage-own",
  params: idParams,
  output: okSchema,
  handler: async ({ actor, params }) => {
    await revokeToken({ actor, id: params.id });
    return { ok: true as const };
  },
});
