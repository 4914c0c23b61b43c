import { TASK_STATUSES, type TaskStatus } from "@/lib/domain/status";
import { VERDICTS, type Verdict } from "@/lib/domain/trajectory";
import type { Actor } from "@/lib/domain/permissions";
import type { Dashboard } from "@/lib/domain/dashboard";
import { db as defaultDb, type Db, Prisma } from "../db";
import { authorize } from "../people";

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
  // One count serves every request for DASHBOARD_MAX_AGE_MS after it starts (and any that arrive
  // while it runs): on SQLite a count holds the event loop for its whole length (better-sqlite3 is
  // synchronous), so 32 reviewers refreshing at once would otherwise wait for 32 counts in a row.
  // Progress figures may thus be up to a second old; every request is still authorised on its own,
  // and each instance counts for itself.
  const day = now.toISOString().slice(0, 10);
  const byDay = recent.get(prisma) ?? new Map<string, { at: number; counting: Promise<Dashboard> }>();
  recent.set(prisma, byDay);
  const last = byDay.get(day);
  const age = last ? now.getTime() - last.at : Infinity;
  if (last && age >= 0 && age < DASHBOARD_MAX_AGE_MS) return last.counting;
  const counting = countDashboard(prisma, now);
  const entry = { at: now.getTime(), counting };
  byDay.clear();
  byDay.set(day, entry);
  // A failed count is not kept: the next request counts again.
  counting.catch(() => byDay.get(day) === entry && byDay.delete(day));
  return counting;
}

/** How long one dashboard count answers for (see getDashboard). */
export const DASHBOARD_MAX_AGE_MS = 1000;
const recent = new WeakMap<Db, Map<string, { at: number; counting: Promise<Dashboard> }>>();

