import type { Db, Tx } from "../db";

/** How a set version is named in exports, manifests and refusals: "name v2". */
export function setLabel(name: string, version: number): string {
  return `${name} v${version}`;
}

/**
 * The held-out evaluation sets holding each trajectory (trajectory id -> set labels, sorted): every
 * version of a set marked held-out counts, whatever the trajectory's current annotation version, since
 * the task itself is what must stay out of training.
 */
export async function heldOutSets(prisma: Db | Tx): Promise<Map<string, string[]>> {
  const rows = await prisma.snapshotMember.findMany({
    where: { snapshot: { kind: "eval-set", heldOut: true } },
    select: { trajectoryId: true, snapshot: { select: { name: true, number: true } } },
  });
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const labels = out.get(r.trajectoryId) ?? [];
    labels.push(setLabel(r.snapshot.name, r.snapshot.number));
    out.set(r.trajectoryId, labels);
  }
  for (const labels of out.values()) labels.sort();
  return out;
}
