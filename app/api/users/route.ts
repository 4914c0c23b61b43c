// GET /api/users: everyone with a studio account. POST /api/users: create a person (the password is in this answer only)
import { createdPersonSchema, createUserInput, peopleSchema } from "@/lib/domain/people";
import { createUser, listUsers } from "@/lib/server/people";
import { route } from "@/lib/server/http";

export const GET = route({
  permission: "people.manage",
  output: peopleSchema,
  handler: async ({ actor }) => ({ people: await listUsers({ actor }) }),
});

export const POST = route({
  permission: "people.manage",
  body: createUserInput,
  output: createdPersonSchema,
  status: 201,
  handler: ({ actor, body }) => createUser({ actor, ...body }),
});
