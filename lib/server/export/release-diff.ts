// What changed between two releases (issue 27 item 2), field by field, with who changed each field
// between the two cuts according to the audit trail.
import type { FieldChange, ReleaseDiff } from "@/lib/domain/snapshots";
import type { CanonicalTrajectory } from "@/lib/domain/trajectory";
import { db as defaultDb, type Db } from "../db";
import { authorizeCaller, type Caller } from "../people";
import { findRelease, recordOf } from "./snapshots";
import { PAGE } from "./snapshot-members";

/** Trajectory fields a diff reports (the rest are identity or bookkeeping: provenance.updatedAt moves on any touch). */
const TRAJECTORY_FIELDS = [
  "app",
  "instruction",
  "systemPrompt",
  "status",
  "outcome",
  "isDiscarded",
  "cutAfter",
  "judge",
  "heldOut",
] as const;
/** Step fields a diff reports, flattened, each with the audit row's key for the same field (lib/domain/review auditedStep). */
const STEP_FIELDS: { field: string; audit: string | null; of: (s: CanonicalTrajectory["steps"][number]) => unknown }[] = [
  { field: "thought.state", audit: "thoughtState", of: (s) => s.thought.state },
  { field: "thought.nextAction", audit: "thoughtNext", of: (s) => s.thought.nextAction },
  { field: "thought.purpose", audit: "thoughtPurpose", of: (s) => s.thought.purpose },
  { field: "thought.text", audit: "thought", of: (s) => s.thought.text },
  { field: "clearAction", audit: "clearAction", of: (s) => s.clearAction },
  { field: "toolCall", audit: "toolCall", of: (s) => s.toolCall },
  { field: "box", audit: "box", of: (s) => s.box },
  { field: "verdict", audit: "verdict", of: (s) => s.verdict },
  { field: "candidateBoxes", audit: null, of: (s) => s.candidateBoxes },
  { field: "screenshot", audit: null, of: (s) => s.screenshot.sha256 },
];

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * What changed between two releases: trajectories added, removed, and changed per field (step index +
 * field, before/after), each change with the people and times the audit trail records for that field
 * between the two cuts. A trajectory whose line differs only in bookkeeping (its updatedAt) is unchanged.
 */
export async function diffReleases(
  { caller, from, to }: { caller: Caller; from: number; to: number },
  prisma: Db = defaultDb(),
): Promise<ReleaseDiff> {
  authorizeCaller(caller, "export.run");
  const [a, b] = [await findRelease(prisma, from), await findRelease(prisma, to)];
  const slim = { trajectoryId: true, version: true, sha256: true, position: true } as const;
  const [am, bm] = await Promise.all([
    prisma.snapshotMember.findMany({ where: { snapshotId: a.id }, select: slim, orderBy: { position: "asc" } }),
    prisma.snapshotMember.findMany({ where: { snapshotId: b.id }, select: slim, orderBy: { position: "asc" } }),
  ]);
  const inA = new Map(am.map((m) => [m.trajectoryId, m]));
  const inB = new Map(bm.map((m) => [m.trajectoryId, m]));
  const load = async (snapshotId: string, ids: string[]) => {
    const out = new Map<string, CanonicalTrajectory>();
    for (let i = 0; i < ids.length; i += PAGE) {
      const rows = await prisma.snapshotMember.findMany({
        where: { snapshotId, trajectoryId: { in: ids.slice(i, i + PAGE) } },
        select: { trajectoryId: true, canonicalJson: true },
      });
      for (const r of rows) out.set(r.trajectoryId, recordOf(r.canonicalJson, r.trajectoryId));
    }
    return out;
  };
  const addedIds = bm.filter((m) => !inA.has(m.trajectoryId)).map((m) => m.trajectoryId);
  const removedIds = am.filter((m) => !inB.has(m.trajectoryId)).map((m) => m.trajectoryId);
  const differing = bm.filter((m) => inA.has(m.trajectoryId) && inA.get(m.trajectoryId)!.sha256 !== m.sha256).map((m) => m.trajectoryId);
  const [before, after] = await Promise.all([load(a.id, [...removedIds, ...differing]), load(b.id, [...addedIds, ...differing])]);
  const brief = (t: CanonicalTrajectory, id: string) => ({ id, app: t.app, instruction: t.instruction });
  const window = { gt: a.createdAt, lte: b.createdAt };
  const changed: ReleaseDiff["changed"] = [];
  for (const id of differing) {
    const x = before.get(id)!;
    const y = after.get(id)!;
    const fields: FieldChange[] = [];
    const trajectoryAudit = await authorsOf(prisma, "trajectory", [id], window);
    for (const f of TRAJECTORY_FIELDS) {
      if (!same(x[f], y[f]))
        fields.push({ step: null, field: f, before: x[f] ?? null, after: y[f] ?? null, changedBy: trajectoryAudit(f) });
    }
    const n = Math.max(x.steps.length, y.steps.length);
    const stepIds = await prisma.step.findMany({ where: { trajectoryId: id }, select: { id: true, index: true } });
    const stepAudit = await authorsOf(
      prisma,
      "step",
      stepIds.map((s) => s.id),
      window,
    );
    const idOfIndex = new Map(stepIds.map((s) => [s.index, s.id]));
    for (let i = 0; i < n; i++) {
      const sx = x.steps[i];
      const sy = y.steps[i];
      if (!sx || !sy) {
        fields.push({ step: i, field: "step", before: sx ? "present" : null, after: sy ? "present" : null, changedBy: [] });
        continue;
      }
      for (const f of STEP_FIELDS) {
        const [vx, vy] = [f.of(sx), f.of(sy)];
        if (same(vx, vy)) continue;
        const stepId = idOfIndex.get(i);
        fields.push({
          step: i,
          field: f.field,
          before: vx ?? null,
          after: vy ?? null,
          changedBy: f.audit && stepId ? stepAudit(f.audit, stepId) : [],
        });
      }
    }
    if (fields.length > 0) changed.push({ ...brief(y, id), fromVersion: inA.get(id)!.version, toVersion: inB.get(id)!.version, fields });
  }
  return {
    from,
    to,
    added: addedIds.map((id) => brief(after.get(id)!, id)),
    removed: removedIds.map((id) => brief(before.get(id)!, id)),
    changed,
    unchanged: bm.length - addedIds.length - changed.length,
  };
}

/**
 * The audit trail's authors of each field of these entities in a time window: a function from
 * (audit field key, entity id) to who and when, oldest first. Only rows whose before/after name the field count.
 */
async function authorsOf(prisma: Db, entityType: string, ids: string[], at: { gt: Date; lte: Date }) {
  const rows = ids.length
    ? await prisma.auditEvent.findMany({
        where: { entityType, entityId: { in: ids }, at },
        orderBy: [{ at: "asc" }, { id: "asc" }],
        select: { entityId: true, actorLabel: true, at: true, beforeJson: true, afterJson: true },
      })
    : [];
  const parsed = rows.map((r) => ({
    entityId: r.entityId,
    by: r.actorLabel,
    at: r.at.toISOString(),
    keys: new Set([...Object.keys(parseObject(r.beforeJson)), ...Object.keys(parseObject(r.afterJson))]),
  }));
  return (field: string, entityId: string = ids[0]!) =>
    parsed.filter((r) => r.entityId === entityId && r.keys.has(field)).map((r) => ({ by: r.by, at: r.at }));
}

function parseObject(json: string | null): Record<string, unknown> {
  if (!json) return {};
  const v = JSON.parse(json) as unknown;
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
