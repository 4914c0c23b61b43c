// Time and effort (issue 26 item 5): the editor's active-time reports, and the dashboard's figures.
import { effortReportInput, IDLE_AFTER_MS, median, type EffortFigures, type EffortReportInput } from "@/lib/domain/effort";
import type { Actor } from "@/lib/domain/permissions";
import { appError } from "../errors";
import { db as defaultDb, type Db } from "../db";
import { authorize } from "../people";

/**
 * Add one report of active time to the asking person's per-step totals. Only the people who may read
 * the trajectory report on it (an annotator: their own tasks), and every step must be one of its
 * steps; a report naming another trajectory's step changes nothing. Not audited: it is a measure of
 * the person's own work, as their settings are, and it arrives every 15 seconds.
 */
export async function recordEffort({ actor, ...input }: { actor: Actor } & EffortReportInput, prisma: Db = defaultDb()): Promise<number> {
  const report = effortReportInput.parse(input);
  const t = await prisma.trajectory.findUnique({
    where: { id: report.trajectoryId },
    select: { id: true, assigneeId: true, status: true },
  });
  if (!t) throw appError("not_found", "error.trajectoryMissing", { id: report.trajectoryId });
  authorize(actor, "trajectory.read", t);
  const ids = [...new Set(report.steps.map((s) => s.stepId))];
  const known = await prisma.step.findMany({ where: { trajectoryId: t.id, id: { in: ids } }, select: { id: true } });
  if (known.length !== ids.length) {
    const have = new Set(known.map((s) => s.id));
    throw appError("unprocessable", "error.stepNotInTrajectory", { step: ids.find((id) => !have.has(id)) ?? "", id: t.id });
  }
  await prisma.$transaction(
    report.steps.map((s) =>
      prisma.stepEffort.upsert({
        where: { userId_stepId: { userId: actor.id, stepId: s.stepId } },
        create: { userId: actor.id, stepId: s.stepId, trajectoryId: t.id, activeMs: s.activeMs, reports: 1 },
        update: { activeMs: { increment: s.activeMs }, reports: { increment: 1 } },
      }),
    ),
  );
  return report.steps.length;
}

type Item = { email: string; app: string; actionType: string; ms: number; edits: number };

function row(items: readonly Item[]) {
  return {
    steps: items.length,
    medianMs: median(items.map((i) => i.ms)),
    totalMs: items.reduce((n, i) => n + i.ms, 0),
    edits: items.reduce((n, i) => n + i.edits, 0),
  };
}

function grouped<K extends string>(items: readonly Item[], key: (i: Item) => string, name: K) {
  const groups = new Map<string, Item[]>();
  for (const i of items) groups.set(key(i), [...(groups.get(key(i)) ?? []), i]);
  return [...groups]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, list]) => ({ [name]: k, ...row(list) }) as { [P in K]: string } & ReturnType<typeof row>);
}

/**
 * Median active time per step (one person's total on one step is one value), by person, app and the
 * step's current action type, with the number of saves each person made on those steps (their
 * `step.annotate` audit rows). Reviewers and admins.
 */
export async function effortFigures({ actor }: { actor: Actor }, prisma: Db = defaultDb()): Promise<EffortFigures> {
  authorize(actor, "trajectory.review");
  const efforts = await prisma.stepEffort.findMany({
    where: { activeMs: { gt: 0 } },
    select: { userId: true, stepId: true, activeMs: true },
  });
  const stepIds = [...new Set(efforts.map((e) => e.stepId))];
  const userIds = [...new Set(efforts.map((e) => e.userId))];
  const [steps, users, saves] = await Promise.all([
    prisma.step.findMany({
      where: { id: { in: stepIds } },
      select: { id: true, toolCallJson: true, trajectory: { select: { app: true } } },
    }),
    prisma.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }),
    prisma.auditEvent.groupBy({
      by: ["actorId", "entityId"],
      where: { action: "step.annotate", entityType: "step", entityId: { in: stepIds }, actorId: { in: userIds } },
      _count: { _all: true },
    }),
  ]);
  const stepById = new Map(steps.map((s) => [s.id, s]));
  const emailById = new Map(users.map((u) => [u.id, u.email]));
  const edits = new Map(saves.map((s) => [`${s.actorId}\u0000${s.entityId}`, s._count._all]));
  const items: Item[] = [];
  for (const e of efforts) {
    const step = stepById.get(e.stepId);
    if (!step) continue; // the trajectory was deleted since
    let actionType = "unknown";
    try {
      actionType = String((JSON.parse(step.toolCallJson) as { action?: unknown }).action ?? "unknown");
    } catch {
      // a stored call is always JSON; "unknown" keeps the figure rather than failing the dashboard
    }
    items.push({
      email: emailById.get(e.userId) ?? e.userId,
      app: step.trajectory.app,
      actionType,
      ms: e.activeMs,
      edits: edits.get(`${e.userId}\u0000${e.stepId}`) ?? 0,
    });
  }
  return {
    idleAfterMs: IDLE_AFTER_MS,
    overall: row(items),
    byPerson: grouped(items, (i) => i.email, "email"),
    byApp: grouped(items, (i) => i.app, "app"),
    byActionType: grouped(items, (i) => i.actionType, "actionType"),
  };
}
