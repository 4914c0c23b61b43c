import {
  stepViewSchema,
  trajectoryViewSchema,
  type ListTrajectoriesInput,
  type StepView,
  type StudioStats,
  type TrajectoryView,
  type TrajectoryRow,
} from "@/lib/domain/views";
import type { Step as StepRow } from "./generated/sqlite/client";
import { TASK_STATUSES, type TaskStatus } from "@/lib/domain/status";
import { db as defaultDb, type Db } from "./db";
import type { Actor } from "@/lib/domain/permissions";
import { AppError, appError } from "./errors";
import { fromStore } from "./stored";
import { authorize, isPerson, type Caller } from "./session";

/**
 * The trajectories a caller may see: annotators only those assigned to them, everyone else (and
 * the command line) all.
 */
export function visibleTo(caller: Caller): { assigneeId?: string } {
  return isPerson(caller) && caller.role === "annotator" ? { assigneeId: caller.id } : {};
}

/** Counts for the dashboard and `studio stats`, over what `actor` may see. */
export async function getStats({ actor }: { actor: Caller }, prisma: Db = defaultDb()): Promise<StudioStats> {
  const where = visibleTo(actor);
  const [agg, byStatus, byApp, screenshots] = await Promise.all([
    prisma.trajectory.aggregate({ where, _count: { _all: true }, _sum: { stepCount: true } }),
    prisma.trajectory.groupBy({ by: ["status"], where, _count: { _all: true } }),
    prisma.trajectory.groupBy({ by: ["app"], where, _count: { _all: true }, _sum: { stepCount: true }, orderBy: { app: "asc" } }),
    where.assigneeId
      ? prisma.step
          .findMany({ where: { trajectory: where }, distinct: ["screenshotSha"], select: { screenshotSha: true } })
          .then((r) => r.length)
      : prisma.screenshot.count(),
  ]);
  const statusCounts = Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>;
  for (const row of byStatus) if (row.status in statusCounts) statusCounts[row.status as TaskStatus] = row._count._all;
  return {
    trajectories: agg._count._all,
    steps: agg._sum.stepCount ?? 0,
    apps: byApp.length,
    screenshots,
    byStatus: statusCounts,
    byApp: byApp.map((r) => ({ app: r.app, trajectories: r._count._all, steps: r._sum.stepCount ?? 0 })),
  };
}

/**
 * One page of the trajectories `actor` may see, filtered by app, status, instruction text and
 * assignee. Filters narrow what is visible and never widen it: visibility and filters are joined
 * with AND, so no filter value can stand in for the visibility rule. An annotator asking for the
 * pool (`assignee=none`) or someone else's work is refused (403) rather than shown an empty page.
 */
export async function listTrajectories({ actor, ...input }: { actor: Caller } & ListTrajectoriesInput, prisma: Db = defaultDb()) {
  const assignee = input.assignee?.trim().toLowerCase();
  if (isPerson(actor) && actor.role === "annotator" && assignee && assignee !== actor.email.toLowerCase()) {
    throw new AppError(
      "forbidden",
      `Annotators see only their own work; the assignee filter (${assignee === "none" ? "unassigned" : "someone else"}) is for reviewers and admins.`,
    );
  }
  const filters = {
    ...(input.app ? { app: input.app } : {}),
    ...(input.status ? { status: input.status } : {}),
    ...(input.q ? { instruction: { contains: input.q } } : {}),
    ...(assignee === "none" ? { assigneeId: null } : assignee ? { assignee: { email: assignee } } : {}),
  };
  const where = { AND: [visibleTo(actor), filters] };
  const [total, rows] = await Promise.all([
    prisma.trajectory.count({ where }),
    prisma.trajectory.findMany({
      where,
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
      select: {
        id: true,
        app: true,
        instruction: true,
        status: true,
        outcome: true,
        stepCount: true,
        source: true,
        sourceRef: true,
        updatedAt: true,
        assignee: { select: { email: true } },
      },
    }),
  ]);
  return {
    total,
    page: input.page,
    pageSize: input.pageSize,
    rows: rows.map(({ assignee, ...r }): TrajectoryRow => ({
      ...r,
      status: r.status as TrajectoryRow["status"],
      outcome: r.outcome as TrajectoryRow["outcome"],
      assignee: assignee?.email ?? null,
      updatedAt: r.updatedAt.toISOString(),
    })),
  };
}

/** A trajectory `actor` may read (404 when it does not exist, 403 when it is someone else's work). */
export async function getTrajectoryFor({ actor, id }: { actor: Actor; id: string }, prisma: Db = defaultDb()): Promise<TrajectoryView> {
  const facts = await prisma.trajectory.findUnique({ where: { id }, select: { assigneeId: true, status: true } });
  if (!facts) throw appError("not_found", "error.trajectoryMissing", { id });
  authorize(actor, "trajectory.read", facts);
  return getTrajectory(id, prisma);
}

/** A trajectory with all its steps, stored JSON parsed through the domain schemas. */
export async function getTrajectory(id: string, prisma: Db = defaultDb()): Promise<TrajectoryView> {
  const t = await prisma.trajectory.findUnique({
    where: { id },
    include: {
      project: { select: { name: true } },
      assignee: { select: { email: true } },
      steps: { orderBy: { index: "asc" }, include: { screenshot: true } },
    },
  });
  if (!t) throw appError("not_found", "error.trajectoryMissing", { id });
  return fromStore(
    trajectoryViewSchema,
    {
      id: t.id,
      project: t.project.name,
      app: t.app,
      instruction: t.instruction,
      source: t.source,
      sourceRef: t.sourceRef,
      status: t.status,
      outcome: t.outcome,
      originalOutcome: t.originalOutcome,
      isDiscarded: t.isDiscarded,
      cutAfter: t.cutAfter,
      assigneeId: t.assigneeId,
      assignee: t.assignee?.email ?? null,
      leaseUntil: t.leaseUntil?.toISOString() ?? null,
      version: t.version,
      steps: t.steps.map(stepFromRow),
    },
    `trajectory ${id}`,
  );
}

/** A stored step row (with its screenshot) as the view every layer uses; stored JSON is parsed and checked. */
export function stepFromRow(s: StepRow & { screenshot: { sha256: string; width: number; height: number } }): StepView {
  return fromStore(
    stepViewSchema,
    {
      id: s.id,
      index: s.index,
      screenshot: { sha256: s.screenshot.sha256, width: s.screenshot.width, height: s.screenshot.height },
      original: JSON.parse(s.originalJson),
      thought: { state: s.thoughtState, nextAction: s.thoughtNext, purpose: s.thoughtPurpose, text: s.thought },
      clearAction: s.clearAction,
      toolCall: JSON.parse(s.toolCallJson),
      box: s.boxJson ? JSON.parse(s.boxJson) : null,
      candidateBoxes: JSON.parse(s.candidateBoxJson),
      verdict: s.verdict,
      version: s.version,
      provenance: s.provenanceJson ? JSON.parse(s.provenanceJson) : {},
    },
    `step ${s.id}`,
  );
}

/** A stored screenshot's record, for the image route; annotators only get screenshots of their own work. */
export async function getScreenshot({ actor, sha256 }: { actor: Caller; sha256: string }, prisma: Db = defaultDb()) {
  const s = await prisma.screenshot.findUnique({ where: { sha256 } });
  const scope = visibleTo(actor);
  const isVisible = s && (!scope.assigneeId || (await prisma.step.count({ where: { screenshotSha: sha256, trajectory: scope } })) > 0);
  if (!s || !isVisible) throw new AppError("not_found", `screenshot ${sha256} does not exist`);
  return s;
}
