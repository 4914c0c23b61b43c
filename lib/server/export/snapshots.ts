// Snapshots: frozen evaluation sets (issue 25 item 1) and dataset releases (issue 27 items 1-2), one
// mechanism. A snapshot stores each member trajectory's canonical export JSON as it was, with that
// text's sha256 and the trajectory's annotation version, and a content hash over the members. Storing
// the JSON itself (not only version numbers) is what makes it immutable: the studio keeps no history of
// step contents, so versions alone could not rebuild an older annotation once someone edits it.
import {
  cutAccountSchema,
  cutReleaseInput,
  type CutAccount,
  freezeEvalSetInput,
  type CutReleaseInput,
  type FreezeEvalSetInput,
  type SnapshotItem,
  type SnapshotKind,
} from "@/lib/domain/snapshots";
import { canonicalTrajectorySchema, type CanonicalTrajectory } from "@/lib/domain/trajectory";
import { dialectOf } from "../env";
import { db as defaultDb, urlOfClient, type Db } from "../db";
import { recordAudit, auditActor, authorizeCaller, type Caller } from "../people";
import { appError, fromStore } from "../errors";
import { heldOutSets, setLabel } from "./held-out";
import { nearDuplicateMembership } from "../annotate";
import { contentHash, filterStages, membersOf, type Filter, type Member } from "./snapshot-members";

/** PostgreSQL advisory lock key taken while a snapshot is numbered (migrate.ts holds 727274). */
const SNAPSHOT_NUMBER_LOCK = 727275;
/** Members written per insert (SQLite's bound-parameter limit is far above 6 x this). */
const INSERT_CHUNK = 200;

type SnapshotRow = {
  id: string;
  kind: string;
  name: string;
  number: number;
  heldOut: boolean;
  filtersJson: string;
  contentSha256: string;
  trajectoryCount: number;
  stepCount: number;
  createdByLabel: string;
  createdAt: Date;
};

function snapshotItem(r: SnapshotRow): SnapshotItem {
  const filters = JSON.parse(r.filtersJson) as Record<string, unknown>;
  const leftOut = cutAccountSchema.safeParse(filters.leftOut);
  return {
    id: r.id,
    kind: r.kind as SnapshotKind,
    name: r.name,
    number: r.number,
    heldOut: r.heldOut,
    filters,
    contentSha256: r.contentSha256,
    trajectories: r.trajectoryCount,
    steps: r.stepCount,
    createdBy: r.createdByLabel,
    createdAt: r.createdAt.toISOString(),
    ...(leftOut.success ? { leftOut: leftOut.data } : {}),
  };
}

