// `bridge dedupe`: near-duplicate trajectories of an export (same instruction, same actions, same screens up to
// a few bits of perceptual hash), grouped with one keeper each; and the filtered export `--drop-duplicates`
// hands to the row commands.
import { createReadStream, createWriteStream } from "node:fs";
import { copyFile, mkdtemp, symlink } from "node:fs/promises";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import sharp from "sharp";
import {
  actionToken,
  DEFAULT_MAX_SCREEN_DISTANCE,
  dHashOf,
  groupNearDuplicates,
  hashHex,
  normaliseInstruction,
  type DuplicateGroup,
  type GroupingStats,
  type TrajectorySignature,
} from "@/lib/domain/near-duplicates";
import { fieldsWrittenByPeople } from "@/lib/domain/provenance";
import { openExport, readTrajectories, resolveScreenshot, type ExportDir } from "./export-reader";
import { RunLog, writeJson, type BridgeIo } from "./output";

/**
 * 64-bit difference hash (dHash) of an image (dHashOf: shrunk to 9x8, aspect ignored, then grey), one bit per
 * horizontally adjacent pair, set when the left pixel is brighter. Re-encoding, rescaling and small edits
 * move few bits; different screens differ in about half. Bit 0 is the top-left pair. The studio stores the
 * same hash per screenshot (made at import).
 */
export async function dHash(file: string | Buffer): Promise<bigint> {
  return dHashOf(sharp(file));
}

export { hashHex };

/** The signatures of every trajectory of an export; each screenshot is hashed once, however many steps show it. */
export async function exportSignatures(exp: ExportDir, log: RunLog): Promise<TrajectorySignature[]> {
  const cache = new Map<string, Promise<bigint>>();
  const out: TrajectorySignature[] = [];
  for await (const rec of readTrajectories(exp)) {
    if (!rec.ok) {
      log.problem(rec.problem);
      continue;
    }
    const t = rec.trajectory;
    // A trajectory's screenshots are hashed at once: sharp decodes them on its own threads.
    const pending: Promise<bigint | string>[] = [];
    for (const step of t.steps) {
      let h = cache.get(step.screenshot.sha256);
      if (!h) {
        h = resolveScreenshot(exp, step).then((shot) => (shot.ok ? dHash(shot.path) : Promise.reject(new Error(shot.message))));
        cache.set(step.screenshot.sha256, h);
      }
      pending.push(h.catch((e: unknown) => `${(e as Error).message}`));
    }
    const results = await Promise.all(pending);
    const failed = results.findIndex((r) => typeof r === "string");
    if (failed >= 0) {
      log.problem({ line: rec.line, trajectory: rec.key, step: failed, message: results[failed] as string });
      continue;
    }
    const screens = results as bigint[];
    out.push({
      ordinal: rec.ordinal,
      line: rec.line,
      key: rec.key,
      instruction: normaliseInstruction(t.instruction),
      actions: t.steps.map((s) => actionToken(s.toolCall as Parameters<typeof actionToken>[0])),
      screens,
      status: t.status ?? null,
      stepsByPeople: t.steps.filter((s) => fieldsWrittenByPeople(s.provenance ?? {}).length > 0).length,
      reviewedSteps: t.steps.filter((s) => s.verdict !== "unreviewed").length,
    });
    log.progress(`${out.length} trajectories hashed`);
  }
  return out;
}

export type DedupeSummary = {
  command: "dedupe";
  maxDistance: number;
  trajectories: number;
  groups: number;
  /** Trajectories that are not keepers: what --drop-duplicates leaves out. */
  duplicates: number;
  candidatePairs: number;
  verifiedPairs: number;
  problems: number;
  file: string;
};

const describeMember = (s: TrajectorySignature) => ({ trajectory: s.key, line: s.line, status: s.status });

/** The groups file's shape: per group the keeper, the others, and the instruction they share. */
export function groupsJson(groups: DuplicateGroup[]) {
  return groups.map((g) => ({
    instruction: g.keeper.instruction,
    steps: g.keeper.actions.length,
    keeper: describeMember(g.keeper),
    duplicates: g.duplicates.map((d) => ({
      ...describeMember(d),
      screenDistances: d.screens.map((h, i) => {
        let x = BigInt.asUintN(64, h ^ g.keeper.screens[i]!);
        let n = 0;
        for (; x; n++) x &= x - 1n;
        return n;
      }),
    })),
  }));
}

/**
 * Group an export's near-duplicate trajectories and write `<outDir>/duplicates.json` (the groups) and
 * `duplicates.summary.json`. Screens are compared by 64-bit dHash, `maxDistance` bits at most per screen.
 */
export async function dedupeExport(
  exportDir: string,
  opts: { outDir: string; maxDistance?: number },
  io: BridgeIo,
): Promise<{ summary: DedupeSummary; groups: DuplicateGroup[]; stats: GroupingStats }> {
  const exp = await openExport(exportDir);
  const log = new RunLog(io, "bridge dedupe");
  const maxDistance = opts.maxDistance ?? DEFAULT_MAX_SCREEN_DISTANCE;
  const signatures = await exportSignatures(exp, log);
  const { groups, stats } = groupNearDuplicates(signatures, maxDistance);
  const file = path.join(opts.outDir, "duplicates.json");
  await writeJson(file, { maxDistance, groups: groupsJson(groups) });
  const summary: DedupeSummary = {
    command: "dedupe",
    maxDistance,
    trajectories: signatures.length,
    groups: groups.length,
    duplicates: groups.reduce((n, g) => n + g.duplicates.length, 0),
    candidatePairs: stats.candidatePairs,
    verifiedPairs: stats.verifiedPairs,
    problems: log.problems,
    file,
  };
  await writeJson(path.join(opts.outDir, "duplicates.summary.json"), summary);
  return { summary, groups, stats };
}

/**
 * A copy of the export without the near-duplicates (every group's keeper stays), for `--drop-duplicates`:
 * a temporary folder with the manifest, trajectories.jsonl with each dropped line left blank (so line
 * numbers in problems still name the original file's lines) and a link to the original screenshots.
 */
export async function exportWithoutDuplicates(
  exportDir: string,
  io: BridgeIo,
  maxDistance = DEFAULT_MAX_SCREEN_DISTANCE,
): Promise<{ dir: string; dropped: number; groups: number }> {
  const exp = await openExport(exportDir);
  const log = new RunLog(io, "bridge --drop-duplicates");
  const { groups } = groupNearDuplicates(await exportSignatures(exp, log), maxDistance);
  const drop = new Set(groups.flatMap((g) => g.duplicates.map((d) => d.line)));
  const dir = await mkdtemp(path.join(os.tmpdir(), "bridge-dedupe-"));
  await copyFile(path.join(exp.dir, "manifest.json"), path.join(dir, "manifest.json"));
  for (const sub of ["screenshots"]) await symlink(path.join(exp.dir, sub), path.join(dir, sub)).catch(() => undefined);
  const out = createWriteStream(path.join(dir, "trajectories.jsonl"), { encoding: "utf8" });
  let line = 0;
  for await (const text of createInterface({ input: createReadStream(exp.trajectoriesPath, { encoding: "utf8" }), crlfDelay: Infinity })) {
    line += 1;
    if (!out.write(drop.has(line) ? "\n" : `${text}\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  io.stderr.write(`bridge: --drop-duplicates leaves out ${drop.size} trajectories (${groups.length} groups, one keeper each)\n`);
  return { dir, dropped: drop.size, groups: groups.length };
}
