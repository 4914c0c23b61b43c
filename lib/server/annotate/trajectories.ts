import { stepViewSchema, trajectoryViewSchema, type StepView, type TrajectoryView } from "@/lib/domain/views";
import type { Step as StepRow } from "../generated/sqlite/client";
import { Prisma, db as defaultDb, type Db, type Tx, readOriginalColumn } from "../db";
import type { Actor } from "@/lib/domain/permissions";
import { appError, fromStore } from "../errors";
import { readRows } from "../fast";
import { authorize, type Caller } from "../people";
import { visibleTo } from "./trajectory-list";

/** A trajectory `actor` may read (404 when it does not exist, 403 when it is someone else's work). */
export async function getTrajectoryFor({ actor, id }: { actor: Actor; id: string }, prisma: Db = defaultDb()): Promise<TrajectoryView> {
  // The permission check uses the row the view is built from: one query for the trajectory, one for its steps.
  const t = await trajectoryRow(prisma, id);
  if (!t) throw appError("not_found", "error.trajectoryMissing", { id });
  authorize(actor, "trajectory.read", t);
  return trajectoryView(t, await stepRowsOf(prisma, id));
}

/** A trajectory with all its steps, stored JSON parsed through the domain schemas. */
export async function getTrajectory(id: string, prisma: Db | Tx = defaultDb()): Promise<TrajectoryView> {
  const t = await trajectoryRow(prisma, id);
  if (!t) throw appError("not_found", "error.trajectoryMissing", { id });
  return trajectoryView(t, await stepRowsOf(prisma, id));
}

// The editor's reads, in plain SQL that both dialects run as written (quoted identifiers, one
// parameter each): Prisma's `include` costs a query per relation and its query builder several
// times the database's own time on these small lookups (measured with bench/load.ts).
type TrajectorySqlRow = {
  id: string;
  projectName: string;
  app: string;
  instruction: string;
  source: string;
  sourceRef: string | null;
  status: string;
  outcome: string | null;
  originalOutcome: string | null;
  isDiscarded: boolean;
  cutAfter: number | null;
  assigneeId: string | null;
  assigneeEmail: string | null;
  leaseUntil: Date | string | null;
  version: number;
  lane: string | null;
  /** overlap | gold on a person's copy (the read permission hides an untouched copy from reviewers) */
  copyKind: string | null;
  fastLaneAfter: string | null;
};

// The project's name and the assignee's email as scalar subqueries, each one lookup by key: as joins,
// SQLite's planner (no statistics) scans the Project table for the row, 4x the time of the whole query.
async function trajectoryRow(prisma: Db | Tx, id: string): Promise<TrajectorySqlRow | null> {
  const rows = await readRows<TrajectorySqlRow>(
    prisma,
    Prisma.sql`
    SELECT t."id", (SELECT p."name" FROM "Project" p WHERE p."id" = t."projectId") AS "projectName", t."app", t."instruction",
           t."source", t."sourceRef", t."status", t."outcome", t."originalOutcome", t."isDiscarded", t."cutAfter", t."assigneeId",
           (SELECT u."email" FROM "user" u WHERE u."id" = t."assigneeId") AS "assigneeEmail", t."leaseUntil", t."version",
           t."lane", (SELECT p."fastLaneAfter" FROM "Project" p WHERE p."id" = t."projectId") AS "fastLaneAfter", t."copyKind"
    FROM "Trajectory" t
    WHERE t."id" = ${id}`,
  );
  return rows[0] ?? null;
}

type StepSqlRow = StepRow & { shotWidth: number; shotHeight: number };

/** The stored steps of a trajectory, in order, each with its screenshot's size. */
export async function stepRowsOf(prisma: Db | Tx, trajectoryId: string): Promise<(StepRow & { screenshot: ScreenshotSize })[]> {
  const rows = await readRows<StepSqlRow>(
    prisma,
    Prisma.sql`
    SELECT s."id", s."trajectoryId", s."index", s."screenshotSha", s."originalJson", s."thoughtState", s."thoughtNext", s."thoughtPurpose",
           s."thought", s."clearAction", s."toolCallJson", s."boxJson", s."candidateBoxJson", s."verdict", s."version", s."provenanceJson",
           s."updatedAt", sc."width" AS "shotWidth", sc."height" AS "shotHeight"
    FROM "Step" s JOIN "Screenshot" sc ON sc."sha256" = s."screenshotSha"
    WHERE s."trajectoryId" = ${trajectoryId}
    ORDER BY s."index"`,
  );
  return rows.map(withScreenshot);
}