/** Write a snapshot and its members in one transaction, with its audit row. */
async function writeSnapshot(
  prisma: Db,
  caller: Caller,
  s: { kind: SnapshotKind; name: string; number: (prisma: Db) => Promise<number>; heldOut: boolean; filters: unknown },
  members: Member[],
): Promise<SnapshotItem> {
  const actor = auditActor(caller);
  const url = urlOfClient(prisma);
  const isPostgres = url !== undefined && dialectOf(url) === "postgresql";
  return prisma.$transaction(
    async (tx) => {
      // The number is the last one + 1, read in this transaction. SQLite runs one write transaction at a time
      // (BEGIN IMMEDIATE), but PostgreSQL's read committed lets two cuts read the same last number: this lock,
      // held until commit, makes the next cut wait and read the number this one writes.
      if (isPostgres) await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SNAPSHOT_NUMBER_LOCK})`;
      const number = await s.number(tx as unknown as Db);
      const row = await tx.snapshot.create({
        data: {
          kind: s.kind,
          name: s.name,
          number,
          heldOut: s.heldOut,
          filtersJson: JSON.stringify(s.filters),
          contentSha256: contentHash(members),
          trajectoryCount: members.length,
          stepCount: members.reduce((n, m) => n + m.steps, 0),
          createdById: actor.id,
          createdByLabel: actor.label,
        },
      });
      for (let i = 0; i < members.length; i += INSERT_CHUNK) {
        await tx.snapshotMember.createMany({
          data: members.slice(i, i + INSERT_CHUNK).map((m, j) => ({
            snapshotId: row.id,
            trajectoryId: m.trajectoryId,
            position: i + j,
            version: m.version,
            canonicalJson: m.canonicalJson,
            sha256: m.sha256,
          })),
        });
      }
      await recordAudit(tx, {
        actor,
        action: s.kind === "release" ? "release.cut" : "evalset.freeze",
        entityType: "snapshot",
        entityId: row.id,
        after: {
          kind: s.kind,
          name: s.name,
          number,
          heldOut: s.heldOut,
          filters: s.filters,
          trajectories: members.length,
          contentSha256: row.contentSha256,
        },
      });
      return snapshotItem(row);
    },
    { timeout: 120_000 },
  );
}

/**
 * Freeze an evaluation set: the filter's work (approved by default) or exactly the listed ids, as
 * version n+1 of `name`. The set keeps each trajectory's canonical JSON as it is now, so later edits do
 * not change it; freezing the name again ("refreeze") makes the next version. A new version is held out
 * when asked, or when the name's previous version was.
 */
export async function freezeEvalSet(
  { caller, ...raw }: { caller: Caller } & FreezeEvalSetInput,
  prisma: Db = defaultDb(),
): Promise<SnapshotItem> {
  authorizeCaller(caller, "export.run");
  const input = freezeEvalSetInput.parse(raw);
  const filter: Filter = { status: input.status, apps: input.apps, project: input.project, ids: input.ids };
  const members = await membersOf(prisma, filter, new Set());
  if (input.ids) {
    const found = new Set(members.map((m) => m.trajectoryId));
    const missing = input.ids.find((id) => !found.has(id));
    if (missing !== undefined) {
      const t = await prisma.trajectory.findUnique({ where: { id: missing }, select: { status: true } });
      if (!t) throw appError("not_found", "error.trajectoryMissing", { id: missing });
      throw appError("unprocessable", "error.snapshotWrongStatus", { id: missing, status: t.status, wanted: input.status });
    }
  }
  if (members.length === 0) throw appError("unprocessable", "error.snapshotEmpty", { name: input.name });
  const previous = await prisma.snapshot.findFirst({ where: { kind: "eval-set", name: input.name }, orderBy: { number: "desc" } });
  return writeSnapshot(
    prisma,
    caller,
    {
      kind: "eval-set",
      name: input.name,
      number: async (tx) =>
        ((await tx.snapshot.findFirst({ where: { kind: "eval-set", name: input.name }, orderBy: { number: "desc" } }))?.number ?? 0) + 1,
      heldOut: input.heldOut || (previous?.heldOut ?? false),
      filters: { status: input.status, apps: input.apps, project: input.project ?? null, ids: input.ids ?? null },
    },
    members,
  );
}

/**
 * Cut a release: the filter's work as it is now, numbered after the last release (1, 2, ...). Trajectories
 * of held-out evaluation sets are left out unless `includeHeldOut` (then their lines are marked held out,
 * and the bridge's training commands refuse them).
 */
export async function cutRelease(
  { caller, ...raw }: { caller: Caller } & CutReleaseInput,
  prisma: Db = defaultDb(),
): Promise<SnapshotItem> {
  authorizeCaller(caller, "export.run");
  const input = cutReleaseInput.parse(raw);
  const heldOut = await heldOutSets(prisma);
  const exclude = input.includeHeldOut ? new Set<string>() : new Set(heldOut.keys());
  const filter: Filter = { status: input.status, apps: input.apps, lanes: input.lanes, project: input.project };
  const heldOutHere = new Set<string>();
  const matching = await membersOf(prisma, filter, exclude, heldOut, (id) => heldOutHere.add(id));
  // Grouped among the matching work only: a keeper the filter leaves out must not take its re-runs with it.
  const dropped = input.dropNearDuplicates
    ? [...(await nearDuplicateMembership(prisma, { among: new Set(matching.map((m) => m.trajectoryId)) }))].filter(([, m]) => !m.isKeeper)
    : [];
  const droppedIds = new Set(dropped.map(([id]) => id));
  const members = droppedIds.size ? matching.filter((m) => !droppedIds.has(m.trajectoryId)) : matching;
  const stages = await filterStages(prisma, filter);
  const leftOut: CutAccount = {
    before: stages.project,
    after: members.length,
    status: stages.project - stages.status,
    app: stages.status - stages.app,
    lane: stages.app - stages.lane,
    heldOut: heldOutHere.size,
    heldOutSets: [...new Set([...heldOutHere].flatMap((id) => heldOut.get(id) ?? []))].sort(),
    nearDuplicate: droppedIds.size,
  };
  if (members.length === 0) throw emptyCut(input.name, leftOut);
  return writeSnapshot(
    prisma,
    caller,
    {
      kind: "release",
      name: input.name,
      number: async (tx) => ((await tx.snapshot.findFirst({ where: { kind: "release" }, orderBy: { number: "desc" } }))?.number ?? 0) + 1,
      heldOut: false,
      filters: {
        status: input.status,
        apps: input.apps,
        lanes: input.lanes,
        project: input.project ?? null,
        includeHeldOut: input.includeHeldOut,
        heldOutLeftOut: input.includeHeldOut ? 0 : [...exclude].length,
        dropNearDuplicates: input.dropNearDuplicates,
        nearDuplicatesLeftOut: droppedIds.size,
        leftOut,
        ...(input.license ? { license: input.license } : {}),
      },
    },
    members,
  );
}

/** The refusal of a cut that takes nothing: how many trajectories were in scope, and what left each out. */
function emptyCut(name: string, a: CutAccount) {
  return appError("unprocessable", "error.releaseEmpty", {
    name,
    before: a.before,
    status: a.status,
    app: a.app,
    lane: a.lane,
    heldOut: a.heldOut,
    sets: a.heldOutSets.length ? a.heldOutSets.join(", ") : "—",
    nearDuplicate: a.nearDuplicate,
  });
}

/** Evaluation sets or releases, newest first. */
export async function listSnapshots(
  { caller, kind }: { caller: Caller; kind: SnapshotKind },
  prisma: Db = defaultDb(),
): Promise<SnapshotItem[]> {
  authorizeCaller(caller, "export.run");
  const rows = await prisma.snapshot.findMany({ where: { kind }, orderBy: [{ createdAt: "desc" }, { number: "desc" }] });
  return rows.map(snapshotItem);
}

/** One evaluation set version (the latest when `version` is absent), or throws naming it. */
export async function findEvalSet(prisma: Db, name: string, version?: number) {
  const row = await prisma.snapshot.findFirst({
    where: { kind: "eval-set", name, ...(version ? { number: version } : {}) },
    orderBy: { number: "desc" },
  });
  if (!row) throw appError("not_found", "error.evalSetMissing", { name: version ? setLabel(name, version) : name });
  return row;
}

/** One release by number, or throws naming it. */
export async function findRelease(prisma: Db, number: number) {
  const row = await prisma.snapshot.findFirst({ where: { kind: "release", number } });
  if (!row) throw appError("not_found", "error.releaseMissing", { n: number });
  return row;
}

/** A snapshot with its members (id, version, hash, app, instruction, steps), in member order. */
export async function showSnapshot(
  { caller, id }: { caller: Caller; id: string },
  prisma: Db = defaultDb(),
): Promise<{
  snapshot: SnapshotItem;
  members: { trajectoryId: string; version: number; sha256: string; app: string; instruction: string; steps: number }[];
}> {
  authorizeCaller(caller, "export.run");
  const row = await prisma.snapshot.findUnique({ where: { id } });
  if (!row) throw appError("not_found", "error.snapshotMissing", { id });
  const members = await prisma.snapshotMember.findMany({ where: { snapshotId: id }, orderBy: { position: "asc" } });
  return {
    snapshot: snapshotItem(row),
    members: members.map((m) => {
      const t = recordOf(m.canonicalJson, m.trajectoryId);
      return {
        trajectoryId: m.trajectoryId,
        version: m.version,
        sha256: m.sha256,
        app: t.app,
        instruction: t.instruction,
        steps: t.steps.length,
      };
    }),
  };
}

/** Mark an evaluation set version held out of training exports, or not (the one thing about a set that changes). */
export async function setHeldOut(
  { caller, id, heldOut }: { caller: Caller; id: string; heldOut: boolean },
  prisma: Db = defaultDb(),
): Promise<SnapshotItem> {
  authorizeCaller(caller, "export.run");
  return prisma.$transaction(async (tx) => {
    const row = await tx.snapshot.findUnique({ where: { id } });
    if (!row || row.kind !== "eval-set") throw appError("not_found", "error.snapshotMissing", { id });
    const updated = await tx.snapshot.update({ where: { id }, data: { heldOut } });
    await recordAudit(tx, {
      actor: auditActor(caller),
      action: "evalset.heldout",
      entityType: "snapshot",
      entityId: id,
      before: { heldOut: row.heldOut },
      after: { heldOut },
    });
    return snapshotItem(updated);
  });
}

/** A stored member's canonical JSON, parsed (a damaged row is an error naming it). */
export function recordOf(json: string, trajectoryId: string): CanonicalTrajectory {
  return fromStore(canonicalTrajectorySchema, JSON.parse(json), `snapshot member ${trajectoryId}`);
}
