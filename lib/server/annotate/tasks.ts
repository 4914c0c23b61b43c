import type { Actor } from "@/lib/domain/permissions";
import type { TaskStatus } from "@/lib/domain/status";
import { type Prisma, db as defaultDb, type Db } from "../db";
import { taskListSchema, type TaskList } from "@/lib/domain/views";
import { recordAudit, auditActor, authorize } from "../people";
import { LEASE_MS } from "./annotation";
import { nonKeepers } from "./assign";
import { takeGoldTask } from "./gold";
import { copiesHeld, originalsHeldBy } from "./overlap";
import { fromStore } from "../errors";
import { OWN_ORDER, takeDialect, workHeldBy } from "./one-lease";

/** Thrown inside a take's transaction to roll it back: the person would hold two copies of one trajectory. */
const SECOND_COPY = new Error("second copy of one trajectory");
/** Unassigned candidates tried before giving up when others keep taking them first. */
const TAKE_ATTEMPTS = 8;

/**
 * What anyone may take: new work nobody has, fast-lane work queued for full correction, or work taken from the pool whose lease lapsed (its
 * taker stopped working on it; what they saved stays). Admin assignments have no lease and stay.
 */
function takeable(now: Date) {
  return {
    // An overlapped trajectory is never taken itself: its copies are (lib/server/annotate/overlap.ts).
    overlap: 0,
    OR: [
      { assigneeId: null, status: "new" },
      // Fast-lane work queued for full correction (lib/server/annotate/fast-lane.ts): back in the pool, in progress.
      { assigneeId: null, status: "in_progress", lane: "fast" },
      // A gold copy stays with its person (another would be a second answer to the same gold).
      {
        assigneeId: { not: null },
        leaseUntil: { lt: now },
        status: { in: ["new", "in_progress"] },
        OR: [{ copyKind: null }, { copyKind: "overlap" }],
      },
    ],
  };
}

/**
 * The order work is taken in: overlap copies first (copyKind "overlap"; originals have none), so the
 * copies of a trajectory go out one after another to different people instead of after the whole
 * backlog; then oldest first, copies and originals alike (a trajectory's copies were made together).
 */
const TAKE_ORDER = [
  { copyKind: { sort: "asc", nulls: "last" } },
  { createdAt: "asc" },
  { id: "asc" },
] satisfies Prisma.TrajectoryOrderByWithRelationInput[];

/**
 * "Start next task", in this order: the person's own unfinished work (under way, sent back, new); a
 * gold task when it is gold's turn (lib/server/annotate/gold.ts); an overlap copy waiting to be taken;
 * then the rest of the backlog, oldest first (TAKE_ORDER). Taking is one conditional update (only
 * while still unassigned), so two people starting at once never get the same task: the loser moves on
 * to the next candidate. One person holds one task at a time: each take's transaction holds the
 * person's row first (lib/server/annotate/one-lease.ts), so presses of one person at once all get the
 * task the first one took. Returns the trajectory id, or null when there is nothing to do.
 */
export async function startNextTask(
  { actor, skipNearDuplicates = false }: { actor: Actor; skipNearDuplicates?: boolean },
  prisma: Db = defaultDb(),
  now = new Date(),
): Promise<string | null> {
  authorize(actor, "trajectory.take");
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  const own = await prisma.trajectory.findMany({
    where: { assigneeId: actor.id, status: { in: OWN_ORDER }, isDiscarded: false },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, status: true, leaseUntil: true },
  });
  own.sort((a, b) => OWN_ORDER.indexOf(a.status as TaskStatus) - OWN_ORDER.indexOf(b.status as TaskStatus));
  const mine = own[0];
  // Work an admin assigned carries no lease (it stays theirs); work taken from the pool keeps a lease.
  if (mine && mine.leaseUntil === null) return mine.id;
  if (mine) {
    await prisma.$transaction(async (tx) => {
      await tx.trajectory.update({ where: { id: mine.id }, data: { leaseUntil } });
      await recordAudit(tx, {
        actor: auditActor(actor),
        action: "trajectory.lease",
        entityType: "trajectory",
        entityId: mine.id,
        before: { leaseUntil: mine.leaseUntil?.toISOString() ?? null },
        after: { leaseUntil: leaseUntil.toISOString() },
      });
    });
    return mine.id;
  }
  const dialect = takeDialect(prisma);
  // Gold tasks are mixed in at the project's rate, looking like any other take (lib/server/annotate/gold.ts).
  const gold = await takeGoldTask(prisma, actor, leaseUntil, dialect);
  if (gold !== null) return gold;
  // Near-duplicates that are not their group's keeper are passed over (never taken), when asked.
  const others = skipNearDuplicates ? await nonKeepers(prisma) : new Set<string>();
  const tried = new Set<string>();
  // Never a second copy of one trajectory for the same person (overlap needs different people).
  const held = await originalsHeldBy(prisma, actor.id);
  const notHeld = held.length ? { OR: [{ copyOfId: null }, { copyOfId: { notIn: held } }] } : {};
  for (let attempt = 0; attempt < TAKE_ATTEMPTS; attempt++) {
    const candidates = await prisma.trajectory.findMany({
      where: { ...takeable(now), isDiscarded: false, id: { notIn: [...tried] }, AND: [notHeld] },
      orderBy: TAKE_ORDER,
      select: { id: true, assigneeId: true, leaseUntil: true, copyOfId: true },
      take: others.size + 1,
    });
    const candidate = candidates.find((c) => !others.has(c.id));
    if (!candidate) return null;
    tried.add(candidate.id);
    const taken = await prisma
      .$transaction(async (tx): Promise<string | null> => {
        // Another press of the same person took something meanwhile: that one is their task.
        const held = await workHeldBy(tx, actor.id, dialect);
        if (held !== null) return held;
        const { count } = await tx.trajectory.updateMany({
          where: { id: candidate.id, ...takeable(now) },
          data: { assigneeId: actor.id, leaseUntil },
        });
        if (count !== 1) return null;
        // Two takes of the same person at once could each pass the filter above: the second one gives it back.
        if (candidate.copyOfId !== null && (await copiesHeld(tx, actor.id, candidate.copyOfId)) > 1) throw SECOND_COPY;
        await recordAudit(tx, {
          actor: auditActor(actor),
          action: "trajectory.take",
          entityType: "trajectory",
          entityId: candidate.id,
          before: { assigneeId: candidate.assigneeId, leaseUntil: candidate.leaseUntil?.toISOString() ?? null },
          after: { assigneeId: actor.id, leaseUntil: leaseUntil.toISOString() },
        });
        return candidate.id;
      })
      .catch((e: unknown) => {
        if (e === SECOND_COPY) return null;
        throw e;
      });
    if (taken !== null) return taken;
  }
  return null;
}

