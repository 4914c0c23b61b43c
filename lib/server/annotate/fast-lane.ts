// The first-error fast lane on the server: hand a trajectory in with its outcome and the first step where the
// model went wrong, and the project's lane setting. The labels are ordinary verdicts written like any save
// (version + 1, a `step.annotate` audit row each), so the step history, the review guard, the export and the
// bridge read them as they read a full correction; the hand-in itself is a `trajectory.fastLane` row.
import { isEditableStatus } from "@/lib/domain/annotation";
import {
  fastLaneAfterSchema,
  fastLanePlan,
  laneAfterHandIn,
  laneSchema,
  type FastLaneAfter,
  type FastLaneProblem,
  type FastLaneSubmitInput,
  type ProjectLaneView,
} from "@/lib/domain/lane";
import type { Actor } from "@/lib/domain/permissions";
import { nextStatus, type TaskStatus } from "@/lib/domain/status";
import { stepToolCallSchema } from "@/lib/domain/tool-call";
import { originalOutputSchema, verdictSchema } from "@/lib/domain/trajectory";
import type { TrajectoryView } from "@/lib/domain/views";
import { recordAudit, auditActor, authorize } from "../people";
import { db as defaultDb, type Db } from "../db";
import { appError, fromStore } from "../errors";
import { getTrajectory } from "./trajectories";

const statusKey = (status: string) =>
  ["new", "in_progress", "submitted", "approved", "rejected"].includes(status) ? (`status.${status}` as "status.new") : "status.new";

function laneError(p: FastLaneProblem) {
  switch (p.code) {
    case "lane.firstErrorPastEnd":
      return appError("unprocessable", "lane.error.firstErrorPastEnd", { n: p.stepIndex + 1, count: p.stepCount }, [p]);
    case "lane.correctedBeforeError":
      return appError("unprocessable", "lane.error.correctedBeforeError", { n: p.stepIndex + 1 }, [p]);
  }
}

/**
 * Hand a trajectory in through the fast lane (POST /api/trajectories/:id/fast-lane). `firstError` is the
 * 0-based index of the first step where the model went wrong, or null; `version` the trajectory's version
 * the person worked from (409 when it moved on). Steps before it become `good`, the marked one `harmful`
 * (or `corrected` when its tool call was replaced on the spot), and by the project's `fastLaneAfter`:
 * `cut` cuts after the marked step and submits for review; `queue` leaves the later steps unreviewed and puts
 * the task back in the pool, in progress, for a full correction (a trajectory with nothing after the marked
 * step is submitted either way). Everything is one transaction; bad input changes nothing.
 */
