// PATCH /api/users/:id: change a person's role, name or language, or disable them (signs them out, revokes their tokens)
import { personAnswerSchema, updateUserInput } from "@/lib/domain/people";
import { idParams } from "@/lib/domain/views";
import { updateUser } from "@/lib/server/people";
import { route } from "@/lib/server/http";

export const PATCH = route({
  permission: "people.manage",
  params: idParams,
  body: updateUserInput,
  output: personAnswerSchema,
  handler: async ({ actor, params, body }) => ({ person: await updateUser({ actor, id: params.id, ...body }) }),
});
