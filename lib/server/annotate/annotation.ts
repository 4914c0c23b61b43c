import { annotationOf, isEditableStatus, submitProblems, type SaveStepInput, type SaveTrajectoryInput } from "@/lib/domain/annotation";
import { can, type Actor } from "@/lib/domain/permissions";
import { nextStatus, type TaskStatus } from "@/lib/domain/status";
import { laneAfterHandIn, laneSchema } from "@/lib/domain/lane";
import { auditedStep } from "@/lib/domain/review";
import { trajectoryAnnotationViewSchema, type StepView, type TrajectoryAnnotationView, type TrajectoryView } from "@/lib/domain/views";
import { auditStatement, changedFields, recordAudit, auditActor, authorize } from "../people";
import { Prisma, db as defaultDb, type Db, type Tx } from "../db";
import { prismaExec, writeTransaction, type Exec } from "../fast";
import { appError, fromStore } from "../errors";
import { getTrajectory, stepFromRow, stepRowWithTrajectory } from "./trajectories";
import { stepAnnotationColumns, writeStepAnnotation } from "./step-row";
import { submitProblemRef } from "@/lib/i18n/problems";
import { provenanceAfterSave } from "./provenance";

/** How long a lease lasts without a heartbeat. The editor renews it every minute. */
export const LEASE_MS = 10 * 60_000;

type StepRow = NonNullable<Awaited<ReturnType<typeof loadStep>>>;

/** The step, its screenshot's size and its trajectory's permission facts, in one query (the save's hot path). */
function loadStep(tx: Tx | Db, id: string) {
  return stepRowWithTrajectory(tx, id);
}

const stepView = (s: StepRow): StepView => stepFromRow(s);

/** The catalogue key of a task status ("status.in_progress"); unknown statuses read as "new". */
const statusKey = (status: string) =>
  ["new", "in_progress", "submitted", "approved", "rejected"].includes(status) ? (`status.${status}` as "status.new") : "status.new";

function assertEditable(status: string) {
  if (!isEditableStatus(status)) {
    throw appError("forbidden", "error.notEditable", { status: { key: statusKey(status) } });
  }
}

/** The first edit starts the task: new or sent back -> in progress, with its audit row. */
async function startIfNeeded(exec: Exec, actor: Actor, trajectory: { id: string; status: string }) {
  const status = trajectory.status as TaskStatus;
  if (status === "in_progress") return;
  const next = nextStatus(status, "start");
  if (!next) return;
  await exec(Prisma.sql`UPDATE "Trajectory" SET "status" = ${next}, "updatedAt" = ${new Date()} WHERE "id" = ${trajectory.id}`);
  await exec(
    auditStatement({
      actor: auditActor(actor),
      action: "trajectory.start",
      entityType: "trajectory",
      entityId: trajectory.id,
      before: { status },
      after: { status: next },
    }),
  );
}

/**
 * Save one step's annotation. `input.version` is the version the edit started from: a different
 * current version is a 409 whose `issues.current` is the step as it is now, for the merge.
 *
 * Everything the save decides on is read and checked first, outside the write transaction (on SQLite
 * the reader connection, which never queues behind other saves): the step, who may edit it, its
 * version, the provenance. The transaction then only writes, and each write lands only if those facts
 * still hold (the step's version, the trajectory's status and assignee). If one changed meanwhile, the
 * save is decided again inside the transaction, where nothing can change, and answers as it would
 * have: a 409 with the step as it is now, a 403, or the save itself (another step's save may only have
 * started the task). So the writer is held for the writes alone.
 */
export async function saveStepAnnotation(
  { actor, stepId, ...input }: { actor: Actor; stepId: string } & SaveStepInput,
  prisma: Db = defaultDb(),
): Promise<StepView> {
  const checked = await checkStepSave(prisma, actor, stepId, input);
  const saved = await writeTransaction(prisma, (exec) => writeStepSave(exec, actor, checked));
  return saved ?? prisma.$transaction((tx) => saveInside(tx, actor, stepId, input));
}

type CheckedSave = Awaited<ReturnType<typeof checkStepSave>>;

/** The save decided on `client`'s view of the step: its row, the new values, the provenance and the audit diff. */
async function checkStepSave(client: Db | Tx, actor: Actor, stepId: string, input: SaveStepInput) {
  const row = await loadStep(client, stepId);
  if (!row) throw appError("not_found", "error.stepMissing", { id: stepId });
  authorize(actor, "trajectory.annotate", row.trajectory);
  assertEditable(row.trajectory.status);
  const before = stepView(row);
  if (row.version !== input.version) {
    throw appError("conflict", "error.stepConflict", { n: row.index + 1, now: row.version, yours: input.version }, { current: before });
  }
  const { version: _v, ...annotation } = input;
  const data = stepAnnotationColumns(annotation);
  const at = new Date();
  const provenance = await provenanceAfterSave(client, row, annotationOf(before), annotation, auditActor(actor).label, at);
  const diff = changedFields(auditedStep(annotationOf(before)), auditedStep(annotation));
  return { row, data, at, provenance, diff, version: input.version };
}