async function countDashboard(prisma: Db, now: Date): Promise<Dashboard> {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (DAYS - 1) * DAY_MS);
  const days = Array.from({ length: DAYS }, (_, i) => new Date(start.getTime() + i * DAY_MS));
  // Nine grouped counts in plain SQL both dialects run as written (Prisma's groupBy costs several
  // times the database's own time, and the fortnight was fourteen queries): each reads an index
  // (Trajectory app/status and assignee/status, Step verdict, AuditEvent action/at), no rows one by one.
  type Count = { n: number | bigint };
  const dayColumns = Prisma.join(
    days.map(
      (from, i) =>
        Prisma.sql`SUM(CASE WHEN "at" >= ${from} AND "at" < ${new Date(from.getTime() + DAY_MS)} THEN 1 ELSE 0 END) AS ${Prisma.raw(`"d${i}"`)}`,
    ),
    ", ",
  );
  const [byAppStatus, copiesByAppStatus, verdicts, copyVerdicts, byAssignee, reviews, dailyRows, byLane] = await Promise.all([
    prisma.$queryRaw<({ app: string; status: string } & Count)[]>`
      SELECT "app", "status", COUNT(*) AS "n" FROM "Trajectory" GROUP BY "app", "status"`,
    // People's overlap and gold copies are not trajectories of their own: they and their steps are counted
    // apart (a few rows, by the copyOfId index) and taken off, so the counts above still read an index alone.
    prisma.$queryRaw<({ app: string; status: string } & Count)[]>`
      SELECT "app", "status", COUNT(*) AS "n" FROM "Trajectory" WHERE "copyOfId" IS NOT NULL GROUP BY "app", "status"`,
    prisma.$queryRaw<({ verdict: string } & Count)[]>`SELECT "verdict", COUNT(*) AS "n" FROM "Step" GROUP BY "verdict"`,
    prisma.$queryRaw<({ verdict: string } & Count)[]>`
      SELECT s."verdict", COUNT(*) AS "n" FROM "Trajectory" t JOIN "Step" s ON s."trajectoryId" = t."id"
      WHERE t."copyOfId" IS NOT NULL GROUP BY s."verdict"`,
    // Each person's pipeline counts their copies: a copy is that person's work like any other task.
    prisma.$queryRaw<({ assigneeId: string; status: string } & Count)[]>`
      SELECT "assigneeId", "status", COUNT(*) AS "n" FROM "Trajectory" WHERE "assigneeId" IS NOT NULL GROUP BY "assigneeId", "status"`,
    prisma.$queryRaw<({ action: string } & Count)[]>`
      SELECT "action", COUNT(*) AS "n" FROM "AuditEvent" WHERE "action" IN ('review.approve', 'review.reject') GROUP BY "action"`,
    prisma.$queryRaw<({ action: string } & Record<string, number | bigint | null>)[]>`
      SELECT "action", ${dayColumns} FROM "AuditEvent"
      WHERE "action" IN ('step.annotate', 'trajectory.submit', 'review.approve', 'review.reject') AND "at" >= ${start}
      GROUP BY "action"`,
    prisma.$queryRaw<({ lane: string; status: string } & Count)[]>`
      SELECT "lane", "status", COUNT(*) AS "n" FROM "Trajectory" WHERE "lane" IS NOT NULL GROUP BY "lane", "status"`,
  ]);

  const apps = new Map<string, Record<TaskStatus, number>>();
  for (const [rows, sign] of [
    [byAppStatus, 1],
    [copiesByAppStatus, -1],
  ] as const) {
    for (const row of rows) {
      const counts = apps.get(row.app) ?? zeroStatuses();
      if (row.status in counts) counts[row.status as TaskStatus] += sign * Number(row.n);
      apps.set(row.app, counts);
    }
  }

  const people = await prisma.user.findMany({
    where: { id: { in: [...new Set(byAssignee.map((r) => r.assigneeId))] } },
    select: { id: true, email: true },
  });
  const annotators = people.map((p) => {
    const count = (s: TaskStatus) => byAssignee.filter((r) => r.assigneeId === p.id && r.status === s).reduce((n, r) => n + Number(r.n), 0);
    const assigned = byAssignee.filter((r) => r.assigneeId === p.id).reduce((n, r) => n + Number(r.n), 0);
    return {
      email: p.email,
      assigned,
      inProgress: count("in_progress") + count("new"),
      submitted: count("submitted"),
      approved: count("approved"),
      sentBack: count("rejected"),
    };
  });

  const daily = days.map((from, i) => {
    const n = (a: string) => Number(dailyRows.find((r) => r.action === a)?.[`d${i}`] ?? 0);
    return {
      day: from.toISOString().slice(0, 10),
      stepEdits: n("step.annotate"),
      submitted: n("trajectory.submit"),
      approved: n("review.approve"),
      sentBack: n("review.reject"),
    };
  });
  const verdictCount = (v: string) =>
    Number(verdicts.find((r) => r.verdict === v)?.n ?? 0) - Number(copyVerdicts.find((r) => r.verdict === v)?.n ?? 0);
  const reviewCount = (a: string) => Number(reviews.find((r) => r.action === a)?.n ?? 0);

  // Handed in (submitted or approved) by lane; fast-lane work back in progress waits for its full correction.
  const laneCount = (lane: string, statuses: string[]) =>
    byLane.filter((r) => r.lane === lane && statuses.includes(r.status)).reduce((n, r) => n + Number(r.n), 0);
  const handedIn = ["submitted", "approved"];
  const lanes = {
    full: laneCount("full", handedIn),
    fast: laneCount("fast", handedIn),
    fastThenFull: laneCount("fast-then-full", handedIn),
    queued: laneCount("fast", ["in_progress", "new", "rejected"]),
  };

  return {
    lanes,
    byApp: [...apps.entries()].map(([app, counts]) => ({ app, ...counts })).sort((a, b) => a.app.localeCompare(b.app)),
    verdicts: Object.fromEntries(VERDICTS.map((v) => [v, verdictCount(v)])) as Record<Verdict, number>,
    annotators: annotators.sort((a, b) => a.email.localeCompare(b.email)),
    daily,
    review: {
      approved: reviewCount("review.approve"),
      sentBack: reviewCount("review.reject"),
    },
  };
}
