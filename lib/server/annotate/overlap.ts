// Overlap (issue 26 item 1): one trajectory given to two or three people independently, and the
// agreement between what they handed in (item 2's figures, from lib/domain/agreement.ts).
//
// A copy is an ordinary Trajectory row with copyOfId set (its own steps, versions, audit, lease), so
// the editor, the saves, the submit and the task list work on it unchanged; the trajectory it copies
// keeps `overlap` = N and is never taken itself. The export and snapshots leave copies out
// (trajectoryPages), so training data holds each trajectory once.
import { createHash } from "node:crypto";
import { agreementReport, type AnnotationCopy } from "@/lib/domain/agreement";
import { annotationOf, trajectoryAnnotationOf } from "@/lib/domain/annotation";
import { overlapInput, type OverlapInput, type OverlapResult } from "@/lib/domain/overlap";
import type { Actor } from "@/lib/domain/permissions";
import { recordAudit, auditActor, authorize, assignableByEmail } from "../people";
import { db as defaultDb, type Db, type Tx } from "../db";
import { appError } from "../errors";
import { getTrajectory } from "../annotate/trajectories";

/** Statuses of a copy whose person has handed it in: the copies agreement is computed from. */
const HANDED_IN = ["submitted", "approved"];

/** A stable position 0..1 for a fingerprint: a share picks the trajectories below it. */
function shareKey(fingerprint: string): number {
  return createHash("sha256").update(fingerprint).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * Make `copies` independent copies of each chosen trajectory. Only untouched work can be overlapped
 * (status new, nobody holds it, not a copy, not overlapped already, not discarded): a person's edits
 * would otherwise leak into the others' starting point. Each copy starts from the trajectory's stored
 * annotation, which for untouched work is the model's output (or its pre-annotation). With `assignees`,
 * the k-th copy of each goes to the k-th person named, in the same transaction. Admins.
 */
export async function overlapTrajectories(
  { actor, ...input }: { actor: Actor } & OverlapInput,
  prisma: Db = defaultDb(),
): Promise<OverlapResult> {
  authorize(actor, "trajectory.assign");
  const data = overlapInput.parse(input);
  const people = await copyTakers(data.assignees, data.copies, prisma);
  return prisma.$transaction(async (tx) => {
    let ids: string[];
    if (data.trajectoryIds) {
      const rows = await tx.trajectory.findMany({
        where: { id: { in: data.trajectoryIds } },
        select: { id: true, status: true, assigneeId: true, copyOfId: true, overlap: true, isDiscarded: true, isGold: true },
      });
      const missing = data.trajectoryIds.find((id) => !rows.some((r) => r.id === id));
      if (missing !== undefined) throw appError("not_found", "error.trajectoryMissing", { id: missing });
      const busy = rows.find(
        (r) => r.status !== "new" || r.assigneeId !== null || r.copyOfId !== null || r.overlap > 0 || r.isDiscarded || r.isGold,
      );
      if (busy) throw appError("conflict", "error.overlapNotFresh", { id: busy.id });
      ids = rows.map((r) => r.id);
    } else {
      const project = await tx.project.findUnique({ where: { name: data.project! }, select: { id: true } });
      if (!project) throw appError("not_found", "error.overlapProjectMissing", { name: data.project! });
      const fresh = await tx.trajectory.findMany({
        where: { projectId: project.id, status: "new", assigneeId: null, copyOfId: null, overlap: 0, isDiscarded: false, isGold: false },
        select: { id: true, fingerprint: true },
      });
      ids = fresh.filter((t) => shareKey(t.fingerprint) < data.share).map((t) => t.id);
    }
    const overlapped: OverlapResult["overlapped"] = [];
    for (const id of ids) {
      const copies = await makeCopies(tx, actor, id, data.copies);
      for (const [k, person] of people.entries()) if (person) await giveCopy(tx, actor, copies[k]!, person);
      overlapped.push({ id, copies });
    }
    return { overlapped };
  });
}

type Taker = { id: string; email: string };

/**
 * The people named to get the copies, one per copy (null: that copy waits in the pool), each one work
 * may be given to (lib/server/people). Overlap needs different people: the same person twice is refused.
 */
async function copyTakers(emails: (string | null)[] | undefined, copies: number, prisma: Db): Promise<(Taker | null)[]> {
  if (emails === undefined) return [];
  const named = emails.filter((e): e is string => e !== null).map((e) => e.trim().toLowerCase());
  if (emails.length !== copies || new Set(named).size !== named.length) throw appError("unprocessable", "error.overlapPeople", { copies });
  const takers: (Taker | null)[] = [];
  for (const email of emails) takers.push(email === null ? null : await assignableByEmail(email.trim().toLowerCase(), prisma));
  return takers;
}

/** Give a fresh copy to a person, as an admin's assignment does (no lease: it stays theirs), audited the same way. */
async function giveCopy(tx: Tx, actor: Actor, copyId: string, person: Taker): Promise<void> {
  await tx.trajectory.update({ where: { id: copyId }, data: { assigneeId: person.id, leaseUntil: null } });
  await recordAudit(tx, {
    actor: auditActor(actor),
    action: "trajectory.assign",
    entityType: "trajectory",
    entityId: copyId,
    before: { assigneeId: null },
    after: { assigneeId: person.id, assignee: person.email },
  });
}

/**
 * Copy trajectory `id` `n` times for independent work: new rows with the same content and the
 * stored annotation of each step, fingerprint suffixed so the project's uniqueness holds. Marks the
 * original overlapped (for "overlap") and audits both sides. Returns the copies' ids.
 */
export async function makeCopies(tx: Tx, actor: Actor, id: string, n: number): Promise<string[]> {
  const kind = "overlap";
  const t = await tx.trajectory.findUniqueOrThrow({ where: { id }, include: { steps: { orderBy: { index: "asc" } } } });
  const already = await tx.trajectory.count({ where: { copyOfId: id } });
  const made: string[] = [];
  for (let k = 0; k < n; k++) {
    const copy = await tx.trajectory.create({
      data: {
        projectId: t.projectId,
        fingerprint: `${t.fingerprint}:copy:${already + k + 1}`,
        source: t.source,
        sourceRef: t.sourceRef,
        app: t.app,
        instruction: t.instruction,
        systemPrompt: t.systemPrompt,
        outcome: t.outcome,
        originalOutcome: t.originalOutcome,
        cutAfter: t.cutAfter,
        stepCount: t.stepCount,
        batchId: t.batchId,
        metaJson: t.metaJson,
        copyOfId: t.id,
        copyKind: kind,
        steps: {
          create: t.steps.map((s) => ({
            index: s.index,
            screenshotSha: s.screenshotSha,
            originalJson: s.originalJson,
            thoughtState: s.thoughtState,
            thoughtNext: s.thoughtNext,
            thoughtPurpose: s.thoughtPurpose,
            thought: s.thought,
            clearAction: s.clearAction,
            toolCallJson: s.toolCallJson,
            boxJson: s.boxJson,
            candidateBoxJson: s.candidateBoxJson,
            verdict: s.verdict,
            provenanceJson: s.provenanceJson,
          })),
        },
      },
      select: { id: true },
    });
    made.push(copy.id);
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "trajectory.copy",
      entityType: "trajectory",
      entityId: copy.id,
      after: { copyOfId: t.id, copyKind: kind },
    });
  }
  await tx.trajectory.update({ where: { id }, data: { overlap: t.overlap + n } });
  await recordAudit(tx, {
    actor: auditActor(actor),
    action: "trajectory.overlap",
    entityType: "trajectory",
    entityId: id,
    before: { overlap: t.overlap },
    after: { overlap: t.overlap + n, copies: made },
  });
  return made;
}