/** The writes of a checked save, each conditional on what the check read; null (nothing written) when a fact changed since. */
async function writeStepSave(exec: Exec, actor: Actor, c: CheckedSave): Promise<StepView | null> {
  const { row, data, at, provenance, diff } = c;
  const landed = await writeStepAnnotation(exec, {
    stepId: row.id,
    version: c.version,
    columns: data,
    provenanceJson: provenance.json,
    at,
    guard: Prisma.sql`EXISTS (SELECT 1 FROM "Trajectory" t WHERE t."id" = ${row.trajectory.id} AND t."status" = ${row.trajectory.status}
                  AND t."assigneeId" IS NOT DISTINCT FROM ${row.trajectory.assigneeId})`,
  });
  if (!landed) return null;
  await exec(
    auditStatement({
      actor: auditActor(actor),
      action: "step.annotate",
      entityType: "step",
      entityId: row.id,
      before: { ...diff.before, ...provenance.auditBefore, version: row.version },
      after: { ...diff.after, ...provenance.auditAfter, version: row.version + 1 },
    }),
  );
  await startIfNeeded(exec, actor, row.trajectory);
  // The step as written: the row read, with what this save set.
  return stepView({ ...row, ...data, provenanceJson: provenance.json, version: row.version + 1, updatedAt: at });
}

/** The save decided and written inside one transaction (after a fact changed between the check and the write). */
async function saveInside(tx: Tx, actor: Actor, stepId: string, input: SaveStepInput): Promise<StepView> {
  const checked = await checkStepSave(tx, actor, stepId, input);
  const saved = await writeStepSave(prismaExec(tx), actor, checked);
  if (!saved) throw new Error(`step ${stepId}: the save's write missed inside its own transaction`);
  return saved;
}

function trajectoryAnnotationView(t: {
  outcome: string | null;
  isDiscarded: boolean;
  cutAfter: number | null;
  version: number;
  status: string;
}): TrajectoryAnnotationView {
  return fromStore(
    trajectoryAnnotationViewSchema,
    { outcome: t.outcome, isDiscarded: t.isDiscarded, cutAfter: t.cutAfter, version: t.version, status: t.status },
    "trajectory annotation",
  );
}

/** Save the trajectory-level annotation (outcome, discard, cut point), versioned like a step. */
export async function saveTrajectoryAnnotation(
  { actor, id, ...input }: { actor: Actor; id: string } & SaveTrajectoryInput,
  prisma: Db = defaultDb(),
): Promise<TrajectoryAnnotationView> {
  return prisma.$transaction(async (tx) => {
    const t = await tx.trajectory.findUnique({ where: { id } });
    if (!t) throw appError("not_found", "error.trajectoryMissing", { id });
    authorize(actor, "trajectory.annotate", t);
    assertEditable(t.status);
    if (t.version !== input.version) {
      throw appError(
        "conflict",
        "error.trajectoryConflict",
        { now: t.version, yours: input.version },
        { current: trajectoryAnnotationView(t) },
      );
    }
    if (input.cutAfter !== null && input.cutAfter >= t.stepCount) {
      throw appError("unprocessable", "error.cutPastEnd", { n: input.cutAfter + 1, last: t.stepCount });
    }
    const next = { outcome: input.outcome, isDiscarded: input.isDiscarded, cutAfter: input.cutAfter };
    const { count } = await tx.trajectory.updateMany({
      where: { id, version: input.version },
      data: { ...next, version: { increment: 1 } },
    });
    if (count !== 1)
      throw appError("conflict", "error.trajectoryConflictNow", undefined, {
        current: trajectoryAnnotationView((await tx.trajectory.findUnique({ where: { id } }))!),
      });
    const diff = changedFields({ outcome: t.outcome, isDiscarded: t.isDiscarded, cutAfter: t.cutAfter }, next);
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "trajectory.annotate",
      entityType: "trajectory",
      entityId: id,
      before: { ...diff.before, version: t.version },
      after: { ...diff.after, version: t.version + 1 },
    });
    await startIfNeeded(prismaExec(tx), actor, t);
    return trajectoryAnnotationView((await tx.trajectory.findUnique({ where: { id } }))!);
  });
}

/**
 * Submit for review: only from a status that allows it, and only when the trajectory is discarded
 * or has an outcome and every kept step complete (422 listing what is missing otherwise).
 */
