import { can, roleSchema, type Action, type Actor, type TrajectoryFacts } from "@/lib/domain/permissions";
import type { AuditActor } from "./audit";
import { auth } from "./auth";
import { db } from "./db";
import { appError } from "./errors";
import { userForToken } from "./tokens";

/** An Authorization header that claims token authentication. */
export const BEARER = /^Bearer\b/i;

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
  const user = isTokenRequest
    ? token
      ? await userForToken(token)
      : null
    : await auth()
        .api.getSession({ headers })
        .then((s) => (s ? db().user.findUnique({ where: { id: s.user.id } }) : null));
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

/** Throw 403 unless the permission table allows it. */
export function authorize(actor: Actor, action: Action, trajectory?: TrajectoryFacts): void {
  if (!can(actor, action, trajectory)) throw appError("forbidden", "error.roleForbidden", { role: actor.role, action });
}

/**
 * Who calls a use case: a person (an Actor, held to the permission table) or the command line or
 * the system (an AuditActor: trusted, recorded by its label).
 */
export type Caller = Actor | AuditActor;

export function isPerson(caller: Caller): caller is Actor {
  return "role" in caller;
}

/** authorize for a person; the command line and the system are trusted. */
export function authorizeCaller(caller: Caller, action: Action, trajectory?: TrajectoryFacts): void {
  if (isPerson(caller)) authorize(caller, action, trajectory);
}

/** How the audit trail names a caller: a person by email, the CLI and the system by their labels. */
export function auditActor(caller: Caller): AuditActor {
  return isPerson(caller) ? { id: caller.id, label: caller.email } : caller;
}