/** One stored step with its screenshot's size and its trajectory's permission facts, in one query; null when missing. */
export async function stepRowWithTrajectory(
  prisma: Db | Tx,
  id: string,
): Promise<(StepRow & { screenshot: ScreenshotSize; trajectory: { id: string; assigneeId: string | null; status: string } }) | null> {
  const rows = await readRows<StepSqlRow & { trajectoryAssigneeId: string | null; trajectoryStatus: string }>(
    prisma,
    Prisma.sql`
    SELECT s."id", s."trajectoryId", s."index", s."screenshotSha", s."originalJson", s."thoughtState", s."thoughtNext", s."thoughtPurpose",
           s."thought", s."clearAction", s."toolCallJson", s."boxJson", s."candidateBoxJson", s."verdict", s."version", s."provenanceJson",
           s."updatedAt", sc."width" AS "shotWidth", sc."height" AS "shotHeight",
           t."assigneeId" AS "trajectoryAssigneeId", t."status" AS "trajectoryStatus"
    FROM "Step" s JOIN "Screenshot" sc ON sc."sha256" = s."screenshotSha" JOIN "Trajectory" t ON t."id" = s."trajectoryId"
    WHERE s."id" = ${id}`,
  );
  const r = rows[0];
  if (!r) return null;
  const { trajectoryAssigneeId, trajectoryStatus, ...step } = r;
  return { ...withScreenshot(step), trajectory: { id: r.trajectoryId, assigneeId: trajectoryAssigneeId, status: trajectoryStatus } };
}

type ScreenshotSize = { sha256: string; width: number; height: number };

function withScreenshot({ shotWidth, shotHeight, ...s }: StepSqlRow): StepRow & { screenshot: ScreenshotSize } {
  return {
    ...s,
    index: Number(s.index),
    version: Number(s.version),
    updatedAt: s.updatedAt instanceof Date ? s.updatedAt : new Date(s.updatedAt),
    screenshot: { sha256: s.screenshotSha, width: Number(shotWidth), height: Number(shotHeight) },
  };
}

/**
 * The view of a trajectory row and its step rows, checked once as a whole by the schema the API
 * answers with (so the route's output check has nothing left to do: see isFromStore).
 */
function trajectoryView(t: TrajectorySqlRow, steps: (StepRow & { screenshot: ScreenshotSize })[]): TrajectoryView {
  return fromStore(
    trajectoryViewSchema,
    {
      id: t.id,
      project: t.projectName,
      app: t.app,
      instruction: t.instruction,
      source: t.source,
      sourceRef: t.sourceRef,
      status: t.status,
      outcome: t.outcome,
      originalOutcome: t.originalOutcome,
      isDiscarded: Boolean(t.isDiscarded),
      cutAfter: t.cutAfter === null ? null : Number(t.cutAfter),
      assigneeId: t.assigneeId,
      assignee: t.assigneeEmail,
      leaseUntil: t.leaseUntil === null ? null : new Date(t.leaseUntil).toISOString(),
      version: Number(t.version),
      lane: t.lane,
      fastLaneAfter: t.fastLaneAfter ?? "cut",
      steps: steps.map(stepRecord),
    },
    `trajectory ${t.id}`,
  );
}

type StepSource = Omit<StepRow, "trajectoryId" | "screenshotSha" | "updatedAt"> & {
  screenshot: { sha256: string; width: number; height: number };
};

/** A stored step row as the view's shape, its stored JSON parsed but not yet checked. */
function stepRecord(s: StepSource): unknown {
  const { original, elements } = readOriginalColumn(s.originalJson);
  return {
    id: s.id,
    index: s.index,
    screenshot: { sha256: s.screenshot.sha256, width: s.screenshot.width, height: s.screenshot.height },
    original,
    thought: { state: s.thoughtState, nextAction: s.thoughtNext, purpose: s.thoughtPurpose, text: s.thought },
    clearAction: s.clearAction,
    toolCall: JSON.parse(s.toolCallJson),
    box: s.boxJson ? JSON.parse(s.boxJson) : null,
    candidateBoxes: JSON.parse(s.candidateBoxJson),
    ...(elements === undefined ? {} : { elements }),
    verdict: s.verdict,
    version: s.version,
    provenance: s.provenanceJson ? JSON.parse(s.provenanceJson) : {},
  };
}

/** A stored step row (with its screenshot) as the view every layer uses; stored JSON is parsed and checked. */
export function stepFromRow(s: StepSource): StepView {
  return fromStore(stepViewSchema, stepRecord(s), `step ${s.id}`);
}

/** A stored screenshot's record, for the image route; annotators only get screenshots of their own work. */
export async function getScreenshot({ actor, sha256 }: { actor: Caller; sha256: string }, prisma: Db = defaultDb()) {
  const s = await prisma.screenshot.findUnique({ where: { sha256 } });
  const scope = visibleTo(actor);
  const isVisible = s && (!scope.assigneeId || (await prisma.step.count({ where: { screenshotSha: sha256, trajectory: scope } })) > 0);
  if (!s || !isVisible) throw appError("not_found", "error.screenshotMissing", { id: sha256 });
  return s;
}