/** "My tasks": everything assigned to the person, with how many steps have a verdict, and how many are free to take. */
export async function listMyTasks({ actor }: { actor: Actor }, prisma: Db = defaultDb()): Promise<TaskList> {
  authorize(actor, "trajectory.take");
  const [rows, available] = await Promise.all([
    prisma.trajectory.findMany({
      where: { assigneeId: actor.id },
      orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
      select: {
        id: true,
        app: true,
        instruction: true,
        status: true,
        outcome: true,
        stepCount: true,
        leaseUntil: true,
        updatedAt: true,
        lane: true,
      },
    }),
    prisma.trajectory.count({ where: { ...takeable(new Date()), isDiscarded: false } }),
  ]);
  const done = await prisma.step.groupBy({
    by: ["trajectoryId"],
    where: { trajectoryId: { in: rows.map((r) => r.id) }, verdict: { not: "unreviewed" } },
    _count: { _all: true },
  });
  const doneBy = new Map(done.map((d) => [d.trajectoryId, d._count._all]));
  // Fast-lane work counts by its own rule: the first error it marked (the first harmful or corrected step).
  const marked = await prisma.step.groupBy({
    by: ["trajectoryId"],
    where: { trajectoryId: { in: rows.filter((r) => r.lane === "fast").map((r) => r.id) }, verdict: { in: ["harmful", "corrected"] } },
    _min: { index: true },
  });
  const firstErrorBy = new Map(marked.map((m) => [m.trajectoryId, m._min.index]));
  const ids = rows.map((r) => r.id);
  const [decisions, open] = await Promise.all([
    prisma.reviewDecision.findMany({
      where: { trajectoryId: { in: ids } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { trajectoryId: true, decision: true, reason: true, reviewerLabel: true, createdAt: true },
    }),
    prisma.comment.groupBy({ by: ["trajectoryId"], where: { trajectoryId: { in: ids }, isResolved: false }, _count: { _all: true } }),
  ]);
  const lastDecision = new Map<string, (typeof decisions)[number]>();
  for (const d of decisions) if (!lastDecision.has(d.trajectoryId)) lastDecision.set(d.trajectoryId, d);
  const openBy = new Map(open.map((o) => [o.trajectoryId, o._count._all]));
  // Work sent back comes first (the annotator has to act on it), then what is under way, new, and done.
  const rank = (s: string, isSentBack: boolean) => {
    if (isSentBack) return -1;
    const i = (["in_progress", "rejected", "new", "submitted", "approved"] as string[]).indexOf(s);
    return i < 0 ? 9 : i;
  };
  const tasks = rows
    .map((r) => {
      const d = lastDecision.get(r.id);
      // Sent back and not resubmitted: rejected, or already being fixed (in progress again).
      const isSentBack = d?.decision === "reject" && (r.status === "rejected" || r.status === "in_progress");
      return {
        ...r,
        doneSteps: doneBy.get(r.id) ?? 0,
        firstError: firstErrorBy.get(r.id) ?? null,
        leaseUntil: r.leaseUntil?.toISOString() ?? null,
        updatedAt: r.updatedAt.toISOString(),
        sentBack: isSentBack ? { reason: d.reason, reviewer: d.reviewerLabel, at: d.createdAt.toISOString() } : null,
        openComments: openBy.get(r.id) ?? 0,
      };
    })
    .sort((a, b) => rank(a.status, a.sentBack !== null) - rank(b.status, b.sentBack !== null));
  return fromStore(taskListSchema, { tasks, available }, "task list");
}