export async function submitTrajectory({ actor, id }: { actor: Actor; id: string }, prisma: Db = defaultDb()): Promise<TrajectoryView> {
  await prisma.$transaction(async (tx) => {
    const t = await tx.trajectory.findUnique({
      where: { id },
      include: { steps: { orderBy: { index: "asc" }, include: { screenshot: true } } },
    });
    if (!t) throw appError("not_found", "error.trajectoryMissing", { id });
    authorize(actor, "trajectory.submit", t);
    const next = nextStatus(t.status as TaskStatus, "submit");
    if (!next) throw appError("conflict", "error.cannotSubmit", { status: { key: statusKey(t.status) } });
    const steps = t.steps.map((s) => {
      const v = stepView({ ...s, trajectory: { id: t.id, assigneeId: t.assigneeId, status: t.status } });
      return { index: s.index, annotation: annotationOf(v), size: { width: s.screenshot.width, height: s.screenshot.height } };
    });
    const problems = submitProblems(
      { outcome: t.outcome as "success" | "failure" | null, isDiscarded: t.isDiscarded, cutAfter: t.cutAfter },
      steps,
    );
    if (problems.length > 0) {
      const first = problems[0]!;
      const where =
        problems.length > 1
          ? { key: "error.notReadyMore" as const, vars: { first: submitProblemRef(first), n: problems.length - 1 } }
          : submitProblemRef(first);
      throw appError("unprocessable", "error.notReady", { where }, problems);
    }
    const submittedAt = new Date();
    // A task worked in the fast lane first and now corrected in full says so (lib/domain/lane.ts).
    const previousLane = fromStore(laneSchema.nullable(), t.lane, `trajectory ${id} lane`);
    const lane = laneAfterHandIn(previousLane, "full");
    await tx.trajectory.update({ where: { id }, data: { status: next, submittedAt, leaseUntil: null, lane } });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "trajectory.submit",
      entityType: "trajectory",
      entityId: id,
      before: {
        status: t.status,
        leaseUntil: t.leaseUntil?.toISOString() ?? null,
        ...(previousLane !== lane ? { lane: previousLane } : {}),
      },
      after: { status: next, submittedAt: submittedAt.toISOString(), leaseUntil: null, lane },
    });
  });
  return getTrajectory(id, prisma);
}

/**
 * The heartbeat: the assignee working on an editable trajectory holds a lease that runs LEASE_MS
 * from now. Others with the right to annotate (admins) edit without taking it.
 */
export async function renewLease(
  { actor, id }: { actor: Actor; id: string },
  prisma: Db = defaultDb(),
  now = new Date(),
): Promise<{ leaseUntil: string | null }> {
  return prisma.$transaction(async (tx) => {
    const t = await tx.trajectory.findUnique({ where: { id }, select: { id: true, assigneeId: true, status: true, leaseUntil: true } });
    if (!t) throw appError("not_found", "error.trajectoryMissing", { id });
    authorize(actor, "trajectory.annotate", t);
    // Only work taken from the pool has a lease; an admin's assignment (no lease) is not turned into one.
    if (t.assigneeId !== actor.id || !isEditableStatus(t.status) || t.leaseUntil === null)
      return { leaseUntil: t.leaseUntil?.toISOString() ?? null };
    const leaseUntil = new Date(now.getTime() + LEASE_MS);
    await tx.trajectory.update({ where: { id }, data: { leaseUntil } });
    // Taking up a lapsed (or absent) lease is a change worth a row; each minute's renewal is not.
    const isRenewal = t.leaseUntil !== null && t.leaseUntil > now;
    if (isRenewal) return { leaseUntil: leaseUntil.toISOString() };
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "trajectory.lease",
      entityType: "trajectory",
      entityId: id,
      before: { leaseUntil: t.leaseUntil?.toISOString() ?? null },
      after: { leaseUntil: leaseUntil.toISOString() },
    });
    return { leaseUntil: leaseUntil.toISOString() };
  });
}

/**
 * Does this person get the editor? The assignee does (the permission table must agree). Admins may
 * annotate anything through the API, but on someone else's or unassigned work the page shows the
 * read-only viewer, so looking never turns into editing by accident.
 */
export async function annotationAccess(
  { actor, id }: { actor: Actor; id: string },
  prisma: Db = defaultDb(),
): Promise<{ exists: boolean; canAnnotate: boolean; isEditable: boolean }> {
  const t = await prisma.trajectory.findUnique({ where: { id }, select: { assigneeId: true, status: true } });
  if (!t) return { exists: false, canAnnotate: false, isEditable: false };
  const canAnnotate = can(actor, "trajectory.annotate", t) && t.assigneeId === actor.id;
  return { exists: true, canAnnotate, isEditable: canAnnotate && isEditableStatus(t.status) };
}
