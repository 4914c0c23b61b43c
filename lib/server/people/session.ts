import { createHmac, timingSafeEqual } from "node:crypto";
import { roleSchema, type Actor } from "@/lib/domain/permissions";
import type { Auth } from "./auth";
import { db, Prisma } from "../db";
import { readRows } from "../fast";
import { appError } from "../errors";
import { userForToken } from "./tokens";

/** An Authorization header that claims token authentication. */
export const BEARER = /^Bearer\b/i;

/** One cookie's raw value from a Cookie header, or null. */
function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/**
 * Cookie values whose signature checked out, with the secret they were checked with: a browser sends
 * the same cookie on every request, and the HMAC is a pure function of the two. Only good values are
 * kept, in their canonical form (one per session), and at most VERIFIED_KEPT: when full it starts
 * again. Whether the session still exists is asked every time.
 */
const verified = new Map<string, { secret: string; token: string }>();
const VERIFIED_KEPT = 10_000;

/** The session token a signed cookie value carries (`<token>.<base64 HMAC-SHA256>`, URI-encoded), or null when the signature is wrong. */
export function verifiedSessionToken(raw: string, secret: string): string | null {
  const known = verified.get(raw);
  if (known && known.secret === secret) return known.token;
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = Buffer.from(value.slice(dot + 1), "base64");
  const expected = createHmac("sha256", secret).update(token).digest();
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return null;
  // Kept only in the one form better-auth writes, so each session can hold one entry at most (other
  // spellings of the same value, percent-encoded or padded, still verify, just not from memory).
  if (raw === encodeURIComponent(`${token}.${expected.toString("base64")}`)) {
    if (verified.size >= VERIFIED_KEPT) verified.clear();
    verified.set(raw, { secret, token });
  }
  return token;
}

type SessionUser = {
  expiresAt: Date | string;
  id: string;
  email: string;
  name: string;
  role: string;
  locale: string;
  isDisabled: boolean | number;
};

/**
 * The person whose session cookie this is, read straight from the database on every request: one
 * query for the session and its user (better-auth's getSession costs three, and an extra user
 * lookup followed). Nothing is cached, so signing out, a password reset (which deletes the
 * person's sessions), disabling someone and revoking a session all take effect on the very next
 * request, on every instance sharing the database. The cookie's signature is checked as
 * better-auth checks it (same secret, same cookie name). A session due for its daily refresh is
 * handed to better-auth, which extends it as before.
 */
// better-auth is loaded with the first session looked up, not with this module: the command line uses the
// use cases that import this file, never a session, and loading better-auth cost it about a second.
const auth = (): Promise<Auth> => import("./auth").then((m) => m.auth());

async function sessionUser(headers: Headers) {
  const ctx = await (await auth()).$context;
  const raw = cookieValue(headers.get("cookie"), ctx.authCookies.sessionToken.name);
  if (!raw) return null;
  const token = verifiedSessionToken(raw, ctx.secret);
  if (!token) return null;
  // Plain SQL both dialects run as written: Prisma's include would cost a second query.
  const rows = await readRows<SessionUser>(
    db(),
    Prisma.sql`
    SELECT s."expiresAt", u."id", u."email", u."name", u."role", u."locale", u."isDisabled"
    FROM "session" s JOIN "user" u ON u."id" = s."userId"
    WHERE s."token" = ${token}`,
  );
  const row = rows[0];
  const now = Date.now();
  const expiresAt = row ? new Date(row.expiresAt).getTime() : 0;
  if (!row || !(expiresAt > now)) return null;
  const { expiresIn, updateAge } = ctx.sessionConfig;
  if (expiresAt - expiresIn * 1000 + updateAge * 1000 <= now) {
    const refreshed = await (await auth()).api.getSession({ headers });
    return refreshed ? db().user.findUnique({ where: { id: refreshed.user.id } }) : null;
  }
  return { ...row, isDisabled: Boolean(row.isDisabled) };
}

/**
 * Who is asking: the owner of an `Authorization: Bearer` API token, or the person whose session
 * cookie this is. Disabled people and malformed roles get null, at once.
 */
export async function getActor(headers: Headers): Promise<Actor | null> {
  // A request that says Bearer is judged by its token alone, even a malformed one: it never falls
  // back to the cookie (assertSameOrigin skips its check for exactly these requests).
  const authorization = headers.get("authorization");
  const isTokenRequest = authorization !== null && BEARER.test(authorization);
  const token = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  const user = isTokenRequest ? (token ? await userForToken(token) : null) : await sessionUser(headers);
  if (!user || user.isDisabled) return null;
  const role = roleSchema.safeParse(user.role);
  if (!role.success) return null;
  return { id: user.id, email: user.email, name: user.name, role: role.data, locale: user.locale };
}

/** getActor, or a 401 AppError. */
export async function requireActor(headers: Headers): Promise<Actor> {
  const actor = await getActor(headers);
  if (!actor) throw appError("unauthorized", "error.signIn");
  return actor;
}

export { auditActor, authorize, authorizeCaller, isPerson, type Caller } from "./actor";
