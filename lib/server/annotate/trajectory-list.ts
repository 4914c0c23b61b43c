// What a caller sees of the trajectories: which ones (visibility), their counts (the dashboard, `studio
// stats`) and the list page (filters, sorts, paging) in plain SQL.
import type { ListTally, ListTrajectoriesInput, TrajectorySort, StudioStats, TrajectoryRow } from "@/lib/domain/views";
import { Prisma, db as defaultDb, urlOf, type Db } from "../db";
import { TASK_STATUSES, type TaskStatus } from "@/lib/domain/status";
import { dialectOf } from "../env";
import { studioNearDuplicates } from "./near-duplicates";
import { appError } from "../errors";
import { readRows } from "../fast";
import { isPerson, type Caller } from "../people";

/**
 * The trajectories a caller may see: annotators only those assigned to them, everyone else (and
 * the command line) all.
 */
export function visibleTo(caller: Caller): { assigneeId?: string } {
  return isPerson(caller) && caller.role === "annotator" ? { assigneeId: caller.id } : {};
}

/**
 * What the list and the counts show a caller: an annotator their own work, copies included (an overlap
 * or gold copy is their task like any other, and a gold task must not stand out); everyone else the
 * trajectories themselves, never people's copies of them (copyOfId set: lib/server/annotate/overlap.ts and gold.ts),
 * which the original stands for with its copy count and gold mark.
 */
export function listedTo(caller: Caller): { assigneeId: string } | { copyOfId: null } {
  const visible = visibleTo(caller);
  return visible.assigneeId ? { assigneeId: visible.assigneeId } : { copyOfId: null };
}

