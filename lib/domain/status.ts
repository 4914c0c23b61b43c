import { z } from "zod";

/** Task life cycle. Every transition the studio allows is in TRANSITIONS; nothing else may change a status. */
export const TASK_STATUSES = ["new", "in_progress", "submitted", "approved", "rejected"] as const;
export const taskStatusSchema = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof taskStatusSchema>;

export const TASK_EVENTS = ["start", "submit", "approve", "reject", "reopen"] as const;
export type TaskEvent = (typeof TASK_EVENTS)[number];

const TRANSITIONS: Record<TaskStatus, Partial<Record<TaskEvent, TaskStatus>>> = {
  new: { start: "in_progress", submit: "submitted" },
  in_progress: { submit: "submitted" },
  submitted: { approve: "approved", reject: "rejected" },
  rejected: { start: "in_progress", submit: "submitted" },
  approved: { reopen: "in_progress" },
};

/** The status after `event`, or null when the transition is not allowed. */
export function nextStatus(from: TaskStatus, event: TaskEvent): TaskStatus | null {
  return TRANSITIONS[from][event] ?? null;
}

/**
 * Work a person has handed in: submitted for review, or approved. Background model jobs leave these
 * trajectories alone unless an admin explicitly includes them.
 */
export const HANDED_IN_STATUSES = ["submitted", "approved"] as const satisfies readonly TaskStatus[];

/** Is this trajectory's work handed in (submitted or approved)? */
export function isHandedIn(status: TaskStatus): boolean {
  return (HANDED_IN_STATUSES as readonly TaskStatus[]).includes(status);
}
