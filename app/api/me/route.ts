// GET /api/me: who is asking. PATCH /api/me: change your own language or display name
import { meSchema, personAnswerSchema, updateMeInput } from "@/lib/domain/people";
import { updateMe } from "@/lib/server/people";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "signed-in",
  output: meSchema,
  handler: async ({ actor }) => ({
    person: { id: actor.id, email: actor.email, name: actor.name, role: actor.role, locale: actor.locale ?? "en" },
  }),
});

export const PATCH = route({
  permission: "signed-in",
  body: updateMeInput,
  output: personAnswerSchema,
  handler: async ({ actor, body }) => ({ person: await updateMe({ actor, ...body }) }),
});
