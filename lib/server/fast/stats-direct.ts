// `studio stats` on SQLite without Prisma: the same counts as getStats (trajectories.ts), read with
// better-sqlite3 from a read-only connection. Why: the command answers in a few milliseconds of SQL, and
// opening Prisma's client for it (its runtime, the generated client, the query compiler's 3.3 MB of wasm
// and one compile per query shape) was about 0.5 s of CPU of every `studio stats`. getStats stays the
// one the dashboard uses (both dialects); stats-direct.test.ts holds this module to its answers on the
// same database, and imports nothing of Prisma, so the command line's stats never loads it.
import Database from "better-sqlite3";
import { TASK_STATUSES, type TaskStatus } from "@/lib/domain/status";
import type { StudioStats } from "@/lib/domain/views";

type Count = { n: number; steps: number | null };

/**
 * The studio's counts read straight from the SQLite file at `file` (an absolute path, as
 * config.sqlitePath gives it), over the trajectories assigned to `assigneeId` when given (an
 * annotator's view, their copies included), else all of them but people's overlap and gold copies (the
 * command line's). Same shape and order as getStats: apps by name in SQLite's binary order, projects
 * by name in localeCompare order.
 */
export function sqliteStats(file: string, { assigneeId }: { assigneeId?: string } = {}): StudioStats {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 5_000 });
  try {
    // One read transaction: every count sees the same committed state, as Prisma's reads in a row may not
    // need to but a person comparing the numbers would expect.
    return db.transaction(() => {
      // As listedTo (trajectories.ts): a person's own work with their copies, else the trajectories without people's copies.
      const where = assigneeId === undefined ? `WHERE "copyOfId" IS NULL` : `WHERE "assigneeId" = ?`;
      const args = assigneeId === undefined ? [] : [assigneeId];
      const all = <T>(sql: string) => db.prepare(sql).all(...args) as T[];
      const agg = all<Count>(`SELECT COUNT(*) AS n, SUM("stepCount") AS steps FROM "Trajectory" ${where}`)[0];
      const byStatus = all<{ status: string; n: number }>(`SELECT "status", COUNT(*) AS n FROM "Trajectory" ${where} GROUP BY "status"`);
      const byApp = all<Count & { app: string }>(
        `SELECT "app", COUNT(*) AS n, SUM("stepCount") AS steps FROM "Trajectory" ${where} GROUP BY "app" ORDER BY "app" ASC`,
      );
      const byProject = all<{ projectId: string; n: number }>(
        `SELECT "projectId", COUNT(*) AS n FROM "Trajectory" ${where} GROUP BY "projectId"`,
      );
      const projects = db.prepare(`SELECT "id", "name" FROM "Project"`).all() as { id: string; name: string }[];
      const screenshots =
        assigneeId === undefined
          ? (db.prepare(`SELECT COUNT(*) AS n FROM "Screenshot"`).get() as { n: number }).n
          : (
              db
                .prepare(
                  `SELECT COUNT(DISTINCT s."screenshotSha") AS n FROM "Step" s JOIN "Trajectory" t ON t."id" = s."trajectoryId" WHERE t."assigneeId" = ?`,
                )
                .get(assigneeId) as { n: number }
            ).n;
      const statusCounts = Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>;
      for (const row of byStatus) if (row.status in statusCounts) statusCounts[row.status as TaskStatus] = row.n;
      return {
        trajectories: agg?.n ?? 0,
        steps: agg?.steps ?? 0,
        apps: byApp.length,
        screenshots,
        byStatus: statusCounts,
        byApp: byApp.map((r) => ({ app: r.app, trajectories: r.n, steps: r.steps ?? 0 })),
        byProject: byProject
          .map((r) => ({ project: projects.find((p) => p.id === r.projectId)?.name ?? r.projectId, trajectories: r.n }))
          .sort((a, b) => a.project.localeCompare(b.project)),
      };
    })();
  } finally {
    db.close();
  }
}
