import type { Actor } from "@/lib/domain/permissions";
import type { Db, Tx } from "../db";
import { localize, type MessageRef } from "@/lib/i18n";
import { appError } from "../errors";

/** Audit actions that mean "this person changed or handed in this trajectory's work". */
export const AUTHORING_ACTIONS = {
  trajectory: ["trajectory.start", "trajectory.annotate", "trajectory.fastLane", "trajectory.submit"],
  step: ["step.annotate"],
} as const;

export type Authorship = { isAssignee: boolean; editedSteps: number[]; editedTrajectory: boolean; submitted: boolean };

/**
 * What `actorId` has authored of a trajectory, from the audit trail (every save and submit writes a
 * row in the same transaction as the change), not only from who holds it now: an admin who edited
 * someone's task, or assigned it to themself, edited and handed it back, is still its author.
 */
export async function authorshipOf(
  client: Db | Tx,
  actorId: string,
  trajectory: { id: string; assigneeId: string | null },
): Promise<Authorship> {
  const steps = await client.step.findMany({ where: { trajectoryId: trajectory.id }, select: { id: true, index: true } });
  const indexOf = new Map(steps.map((s) => [s.id, s.index]));
  const rows = await client.auditEvent.findMany({
    where: {
      actorId,
      OR: [
        { entityType: "trajectory", entityId: trajectory.id, action: { in: [...AUTHORING_ACTIONS.trajectory] } },
        ...(steps.length
          ? [{ entityType: "step", entityId: { in: steps.map((s) => s.id) }, action: { in: [...AUTHORING_ACTIONS.step] } }]
          : []),
      ],
    },
    select: { action: true, entityId: true },
  });
  const editedSteps = [
    ...new Set(
      rows
        .filter((r) => r.action === "step.annotate")
        .map((r) => indexOf.get(r.entityId ?? ""))
        .filter((i): i is number => i !== undefined),
    ),
  ].sort((a, b) => a - b);
  return {
    isAssignee: trajectory.assigneeId === actorId,
    editedSteps,
    editedTrajectory: rows.some(
      (r) => r.action === "trajectory.annotate" || r.action === "trajectory.start" || r.action === "trajectory.fastLane",
    ),
    submitted: rows.some((r) => r.action === "trajectory.submit"),
  };
}

/**
 * Nobody approves or sends back work they edited or submitted, whatever their role: 403 with the
 * reason. Call it inside the decision's transaction, BEFORE writing anything of the decision.
 *
 * Fix-and-approve (planned): a reviewer's own fixes made as part of one fix-and-approve action are
 * allowed, because the guard runs before that action writes them; edits the reviewer made earlier
 * (and then handed over) are not.
 */
export async function assertNotOwnWork(
  client: Db | Tx,
  actor: Actor,
  trajectory: { id: string; assigneeId: string | null },
): Promise<void> {
  const a = await authorshipOf(client, actor.id, trajectory);
  const reasons: MessageRef[] = [
    ...(a.isAssignee ? [{ key: "error.ownWorkAssigned" } as const] : []),
    ...(a.submitted ? [{ key: "error.ownWorkSubmitted" } as const] : []),
    ...(a.editedSteps.length
      ? [{ key: "error.ownWorkEditedSteps", vars: { n: a.editedSteps.length, steps: a.editedSteps.map((i) => i + 1).join(", ") } } as const]
      : []),
    ...(a.editedTrajectory && !a.editedSteps.length ? [{ key: "error.ownWorkEdited" } as const] : []),
  ];
  if (reasons.length > 0) {
    // "a; b; c": each reason joined to the rest, so each language keeps its own separator.
    const list = reasons.reduceRight((rest, first) => ({ key: "error.ownWorkList", vars: { first, rest } }));
    throw appError("forbidden", "error.ownWork", { reasons: list }, { reasons: reasons.map((r) => localize(r, "en")) });
  }
}
