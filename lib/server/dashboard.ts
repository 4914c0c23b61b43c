import { TASK_STATUSES, type TaskStatus } from "@/lib/domain/status";
import { VERDICTS, type Verdict } from "@/lib/domain/trajectory";
import type { Actor } from "@/lib/domain/permissions";
import type { Dashboard } from "@/lib/domain/dashboard";
import { db as defaultDb, type Db } from "./db";
import { authorize } from "./session";

const DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

const zeroStatuses = () => Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>;

/**
 * Progress and quality for reviewers and admins: work by app and status, step verdicts, each
 * annotator's pipeline, review outcomes, and the last two weeks' activity from the audit trail.
 * Everything is a grouped count in the database; nothing loads rows one by one.
 */
export async function getDashboard({ actor }: { actor: Actor }, prisma: Db = defaultDb(), now = new Date()): Promise<Dashboard> {
  authorize(actor, "trajectory.review");
  const [byAppStatus, verdicts, byAssignee, reviews] = await Promise.all([
    prisma.trajectory.groupBy({ by: ["app", "status"], _count: { _all: true } }),
    prisma.step.groupBy({ by: ["verdict"], _count: { _all: true } }),
    prisma.trajectory.groupBy({ by: ["assigneeId", "status"], where: { assigneeId: { not: null } }, _count: { _all: true } }),
    prisma.auditEvent.groupBy({ by: ["action"], where: { action: { in: ["review.approve", "review.reject"] } }, _count: { _all: true } }),
  ]);

  const apps = new Map<string, Record<TaskStatus, number>>();
  for (const row of byAppStatus) {
    const counts = apps.get(row.app) ?? zeroStatuses();
    if (row.status in counts) counts[row.status as TaskStatus] += row._count._all;
    apps.set(row.app, counts);
  }

  const people = await prisma.user.findMany({
    where: { id: { in: [...new Set(byAssignee.map((r) => r.assigneeId!))] } },
    select: { id: true, email: true },
  });
  const annotators = people.map((p) => {
    const count = (s: TaskStatus) =>
      byAssignee.filter((r) => r.assigneeId === p.id && r.status === s).reduce((n, r) => n + r._count._all, 0);
    const assigned = byAssignee.filter((r) => r.assigneeId === p.id).reduce((n, r) => n + r._count._all, 0);
    return {
      email: p.email,
      assigned,
      inProgress: count("in_progress") + count("new"),
      submitted: count("submitted"),
      approved: count("approved"),
      sentBack: count("rejected"),
    };
  });

  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (DAYS - 1) * DAY_MS);
  const daily = await Promise.all(
    Array.from({ length: DAYS }, async (_, i) => {
      const from = new Date(start.getTime() + i * DAY_MS);
      const rows = await prisma.auditEvent.groupBy({
        by: ["action"],
        where: {
          at: { gte: from, lt: new Date(from.getTime() + DAY_MS) },
          action: { in: ["step.annotate", "trajectory.submit", "review.approve", "review.reject"] },
        },
        _count: { _all: true },
      });
      const n = (a: string) => rows.find((r) => r.action === a)?._count._all ?? 0;
      return {
        day: from.toISOString().slice(0, 10),
        stepEdits: n("step.annotate"),
        submitted: n("trajectory.submit"),
        approved: n("review.approve"),
        sentBack: n("review.reject"),
      };
    }),
  );

  return {
    byApp: [...apps.entries()].map(([app, counts]) => ({ app, ...counts })).sort((a, b) => a.app.localeCompare(b.app)),
    verdicts: Object.fromEntries(VERDICTS.map((v) => [v, verdicts.find((r) => r.verdict === v)?._count._all ?? 0])) as Record<
      Verdict,
      number
    >,
    annotators: annotators.sort((a, b) => a.email.localeCompare(b.email)),
    daily,
    review: {
      approved: reviews.find((r) => r.action === "review.approve")?._count._all ?? 0,
      sentBack: reviews.find((r) => r.action === "review.reject")?._count._all ?? 0,
    },
  };
}
