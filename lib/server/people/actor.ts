// Who may do what: a caller (a person held to the permission table, or the command line or the system, trusted)
// and how the audit trail names it. Apart from the session lookup (fast/session.ts), which re-exports it, so the
// token store can use it without a cycle.
import { can, type Action, type Actor, type TrajectoryFacts } from "@/lib/domain/permissions";
import type { AuditActor } from "./audit";
import { appError } from "../errors";

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
