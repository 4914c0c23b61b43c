import { z } from "zod";
import type { Actor } from "@/lib/domain/permissions";
import { recordAudit } from "./audit";
import { db as defaultDb, type Db } from "./db";
import { AppError } from "./errors";
import { auditActor, authorize } from "./session";

export const assignInput = z.object({
  trajectoryIds: z.array(z.string().min(1).max(100)).min(1, "choose at least one trajectory").max(1000),
  /** The annotator's email, or null to return the trajectories to the pool. */
  assignee: z.string().trim().toLowerCase().email().nullable(),
});
export type AssignInput = z.input<typeof assignInput>;

/**
 * Give trajectories to a person (or take them back to the pool). Work under review or approved
 * keeps its annotator. An assignment made here carries no lease: it stays until an admin changes it.
 */
export async function assignTrajectories(actor: Actor, input: AssignInput, prisma: Db = defaultDb()) {
  authorize(actor, "trajectory.assign");
  const data = assignInput.parse(input);
  const person = data.assignee ? await prisma.user.findUnique({ where: { email: data.assignee } }) : null;
  if (data.assignee && !person) throw new AppError("not_found", `no person with email ${data.assignee}`);
  if (person?.isDisabled) throw new AppError("conflict", `${person.email} is disabled`);
  if (person && person.role === "reviewer") throw new AppError("unprocessable", `${person.email} is a reviewer; assign work to annotators or admins`);
  return prisma.$transaction(async (tx) => {
    const rows = await tx.trajectory.findMany({ where: { id: { in: data.trajectoryIds } }, select: { id: true, assigneeId: true, status: true } });
    const missing = data.trajectoryIds.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length) throw new AppError("not_found", `no trajectory ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ` and ${missing.length - 3} more` : ""}`);
    const locked = rows.filter((r) => r.status === "submitted" || r.status === "approved");
    if (locked.length) throw new AppError("conflict", `${locked.length} of these are ${locked[0]!.status}; they keep their annotator`);
    const to = person?.id ?? null;
    const changing = rows.filter((r) => r.assigneeId !== to);
    await tx.trajectory.updateMany({ where: { id: { in: changing.map((r) => r.id) } }, data: { assigneeId: to, leaseUntil: null } });
    for (const r of changing) {
      await recordAudit(tx, {
        actor: auditActor(actor),
        action: "trajectory.assign",
        entityType: "trajectory",
        entityId: r.id,
        before: { assigneeId: r.assigneeId },
        after: { assigneeId: to, assignee: person?.email ?? null },
      });
    }
    return { assigned: changing.length, unchanged: rows.length - changing.length };
  });
}

/** People work can be given to (annotators and admins who are active). */
export async function assignablePeople(actor: Actor, prisma: Db = defaultDb()) {
  authorize(actor, "trajectory.assign");
  return prisma.user.findMany({ where: { isDisabled: false, role: { in: ["annotator", "admin"] } }, select: { email: true, name: true, role: true }, orderBy: { email: "asc" } });
}
