import { z } from "zod";

export const ROLES = ["admin", "reviewer", "annotator"] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/** Who is asking: a signed-in person or the owner of an API token. */
export type Actor = { id: string; email: string; name: string; role: Role; locale?: string };

/** The facts about a trajectory a permission can depend on (`copyKind`: overlap | gold on a person's copy). */
export type TrajectoryFacts = { assigneeId: string | null; status: string; copyKind?: string | null };

/**
 * Every action the studio authorises. Routes, server actions, pages and the CLI all ask `can`;
 * the UI uses the same answers to hide what a person may not do.
 */
export const ACTIONS = [
  "trajectory.list",
  "trajectory.read",
  "trajectory.annotate",
  "trajectory.submit",
  "trajectory.review",
  "trajectory.assign",
  "trajectory.take",
  "comment.write",
  "import.run",
  "export.run",
  "stats.read",
  "people.manage",
  "tokens.manage-own",
  "tokens.manage-all",
  "audit.read",
  "model.manage",
  "project.configure",
] as const;
export type Action = (typeof ACTIONS)[number];

const isAssignee = (a: Actor, t?: TrajectoryFacts) => !!t && t.assigneeId === a.id;
/** A person's copy nobody has started: blind work, which a reviewer sees only once it is in progress or handed in. */
const isUntouchedCopy = (t?: TrajectoryFacts) => !!t?.copyKind && t.status === "new";

/** The one permission table: who may do what to which object. */
const RULES: Record<Action, (actor: Actor, t?: TrajectoryFacts) => boolean> = {
  // Annotators see only their own work; admins see everything; reviewers everything but a copy nobody has started.
  "trajectory.list": () => true,
  "trajectory.read": (a, t) => a.role === "admin" || (a.role === "reviewer" ? !isUntouchedCopy(t) : isAssignee(a, t)),
  "trajectory.annotate": (a, t) => a.role === "admin" || isAssignee(a, t),
  "trajectory.submit": (a, t) => isAssignee(a, t) || a.role === "admin",
  "trajectory.review": (a) => a.role === "reviewer" || a.role === "admin",
  "trajectory.assign": (a) => a.role === "admin",
  "trajectory.take": (a) => a.role === "annotator" || a.role === "admin",
  "comment.write": (a, t) => a.role !== "annotator" || isAssignee(a, t),
  "import.run": (a) => a.role === "admin",
  "export.run": (a) => a.role === "admin",
  "stats.read": () => true,
  "people.manage": (a) => a.role === "admin",
  "tokens.manage-own": () => true,
  "tokens.manage-all": (a) => a.role === "admin",
  "audit.read": (a) => a.role === "admin",
  // The model endpoint, pre-annotation and judge jobs. Suggestions in the editor need trajectory.annotate.
  "model.manage": (a) => a.role === "admin",
  // A project's settings (what the fast lane does after the first error).
  "project.configure": (a) => a.role === "admin",
};

export function can(actor: Actor, action: Action, trajectory?: TrajectoryFacts): boolean {
  return RULES[action](actor, trajectory);
}

/**
 * Whether the actor's role may do `action` at all: outright, or on work assigned to them for the
 * actions that depend on a trajectory. Routes ask this before the use case asks `can` about the
 * particular trajectory.
 */
export function mayAttempt(actor: Actor, action: Action): boolean {
  return can(actor, action) || can(actor, action, { assigneeId: actor.id, status: "in_progress" });
}

/** Pages in the navigation and who sees them (`key` names the label in the message catalogue: nav.<key>). */
export const NAV_ITEMS = [
  { href: "/tasks", key: "tasks", action: "trajectory.take" },
  { href: "/trajectories", key: "trajectories", action: "trajectory.list" },
  { href: "/reviews", key: "reviews", action: "trajectory.review" },
  { href: "/dashboard", key: "dashboard", action: "trajectory.review" },
  { href: "/import", key: "import", action: "import.run" },
  { href: "/export", key: "export", action: "export.run" },
  { href: "/admin/snapshots", key: "releases", action: "export.run" },
  { href: "/admin/eval", key: "evaluation", action: "model.manage" },
  { href: "/admin/people", key: "people", action: "people.manage" },
  { href: "/admin/audit", key: "audit", action: "audit.read" },
  { href: "/admin/model", key: "model", action: "model.manage" },
  { href: "/admin/projects", key: "projects", action: "project.configure" },
] as const satisfies readonly { href: string; key: string; action: Action }[];
export type NavKey = (typeof NAV_ITEMS)[number]["key"];
