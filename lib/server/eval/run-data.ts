import { actionSpaceOf, evalFiguresSchema, evalRunViewSchema, type EvalFrame, type EvalRunView } from "@/lib/domain/eval";
import type { CoordinateConvention } from "@/lib/domain/geometry";
import type { CanonicalTrajectory } from "@/lib/domain/trajectory";
import type { Db } from "../db";
import { recordOf } from "../export";
import { readStoredError } from "../errors";

// An evaluation run's row as read by the use cases (index.ts) and the runner (runner.ts): its view, its set's
// members and the frame its answers are in.

/** Members read per query. */
const PAGE = 100;

export type RunRow = Awaited<ReturnType<Db["evalRun"]["findFirstOrThrow"]>>;

export async function view(prisma: Db, row: RunRow): Promise<EvalRunView> {
  const done = await prisma.evalStep.count({ where: { runId: row.id } });
  return evalRunViewSchema.parse({
    id: row.id,
    set: { id: row.snapshotId, name: row.setName, version: row.setVersion },
    endpoint: { id: row.endpointId, name: row.endpointName, model: row.model, coords: row.coords },
    rule: row.rule,
    maxPixels: row.maxPixels,
    state: row.state,
    progress: { done, total: row.progressTotal, failedCalls: row.failedCalls },
    tokens: { prompt: row.promptTokens, completion: row.completionTokens },
    error: readStoredError(row.error).error,
    figures: row.figuresJson ? evalFiguresSchema.parse(JSON.parse(row.figuresJson)) : null,
    createdBy: row.createdByLabel,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  });
}

/** Read a set's members in order, a page at a time. */
export async function* membersOf(prisma: Db, snapshotId: string): AsyncGenerator<{ position: number; trajectory: CanonicalTrajectory }> {
  for (let position = 0; ; position += PAGE) {
    const page = await prisma.snapshotMember.findMany({
      where: { snapshotId, position: { gte: position, lt: position + PAGE } },
      orderBy: { position: "asc" },
    });
    if (page.length === 0) return;
    for (const m of page) yield { position: m.position, trajectory: { ...recordOf(m.canonicalJson, m.trajectoryId), id: m.trajectoryId } };
  }
}

export async function frameOf(prisma: Db, row: Pick<RunRow, "snapshotId" | "maxPixels" | "coords">): Promise<EvalFrame> {
  const all: CanonicalTrajectory[] = [];
  for await (const m of membersOf(prisma, row.snapshotId)) all.push(m.trajectory);
  return { maxPixels: row.maxPixels, coords: row.coords as CoordinateConvention, actionSpace: actionSpaceOf(all) };
}
