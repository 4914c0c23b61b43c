// GET /api/tokens?scope=own|all: your API tokens, or everyone's (admins). POST /api/tokens: create one for yourself (shown once)
import { authed, json, readJson } from "@/lib/server/http";
import { auditActor, authorize } from "@/lib/server/session";
import { createToken, listTokens } from "@/lib/server/tokens";
import { createTokenInput, tokenScopeInput, toToken } from "@/lib/domain/tokens";

export const GET = authed(async (req: Request, _ctx: unknown, actor) => {
  const { scope } = tokenScopeInput.parse({ scope: new URL(req.url).searchParams.get("scope") || undefined });
  authorize(actor, scope === "all" ? "tokens.manage-all" : "tokens.manage-own");
  const tokens = await listTokens(scope === "all" ? {} : { userId: actor.id });
  return json({ tokens: tokens.map(toToken) });
});

export const POST = authed(async (req: Request, _ctx: unknown, actor) => {
  authorize(actor, "tokens.manage-own");
  const { name } = createTokenInput.parse(await readJson(req, { optional: true }));
  const { token, id, prefix, userEmail } = await createToken(auditActor(actor), actor.id, name);
  return json({ token, id, prefix, name, userEmail }, 201);
});
