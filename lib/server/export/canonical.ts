// The canonical export line (lib/domain/trajectory.ts), shaped in one place for exports and for
// snapshots (evaluation sets, releases), and the stable page order both read trajectories in.
import { z } from "zod";
import { CANONICAL_FORMAT, laneSchema, type CanonicalTrajectory } from "@/lib/domain/trajectory";
import { taskStatusSchema } from "@/lib/domain/status";
import type { Db } from "../db";
import { fromStore } from "../errors";
import { stepFromRow } from "../annotate";
import { screenshotExt } from "../object-store";
import type { ExportStepRow } from "./read";
import type { Trajectory } from "../generated/sqlite/client";

/** The trajectory row the canonical record is made from (with its project's name). */
export type CanonicalSource = Pick<
  Trajectory,
  | "id"
  | "app"
  | "instruction"
  | "source"
  | "sourceRef"
  | "systemPrompt"
  | "status"
  | "outcome"
  | "originalOutcome"
  | "isDiscarded"
  | "cutAfter"
  | "lane"
  | "metaJson"
  | "fingerprint"
  | "batchId"
  | "createdAt"
  | "updatedAt"
> & { project: { name: string } };

/**
 * A trajectory's canonical export line without its steps (the caller adds them in order): the one place
 * that shapes it, for exports and for snapshots (evaluation sets, releases). `heldOut` names the held-out
 * evaluation sets holding it ("name v2"), absent when none.
 */
export function canonicalHead(
  t: CanonicalSource,
  judge: CanonicalTrajectory["judge"] | undefined,
  split: string | undefined,
  heldOut: readonly string[] | undefined,
): CanonicalTrajectory {
  return {
    format: CANONICAL_FORMAT,
    id: t.id,
    project: t.project.name,
    app: t.app,
    instruction: t.instruction,
    source: t.source as CanonicalTrajectory["source"],
    sourceRef: t.sourceRef,
    systemPrompt: t.systemPrompt,
    status: fromStore(taskStatusSchema, t.status, `status of trajectory ${t.id}`),
    outcome: t.outcome as CanonicalTrajectory["outcome"],
    originalOutcome: t.originalOutcome as CanonicalTrajectory["originalOutcome"],
    isDiscarded: t.isDiscarded,
    cutAfter: t.cutAfter,
    lane: fromStore(laneSchema.nullable(), t.lane, `lane of trajectory ${t.id}`),
    ...(split ? { split } : {}),
    steps: [],
    ...metaOf(t.metaJson, t.id),
    provenance: {
      fingerprint: t.fingerprint,
      importBatch: t.batchId,
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
    },
    ...(judge ? { judge } : {}),
    ...(heldOut && heldOut.length > 0 ? { heldOut: [...heldOut] } : {}),
  };
}

export type TrajectoryWhere = NonNullable<NonNullable<Parameters<Db["trajectory"]["findMany"]>[0]>["where"]>;

/**
 * The trajectories `where` selects, with their project's name, a page at a time in a stable order:
 * keyset paging on (fingerprint, id), as the same data in two projects shares a fingerprint.
 */
export async function* trajectoryPages(prisma: Db, where: TrajectoryWhere, size: number) {
  let cursor: { fingerprint: string; id: string } | undefined;
  for (;;) {
    const after = cursor
      ? { OR: [{ fingerprint: { gt: cursor.fingerprint } }, { fingerprint: cursor.fingerprint, id: { gt: cursor.id } }] }
      : {};
    const page = await prisma.trajectory.findMany({
      // Overlap and gold copies are people's work on a trajectory, not training data of their own.
      where: { AND: [where, after, { copyOfId: null }] },
      orderBy: [{ fingerprint: "asc" }, { id: "asc" }],
      take: size,
      include: { project: { select: { name: true } } },
    });
    if (page.length === 0) return;
    const last = page[page.length - 1]!;
    cursor = { fingerprint: last.fingerprint, id: last.id };
    yield page;
  }
}

/** One page of trajectoryPages: trajectory rows with their project's name. */
export type TrajectoryPage = typeof trajectoryPages extends (...args: never[]) => AsyncGenerator<infer P> ? P : never;

/** A stored step as its canonical line's step (screenshot file under screenshots/, named by content). */
export function canonicalStep(s: ExportStepRow): CanonicalTrajectory["steps"][number] {
  const { id: _id, screenshot, ...view } = stepFromRow(s);
  return { ...view, screenshot: { ...screenshot, file: `screenshots/${s.screenshotSha}${screenshotExt(s.screenshot.mime)}` } };
}

/** A trajectory's stored meta for the canonical line (absent when empty: trajectories made here have none). */
function metaOf(json: string, id: string): { meta?: Record<string, unknown> } {
  const meta = fromStore(metaSchema, JSON.parse(json), `meta of trajectory ${id}`);
  return Object.keys(meta).length > 0 ? { meta } : {};
}
const metaSchema = z.record(z.string(), z.unknown());

/**
 * The image name a source row gave a step (Mobile-R1 `image`), when it is a safe bare file name to
 * write into mobile-r1/images/: no folder, not hidden, no character a file system refuses.
 */
export function sourceImageName(row: Record<string, unknown> | undefined): string | undefined {
  const name = row?.image;
  if (typeof name !== "string" || name.length === 0 || Buffer.byteLength(name) > 200) return undefined;
  // eslint-disable-next-line no-control-regex
  return /^[^./\\\u0000-\u001f:*?"<>|][^/\\\u0000-\u001f:*?"<>|]*$/.test(name) ? name : undefined;
}
