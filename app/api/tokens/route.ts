// GET /api/tokens?scope=own|all: your API tokens, or everyone's (admins). POST /api/tokens: create one for yourself (shown once)
import { createdTokenSchema, createTokenInput, tokenScopeInput, tokensSchema } from "@/lib/domain/tokens";
import { route } from "@/lib/server/http";
import { createToken, listTokens } from "@/lib/server/people";

export const GET = route({
  permission: "tokens.manage-own",
  query: tokenScopeInput,
  output: tokensSchema,
  handler: async ({ actor, query }) => ({ tokens: await listTokens({ actor, ...(query.scope === "own" ? { userId: actor.id } : {}) }) }),
});

export const POST = route({
  permission: "tokens.manage-own",
  body: createTokenInput,
  output: createdTokenSchema,
  status: 201,
  handler: ({ actor, body }) => createToken({ actor, user: actor.id, ...body }),
});