/**
 * The originals of the copies `personId` holds now (any status): a person never takes or is given
 * a second copy of one of these.
 */
export async function originalsHeldBy(prisma: Db | Tx, personId: string): Promise<string[]> {
  const rows = await prisma.trajectory.findMany({
    where: { assigneeId: personId, copyOfId: { not: null } },
    select: { copyOfId: true },
  });
  return [...new Set(rows.map((r) => r.copyOfId!))];
}

/** How many copies of `originalId` the person holds: more than one is refused (the check inside a take's transaction). */
export async function copiesHeld(prisma: Db | Tx, personId: string, originalId: string): Promise<number> {
  return prisma.trajectory.count({ where: { assigneeId: personId, copyOfId: originalId } });
}

/**
 * The agreement figures (lib/domain/agreement.ts) over every overlap copy handed in (submitted or
 * approved), one project's or all; people are named by email. Reviewers and admins.
 */
export async function agreementFigures({ actor, project }: { actor: Actor; project?: string }, prisma: Db = defaultDb()) {
  authorize(actor, "trajectory.review");
  const copies = await prisma.trajectory.findMany({
    where: {
      copyKind: "overlap",
      status: { in: HANDED_IN },
      assigneeId: { not: null },
      ...(project ? { project: { name: project } } : {}),
    },
    select: { id: true, copyOfId: true, app: true, assignee: { select: { email: true } } },
    orderBy: { id: "asc" },
  });
  const out: AnnotationCopy[] = [];
  for (const c of copies) {
    const view = await getTrajectory(c.id, prisma);
    out.push({
      trajectoryId: c.copyOfId!,
      person: c.assignee!.email,
      app: c.app,
      trajectory: trajectoryAnnotationOf(view),
      steps: view.steps.map(annotationOf),
      elements: view.steps.map((s) => s.elements),
    });
  }
  return agreementReport(out);
}
