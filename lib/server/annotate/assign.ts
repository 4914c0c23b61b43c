import { assignInput, type AssignablePerson, type AssignInput, type AssignResult } from "@/lib/domain/assignments";
import { roleSchema, type Actor } from "@/lib/domain/permissions";
import { recordAudit, auditActor, authorize, assignableByEmail } from "../people";
import { db as defaultDb, type Db } from "../db";
import { appError, fromStore } from "../errors";
import { studioNearDuplicates } from "./near-duplicates";
import { originalsHeldBy } from "./overlap";

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
  const person = data.assignee ? await assignableByEmail(data.assignee, prisma) : null;
  // Studio-wide groups (the list's), read before the transaction: grouping reads every step's stored hash.
  const others = data.skipNearDuplicates ? await nonKeepers(prisma) : new Set<string>();
  return prisma.$transaction(async (tx) => {
    const rows = await tx.trajectory.findMany({
      where: { id: { in: data.trajectoryIds } },
      select: { id: true, assigneeId: true, status: true, overlap: true, copyOfId: true },
    });
    const missing = data.trajectoryIds.filter((id) => !rows.some((r) => r.id === id));
    if (missing.length)
      throw appError("not_found", "error.noTrajectories", {
        ids: `${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ` (+${missing.length - 3})` : ""}`,
      });
    const locked = rows.filter((r) => r.status === "submitted" || r.status === "approved");
    if (locked.length)
      throw appError("conflict", "error.assignLocked", {
        n: locked.length,
        status: { key: `status.${locked[0]!.status as "submitted" | "approved"}` },
      });
    const original = rows.find((r) => r.overlap > 0);
    if (original) throw appError("conflict", "error.overlapOriginal", { id: original.id });
    if (person) {
      // Overlap needs different people: never two copies of one trajectory for one person.
      const held = new Set(await originalsHeldBy(tx, person.id));
      const seen = new Set<string>();
      for (const r of rows) {
        if (r.copyOfId === null || r.assigneeId === person.id) continue;
        if (held.has(r.copyOfId) || seen.has(r.copyOfId))
          throw appError("conflict", "error.overlapSecondCopy", { email: person.email, id: r.copyOfId });
        seen.add(r.copyOfId);
      }
    }
    const to = person?.id ?? null;
    const skipped = rows.filter((r) => others.has(r.id)).length;
    const changing = rows.filter((r) => r.assigneeId !== to && !others.has(r.id));
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
    return {
      assigned: changing.length,
      unchanged: rows.length - changing.length - skipped,
      ...(data.skipNearDuplicates ? { skipped } : {}),
    };
  });
}

/** Every trajectory in a near-duplicate group that is not its keeper (studio-wide, from the stored hashes). */
export async function nonKeepers(prisma: Db): Promise<Set<string>> {
  const groups = await studioNearDuplicates(prisma);
  return new Set([...groups].filter(([, m]) => !m.isKeeper).map(([id]) => id));
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
