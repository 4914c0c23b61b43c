// The members of a snapshot (lib/server/export/snapshots.ts): each trajectory's canonical export JSON
// as it is now, with its sha256 and annotation version, and the content hash over them.
import { createHash } from "node:crypto";
import { exportedStatuses } from "@/lib/domain/exports";
import { withProcessLabels } from "@/lib/domain/process-label";
import type { Db } from "../db";
import { canonicalHead, canonicalStep, trajectoryPages } from "./dataset";
import { openStepReader } from "./read";
import { latestJudgeVerdicts } from "../model";

export const PAGE = 100;

export type Member = { trajectoryId: string; version: number; canonicalJson: string; sha256: string; steps: number };
export type Filter = { status: "approved" | "submitted" | "all"; apps: string[]; lanes?: string[]; project?: string; ids?: string[] };

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The canonical JSON of every trajectory the filter takes, in the export's order (fingerprint, then id),
 * read as the export reads it. `exclude` leaves trajectories out; `heldOut` marks lines as an export does.
 */
export async function membersOf(
  prisma: Db,
  f: Filter,
  exclude: ReadonlySet<string>,
  heldOut?: Map<string, string[]>,
  onExcluded?: (trajectoryId: string) => void,
): Promise<Member[]> {
  const where = { ...filterWhere(f, "lane"), ...(f.ids ? { id: { in: f.ids } } : {}) };
  const out: Member[] = [];
  const reader = await openStepReader(prisma);
  try {
    for await (const page of trajectoryPages(prisma, where, PAGE)) {
      const ids = page.map((t) => t.id);
      const judged = await latestJudgeVerdicts(prisma, ids);
      const steps = await reader.stepsOf(ids);
      for (const t of page) {
        if (exclude.has(t.id)) {
          onExcluded?.(t.id);
          continue;
        }
        const record = canonicalHead(t, judged.get(t.id), undefined, heldOut?.get(t.id));
        for (const s of steps.get(t.id) ?? []) record.steps.push(canonicalStep(s));
        const canonicalJson = JSON.stringify(withProcessLabels(record));
        out.push({ trajectoryId: t.id, version: t.version, canonicalJson, sha256: sha256(canonicalJson), steps: record.steps.length });
      }
    }
  } finally {
    await reader.close();
  }
  return out;
}

/** The filters applied in order: project (the scope), then status, app and lane, up to `upTo` (included). */
const FILTER_ORDER = ["project", "status", "app", "lane"] as const;

/** The trajectory `where` of a filter's fields up to `upTo`, in FILTER_ORDER (project alone is the cut's scope). */
export function filterWhere(f: Filter, upTo: (typeof FILTER_ORDER)[number]) {
  const on = new Set(FILTER_ORDER.slice(0, FILTER_ORDER.indexOf(upTo) + 1));
  const statuses = f.status === "all" ? undefined : [...exportedStatuses(f.status)];
  return {
    ...(on.has("status") && statuses ? { status: { in: statuses } } : {}),
    ...(on.has("app") && f.apps.length ? { app: { in: f.apps } } : {}),
    ...(on.has("lane") && f.lanes?.length ? { lane: { in: f.lanes } } : {}),
    ...(f.project ? { project: { name: f.project } } : {}),
  };
}

/** How many trajectories (overlap copies aside, as trajectoryPages reads them) each stage of a filter keeps. */
export async function filterStages(prisma: Db, f: Filter): Promise<Record<(typeof FILTER_ORDER)[number], number>> {
  const count = (upTo: (typeof FILTER_ORDER)[number]) => prisma.trajectory.count({ where: { ...filterWhere(f, upTo), copyOfId: null } });
  const [project, status, app, lane] = await Promise.all(FILTER_ORDER.map(count));
  return { project: project!, status: status!, app: app!, lane: lane! };
}

/** sha256 over the members' ids, versions and JSON hashes, in member order: equal hashes, equal contents. */
export function contentHash(members: readonly Pick<Member, "trajectoryId" | "version" | "sha256">[]): string {
  const h = createHash("sha256");
  for (const m of members) h.update(`${m.trajectoryId}\t${m.version}\t${m.sha256}\n`);
  return h.digest("hex");
}
