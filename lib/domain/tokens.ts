import { z } from "zod";
import { text } from "./limits";

// Wire shapes of the tokens API: route handlers shape their answers with these, the client parses them.

export const tokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  userEmail: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type Token = z.infer<typeof tokenSchema>;

export const tokensSchema = z.object({ tokens: z.array(tokenSchema) });
export const createTokenInput = z.object({ name: text("tokenName").trim().min(1, "give the token a name") });
/** A new token: the plain value is in this answer only, never again. */
export const createdTokenSchema = z.object({
  token: z.string(),
  id: z.string(),
  prefix: z.string(),
  name: z.string(),
  userEmail: z.string(),
});
export const tokenScopeInput = z.object({ scope: z.enum(["own", "all"]).default("own") });
export type TokenScope = z.infer<typeof tokenScopeInput>["scope"];

/** A token as the API shows it (dates as ISO strings). */
export function toToken(t: {
  id: string;
  name: string;
  prefix: string;
  userEmail: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): Token {
  return {
    ...t,
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    revokedAt: t.revokedAt?.toISOString() ?? null,
  };
}
