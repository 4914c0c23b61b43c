import { assignInput, type AssignablePerson, type AssignInput, type AssignResult } from "@/lib/domain/assignments";
import { roleSchema, type Actor } from "@/lib/domain/permissions";
import { recordAudit } from "./audit";
import { db as defaultDb, type Db } from "./db";
import { AppError } from "./errors";
import { auditActor, authorize } from "./session";
import { fromStore } from "./stored";

/**
 * Give trajectories to a person (or take them back to the pool). Work under review or approved
 * keeps its annotator. An assignment made here carries no lease: it stays until an admin changes it.
 */
export async function assignTrajectories(
  { actor, ...input }: { actor: Actor } & AssignInput,
  prisma: Db = defaultDb(),
): Promise<AssignResult> {
  authorize(actor, "trajectory.assign");
  const data = assignInput.parse(input);
  const person = data.assignee ? await prisma.user.findUnique({ where: { email: data.assignee } }) : null;
  if (data.assignee && !person) throw new AppError("not_found", `no person with email ${data.assignee}`);
  if (person?.isDisabled) throw new AppError("conflict", `${person.email} is disabled`);
  if (person && person.role === "reviewer")
    throw new AppError("unprocessable", `${person.email} is a reviewer; assign work to annotators or admins`);
  return prisma.$transaction(async (tx) => {
    const rows = await tx.trajectory.findMany({
      where: { id: { in: data.trajectoryIds } },
      select: { id: true, assigneeId: true, status: true },
    });
    const missing = data.trajectoryIds.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length)
      throw new AppError(
        "not_found",
        `no trajectory ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ` and ${missing.length - 3} more` : ""}`,
      );
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
export async function assignablePeople({ actor }: { actor: Actor }, prisma: Db = defaultDb()): Promise<AssignablePerson[]> {
  authorize(actor, "trajectory.assign");
  const rows = await prisma.user.findMany({
    where: { isDisabled: false, role: { in: ["annotator", "admin"] } },
    select: { email: true, name: true, role: true },
    orderBy: { email: "asc" },
  });
  return rows.map((r) => ({ ...r, role: fromStore(roleSchema, r.role, `role of ${r.email}`) }));
}