/** Counts for the dashboard and `studio stats`, over what `actor` may see. */
export async function getStats({ actor }: { actor: Caller }, prisma: Db = defaultDb()): Promise<StudioStats> {
  const where = listedTo(actor);
  const [agg, byStatus, byApp, byProject, projects, screenshots] = await Promise.all([
    prisma.trajectory.aggregate({ where, _count: { _all: true }, _sum: { stepCount: true } }),
    prisma.trajectory.groupBy({ by: ["status"], where, _count: { _all: true } }),
    prisma.trajectory.groupBy({ by: ["app"], where, _count: { _all: true }, _sum: { stepCount: true }, orderBy: { app: "asc" } }),
    // Read from the (projectId, status) index; the few project names are joined below.
    prisma.trajectory.groupBy({ by: ["projectId"], where, _count: { _all: true } }),
    prisma.project.findMany({ select: { id: true, name: true } }),
    "assigneeId" in where
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
    byProject: byProject
      .map((r) => ({ project: projects.find((p) => p.id === r.projectId)?.name ?? r.projectId, trajectories: r._count._all }))
      .sort((a, b) => a.project.localeCompare(b.project)),
  };
}

/**
 * The ORDER BY of each sort: the column, then the id (so equal values page stably). Each has an
 * index (column, id) that yields rows in this order, so a page is read straight off the index
 * (migrations 20261122213436_list_sort_indexes). Missing values (outcome, assignee) sort as the
 * smallest on both dialects: first ascending, last descending (on PostgreSQL, whose indexes keep
 * NULLs last, the outcome's order is therefore sorted per request). The assignee's order (by email,
 * which lives in the people table) is read in two ordered parts instead: see listSql.
 */
type OneIndexSort = Exclude<TrajectorySort, "assignee">;
const SORT_COLUMNS: Record<OneIndexSort | "created", Prisma.Sql> = {
  app: Prisma.raw('t."app"'),
  instruction: Prisma.raw('t."instruction"'),
  steps: Prisma.raw('t."stepCount"'),
  status: Prisma.raw('t."status"'),
  outcome: Prisma.raw('t."outcome"'),
  source: Prisma.raw('t."source"'),
  created: Prisma.raw('t."createdAt"'),
};
const NULLABLE = new Set<string>(["outcome"]);

function orderBy(sort: OneIndexSort | undefined, dir: "asc" | "desc" = "asc"): Prisma.Sql {
  const key = sort ?? "created";
  const d = Prisma.raw(sort ? dir.toUpperCase() : "ASC");
  const nulls = NULLABLE.has(key) ? Prisma.raw(dir === "asc" ? " NULLS FIRST" : " NULLS LAST") : Prisma.empty;
  return Prisma.sql`ORDER BY ${SORT_COLUMNS[key]} ${d}${nulls}, t."id" ${d}`;
}

type TallyRow = { status: string; app: string; n: number | bigint; steps: number | bigint | null };

/** The list's tiles from its rows grouped by status and app: trajectories, steps, apps and each status. */
function tallyOf(rows: TallyRow[]): ListTally {
  const byStatus = Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>;
  let trajectories = 0;
  let steps = 0;
  for (const r of rows) {
    trajectories += Number(r.n);
    steps += Number(r.steps ?? 0);
    if (r.status in byStatus) byStatus[r.status as TaskStatus] += Number(r.n);
  }
  return { trajectories, steps, apps: new Set(rows.map((r) => r.app)).size, byStatus };
}

/** `text` as a LIKE pattern matching it anywhere, its own %, _ and backslash taken literally. */
const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type ListSqlRow = {
  id: string;
  project: string;
  app: string;
  instruction: string;
  status: string;
  outcome: string | null;
  stepCount: number | bigint;
  source: string;
  sourceRef: string | null;
  updatedAt: Date | string;
  assignee: string | null;
  overlap: number | bigint;
  isGold: boolean | number;
  copyOfId: string | null;
  copyKind: string | null;
};

type ListSqlInput = Omit<ListTrajectoriesInput, "pageSize" | "page" | "assignee" | "project"> & {
  /** Only this project's work (`project=<name>`, resolved to the project's id first). */
  projectId?: string;
  page?: number;
  pageSize?: number;
  /** Only unassigned work (`assignee=none`). */
  pool?: boolean;
  /** Only this person's work (`assignee=<email>`, resolved to the person's id first). */
  assigneeId?: string;
  /**
   * Only these trajectories (`duplicates=only`: the near-duplicate groups' members), as one JSON array
   * parameter however many there are (a list of bound parameters would hit SQLite's limit), in `dialect`'s SQL.
   */
  onlyIds?: { json: string; dialect: "sqlite" | "postgresql" };
};

// The project's name as a scalar subquery: one lookup by key per row of the page, not a join the planner could start from.
const LIST_COLUMNS = Prisma.raw(
  `t."id", (SELECT p."name" FROM "Project" p WHERE p."id" = t."projectId") AS "project", t."app", t."instruction", t."status", t."outcome", t."stepCount", t."source", t."sourceRef", t."updatedAt", t."overlap", t."isGold", t."copyOfId", t."copyKind"`,
);

/**
 * Originals only, for reviewers and admins (see listedTo): the NULL test written as a comparison with
 * true. Plain `t."copyOfId" IS NULL` is an equality SQLite's planner (which has no statistics) would read
 * off the copyOfId index, as if it matched a few rows, and then sort the whole list per request; compared
 * with true it is a filter on the rows the sort's index yields. PostgreSQL folds `x = true` back to `x`,
 * so its planner still prices the NULL test from its statistics. Both run it as written.
 */
const ORIGINALS_ONLY = Prisma.sql`(t."copyOfId" IS NULL) = (1 = 1)`;

/**
 * Which rows a reviewer or admin is shown under the copies filters (an annotator's list is their own work,
 * copies included and unmarked: see listedTo). An admin sees every copy; a reviewer a copy only once its
 * person has started it (in progress) or handed it in, never one still waiting untouched.
 */
function copiesCondition(caller: Caller, copies: "only" | "all" | undefined, copyOf: string | undefined): Prisma.Sql {
  if (copies === undefined && copyOf === undefined) return ORIGINALS_ONLY;
  const isAdmin = !isPerson(caller) || caller.role === "admin";
  const started = isAdmin ? Prisma.empty : Prisma.sql` AND t."status" <> 'new'`;
  if (copyOf !== undefined) return Prisma.sql`(t."copyOfId" = ${copyOf}${started})`;
  if (copies === "only") return Prisma.sql`(t."copyOfId" IS NOT NULL${started})`;
  return isAdmin ? Prisma.sql`(1 = 1)` : Prisma.sql`(t."copyOfId" IS NULL OR t."status" <> 'new')`;
}

/**
 * The list's queries for what `caller` may see with these filters, sort and page: the count, and the
 * page. Every sort but the assignee's reads one index `(column, id)`, or `(filter, column, id)` under a
 * status, app or person filter. The assignee sort orders by the person's email, which lives in another
 * table, so it is read in two ordered parts instead of sorting the whole list per request: the
 * unassigned work (missing values sort first, as everywhere) by id, and the assigned work person by
 * person in email order (the people table's email index, then each person's `(assigneeId, ..., id)`).
 */
export function listSql(caller: Caller, input: ListSqlInput) {
  const page = input.page ?? 1;
  const pageSize = input.pageSize ?? 50;
  const listed = listedTo(caller);
  const conditions: Prisma.Sql[] = [
    "assigneeId" in listed ? Prisma.sql`t."assigneeId" = ${listed.assigneeId}` : copiesCondition(caller, input.copies, input.copyOf),
    ...(input.projectId ? [Prisma.sql`t."projectId" = ${input.projectId}`] : []),
    ...(input.app ? [Prisma.sql`t."app" = ${input.app}`] : []),
    ...(input.status ? [Prisma.sql`t."status" = ${input.status}`] : []),
    ...(input.q ? [Prisma.sql`LOWER(t."instruction") LIKE ${containsPattern(input.q)} ESCAPE '\\'`] : []),
    ...(input.pool ? [Prisma.sql`t."assigneeId" IS NULL`] : []),
    ...(input.assigneeId ? [Prisma.sql`t."assigneeId" = ${input.assigneeId}`] : []),
    ...(input.onlyIds
      ? [
          input.onlyIds.dialect === "sqlite"
            ? Prisma.sql`t."id" IN (SELECT value FROM json_each(${input.onlyIds.json}))`
            : Prisma.sql`t."id" IN (SELECT jsonb_array_elements_text(${input.onlyIds.json}::jsonb))`,
        ]
      : []),
  ];
  const whereWith = (...extra: Prisma.Sql[]) =>
    conditions.length + extra.length ? Prisma.sql`WHERE ${Prisma.join([...conditions, ...extra], " AND ")}` : Prisma.empty;
  const where = whereWith();
  const count = Prisma.sql`SELECT COUNT(*) AS "n" FROM "Trajectory" t ${where}`;
  // The tiles above the list: the same rows as the count, by status and app (a few dozen groups at most).
  const tally = Prisma.sql`SELECT t."status" AS "status", t."app" AS "app", COUNT(*) AS "n", SUM(t."stepCount") AS "steps"
    FROM "Trajectory" t ${where} GROUP BY t."status", t."app"`;
  if (input.sort !== "assignee") {
    return {
      kind: "one-index" as const,
      count,
      tally,
      page: Prisma.sql`
        SELECT ${LIST_COLUMNS}, u."email" AS "assignee"
        FROM "Trajectory" t LEFT JOIN "user" u ON u."id" = t."assigneeId"
        ${where}
        ${orderBy(input.sort, input.dir)}
        LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    };
  }
  const d = Prisma.raw(input.dir === "desc" ? "DESC" : "ASC");
  const unassigned = whereWith(Prisma.sql`t."assigneeId" IS NULL`);
  return {
    kind: "by-assignee" as const,
    count,
    tally,
    unassignedCount: Prisma.sql`SELECT COUNT(*) AS "n" FROM "Trajectory" t ${unassigned}`,
    unassigned: (offset: number, limit: number) =>
      Prisma.sql`SELECT ${LIST_COLUMNS}, NULL AS "assignee" FROM "Trajectory" t ${unassigned} ORDER BY t."id" ${d} LIMIT ${limit} OFFSET ${offset}`,
    // CROSS JOIN: SQLite keeps the people (in email order) as the outer loop; PostgreSQL plans it as any join.
    assigned: (offset: number, limit: number) =>
      Prisma.sql`SELECT ${LIST_COLUMNS}, u."email" AS "assignee" FROM "user" u CROSS JOIN "Trajectory" t ${whereWith(Prisma.sql`t."assigneeId" = u."id"`)}
        ORDER BY u."email" ${d}, t."id" ${d} LIMIT ${limit} OFFSET ${offset}`,
  };
}

/**
 * One page of the trajectories `actor` may see, filtered by app, status, instruction text and
 * assignee, sorted by any column. Filters narrow what is visible and never widen it: visibility
 * and filters are joined with AND, so no filter value can stand in for the visibility rule. An
 * annotator asking for the pool (`assignee=none`) or someone else's work is refused (403) rather
 * than shown an empty page, and so is an annotator asking for copies (which of their tasks are copies,
 * a gold one above all, is not theirs to know). Two queries (the count, the page) in plain SQL both dialects run as
 * written; the instruction filter matches case-insensitively on both.
 */
export async function listTrajectories({ actor, ...input }: { actor: Caller } & ListTrajectoriesInput, prisma: Db = defaultDb()) {
  const assignee = input.assignee?.trim().toLowerCase();
  if (isPerson(actor) && actor.role === "annotator" && assignee && assignee !== actor.email.toLowerCase()) {
    throw appError("forbidden", "error.assigneeFilter", { filter: assignee === "none" ? "none" : "other" });
  }
  if (isPerson(actor) && actor.role === "annotator" && (input.copies !== undefined || input.copyOf !== undefined)) {
    throw appError("forbidden", "error.copiesFilter");
  }
  const { assignee: _filter, project: projectName, ...rest } = input;
  const empty = { total: 0, page: input.page, pageSize: input.pageSize, rows: [], tally: tallyOf([]) };
  let projectId: string | undefined;
  if (projectName) {
    const found = await readRows<{ id: string }>(prisma, Prisma.sql`SELECT "id" FROM "Project" WHERE "name" = ${projectName}`);
    if (!found[0]) return empty;
    projectId = found[0].id;
  }
  let assigneeId: string | undefined;
  if (assignee && assignee !== "none") {
    const found = await readRows<{ id: string }>(prisma, Prisma.sql`SELECT "id" FROM "user" WHERE "email" = ${assignee}`);
    if (!found[0]) return empty;
    assigneeId = found[0].id;
  }
  // Near-duplicate groups: from the stored screenshot hashes, kept in memory while the studio's stamp (counts and
  // last changes of trajectories and steps) stays the same, since a verdict or a status change can move a keeper.
  const { duplicates, ...filters } = rest;
  const groups = duplicates === "only" ? await studioNearDuplicates(prisma) : undefined;
  if (groups && groups.size === 0) return empty;
  const onlyIds = groups ? { json: JSON.stringify([...groups.keys()]), dialect: dialectOf(urlOf(prisma)) } : undefined;
  const sql = listSql(actor, { ...filters, pool: assignee === "none", assigneeId, projectId, onlyIds });
  const tallied = readRows<TallyRow>(prisma, sql.tally);
  let counted: { n: number | bigint }[];
  let rows: ListSqlRow[];
  if (sql.kind === "one-index") {
    [counted, rows] = await Promise.all([readRows<{ n: number | bigint }>(prisma, sql.count), readRows<ListSqlRow>(prisma, sql.page)]);
  } else {
    // The assignee sort: ascending, the unassigned come first; descending, last.
    const [all, none] = await Promise.all([
      readRows<{ n: number | bigint }>(prisma, sql.count),
      readRows<{ n: number | bigint }>(prisma, sql.unassignedCount),
    ]);
    counted = all;
    const nNone = Number(none[0]?.n ?? 0);
    const parts = input.dir === "desc" ? [sql.assigned, sql.unassigned] : [sql.unassigned, sql.assigned];
    const firstSize = input.dir === "desc" ? Number(all[0]?.n ?? 0) - nNone : nNone;
    const offset = (input.page - 1) * input.pageSize;
    rows = offset < firstSize ? await readRows<ListSqlRow>(prisma, parts[0]!(offset, input.pageSize)) : [];
    if (rows.length < input.pageSize) {
      rows.push(...(await readRows<ListSqlRow>(prisma, parts[1]!(Math.max(0, offset - firstSize), input.pageSize - rows.length))));
    }
  }
  return {
    total: Number(counted[0]?.n ?? 0),
    page: input.page,
    pageSize: input.pageSize,
    tally: tallyOf(await tallied),
    rows: rows.map((r): TrajectoryRow => ({
      id: r.id,
      project: r.project,
      app: r.app,
      instruction: r.instruction,
      status: r.status as TrajectoryRow["status"],
      outcome: r.outcome as TrajectoryRow["outcome"],
      stepCount: Number(r.stepCount),
      source: r.source,
      sourceRef: r.sourceRef,
      assignee: r.assignee,
      updatedAt: new Date(r.updatedAt).toISOString(),
      copies: Number(r.overlap),
      isGold: Boolean(r.isGold),
      // An annotator's copies are their work like any other: no mark says which are copies.
      copyOf:
        r.copyOfId !== null && r.copyKind !== null && !(isPerson(actor) && actor.role === "annotator")
          ? { id: r.copyOfId, kind: r.copyKind === "gold" ? "gold" : "overlap" }
          : null,
      ...(groups?.has(r.id) ? { nearDuplicate: groups.get(r.id)! } : {}),
    })),
  };
}