export async function submitFastLane(
  { actor, id, ...input }: { actor: Actor; id: string } & FastLaneSubmitInput,
  prisma: Db = defaultDb(),
): Promise<TrajectoryView> {
  await prisma.$transaction(async (tx) => {
    const t = await tx.trajectory.findUnique({
      where: { id },
      include: { steps: { orderBy: { index: "asc" } }, project: { select: { fastLaneAfter: true } } },
    });
    if (!t) throw appError("not_found", "error.trajectoryMissing", { id });
    authorize(actor, "trajectory.annotate", t);
    authorize(actor, "trajectory.submit", t);
    if (!isEditableStatus(t.status)) throw appError("forbidden", "error.notEditable", { status: { key: statusKey(t.status) } });
    if (t.version !== input.version) {
      throw appError("conflict", "error.trajectoryConflict", { now: t.version, yours: input.version });
    }
    if (t.isDiscarded) throw appError("unprocessable", "lane.error.discarded");
    const after: FastLaneAfter = fromStore(fastLaneAfterSchema.nullable(), t.project.fastLaneAfter, `project of ${id}`) ?? "cut";
    const steps = t.steps.map((s) => ({
      id: s.id,
      index: s.index,
      version: s.version,
      verdict: fromStore(verdictSchema, s.verdict, `step ${s.id} verdict`),
      toolCall: fromStore(stepToolCallSchema, JSON.parse(s.toolCallJson), `step ${s.id} tool call`),
      original: fromStore(originalOutputSchema, JSON.parse(s.originalJson), `step ${s.id} original`),
    }));
    const planned = fastLanePlan(steps, input.firstError, after);
    if (!planned.ok) throw laneError(planned.problems[0]!);
    const { plan } = planned;
    const at = new Date();
    for (const v of plan.verdicts) {
      const s = steps.find((x) => x.index === v.index)!;
      await tx.step.update({ where: { id: s.id }, data: { verdict: v.verdict, version: { increment: 1 } } });
      await recordAudit(tx, {
        actor: auditActor(actor),
        action: "step.annotate",
        entityType: "step",
        entityId: s.id,
        before: { verdict: s.verdict, version: s.version },
        after: { verdict: v.verdict, version: s.version + 1, lane: "fast" },
      });
    }
    const previousLane = fromStore(laneSchema.nullable(), t.lane, `trajectory ${id} lane`);
    const status = t.status as TaskStatus;
    const next = plan.isQueued ? (status === "in_progress" ? status : nextStatus(status, "start")) : nextStatus(status, "submit");
    if (!next) throw appError("conflict", "error.cannotSubmit", { status: { key: statusKey(t.status) } });
    const cutAfter = plan.cutAfter === "keep" ? t.cutAfter : plan.cutAfter;
    const lane = laneAfterHandIn(previousLane, "fast");
    const handIn = plan.isQueued ? { assigneeId: null, leaseUntil: null } : { submittedAt: at, leaseUntil: null };
    await tx.trajectory.update({
      where: { id },
      data: { outcome: input.outcome, cutAfter, lane, status: next, version: { increment: 1 }, ...handIn },
    });
    await recordAudit(tx, {
      actor: auditActor(actor),
      action: "trajectory.fastLane",
      entityType: "trajectory",
      entityId: id,
      before: { outcome: t.outcome, cutAfter: t.cutAfter, lane: previousLane, status, assigneeId: t.assigneeId, version: t.version },
      after: {
        outcome: input.outcome,
        cutAfter,
        lane,
        status: next,
        firstError: input.firstError === null ? null : input.firstError + 1,
        isQueued: plan.isQueued,
        assigneeId: plan.isQueued ? null : t.assigneeId,
        version: t.version + 1,
      },
    });
    if (!plan.isQueued) {
      await recordAudit(tx, {
        actor: auditActor(actor),
        action: "trajectory.submit",
        entityType: "trajectory",
        entityId: id,
        before: { status, leaseUntil: t.leaseUntil?.toISOString() ?? null },
        after: { status: next, submittedAt: at.toISOString(), leaseUntil: null, lane },
      });
    }
  });
  return getTrajectory(id, prisma);
}

/** A project's trajectories, counted without people's overlap and gold copies of them. */
const ORIGINALS = { where: { copyOfId: null } };

/** The projects with their lane settings, for the admin (GET /api/projects). */
export async function listProjectLanes({ actor }: { actor: Actor }, prisma: Db = defaultDb()): Promise<{ projects: ProjectLaneView[] }> {
  authorize(actor, "project.configure");
  const rows = await prisma.project.findMany({
    orderBy: { name: "asc" },
    select: { id: true, name: true, fastLaneAfter: true, _count: { select: { trajectories: ORIGINALS } } },
  });
  return {
    projects: rows.map((p) => ({
      id: p.id,
      name: p.name,
      trajectories: p._count.trajectories,
      fastLaneAfter: fromStore(fastLaneAfterSchema.nullable(), p.fastLaneAfter, `project ${p.id}`) ?? "cut",
    })),
  };
}

/** Set what the fast lane does after the first error in one project (PUT /api/projects/:id/lane), audited. */
export async function setProjectLane(
  { actor, id, fastLaneAfter }: { actor: Actor; id: string; fastLaneAfter: FastLaneAfter },
  prisma: Db = defaultDb(),
): Promise<ProjectLaneView> {
  authorize(actor, "project.configure");
  return prisma.$transaction(async (tx) => {
    const p = await tx.project.findUnique({
      where: { id },
      select: { id: true, name: true, fastLaneAfter: true, _count: { select: { trajectories: ORIGINALS } } },
    });
    if (!p) throw appError("not_found", "lane.error.projectMissing", { id });
    const before = fromStore(fastLaneAfterSchema.nullable(), p.fastLaneAfter, `project ${id}`) ?? "cut";
    await tx.project.update({ where: { id }, data: { fastLaneAfter } });
    if (before !== fastLaneAfter) {
      await recordAudit(tx, {
        actor: auditActor(actor),
        action: "project.lane",
        entityType: "project",
        entityId: id,
        before: { fastLaneAfter: before },
        after: { fastLaneAfter },
      });
    }
    return { id: p.id, name: p.name, trajectories: p._count.trajectories, fastLaneAfter };
  });
}
