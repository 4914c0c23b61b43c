// What an export counts as it writes (its summary, and the manifest's breakdowns) and the manifest
// those counts end in.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { EXPORT_FORMAT, type ExportManifest } from "@/lib/domain/export-manifest";
import { QWEN_MIN_PIXELS } from "@/lib/domain/geometry";
import { emptyHints, measureTrajectorySpaces, SUGGESTED_MAX_PIXELS, usesAnswer, type TrainerHints } from "@/lib/domain/trainer-hints";
import { isTrainingTarget, type CanonicalTrajectory, type Lane } from "@/lib/domain/trajectory";
import { FILES_PLACEHOLDER } from "./files";
import type { SplitSpec } from "./split";

export type ExportSummary = {
  outDir: string;
  trajectories: number;
  steps: number;
  trainingSteps: number;
  harmfulSteps: number;
  screenshots: number;
  bySplit: Record<string, number>;
  /** Longest SFT sample at SUGGESTED_MAX_PIXELS, for the trainer settings the export page prints. */
  trainer: TrainerHints;
};

/** What an export counts as it goes, for its summary and its manifest. */
export type Tally = {
  summary: ExportSummary;
  byApp: Record<string, number>;
  /** Trajectories by the lane of their last hand-in (lib/domain/lane.ts); "none": never handed in. */
  byLane: Record<Lane | "none", number>;
  heldOut: { trajectories: number; steps: number; sets: Set<string> };
  /** Measured both ways: the bridge's prompts declare `answer` for the whole export if any trajectory answers. */
  withAnswer: TrainerHints;
  anyAnswer: boolean;
};

/** Nothing counted yet, for an export into `outDir`. */
export function newTally(outDir: string): Tally {
  return {
    summary: {
      outDir,
      trajectories: 0,
      steps: 0,
      trainingSteps: 0,
      harmfulSteps: 0,
      screenshots: 0,
      bySplit: {},
      trainer: emptyHints(SUGGESTED_MAX_PIXELS, QWEN_MIN_PIXELS),
    },
    byApp: {},
    byLane: { full: 0, fast: 0, "fast-then-full": 0, none: 0 },
    heldOut: { trajectories: 0, steps: 0, sets: new Set<string>() },
    withAnswer: emptyHints(SUGGESTED_MAX_PIXELS, QWEN_MIN_PIXELS),
    anyAnswer: false,
  };
}

/** A written trajectory in the summary's and the manifest's counts. */
export function countTrajectory(tally: Tally, record: CanonicalTrajectory, app: string, split: string | undefined): void {
  const { summary, heldOut } = tally;
  summary.trajectories += 1;
  summary.steps += record.steps.length;
  if (record.heldOut) {
    heldOut.trajectories += 1;
    heldOut.steps += record.steps.length;
    for (const label of record.heldOut) heldOut.sets.add(label);
  }
  summary.trainingSteps += record.steps.filter((s) => isTrainingTarget(record, s)).length;
  summary.harmfulSteps += record.steps.filter((s) => s.verdict === "harmful").length;
  [summary.trainer, tally.withAnswer] = measureTrajectorySpaces([summary.trainer, tally.withAnswer], record, ["mobile-use", "ui-s1"]);
  tally.anyAnswer ||= usesAnswer(record);
  tally.byApp[app] = (tally.byApp[app] ?? 0) + 1;
  tally.byLane[record.lane ?? "none"] += 1;
  if (split) summary.bySplit[split] = (summary.bySplit[split] ?? 0) + 1;
}

/** manifest.json's content, its file list still to be streamed in where `files` holds FILES_PLACEHOLDER. */
export async function manifestOf(
  tally: Tally,
  status: string,
  opts: { apps?: string[]; project?: string; split?: SplitSpec },
): Promise<Omit<ExportManifest, "files"> & { files: typeof FILES_PLACEHOLDER }> {
  const { summary, byApp, byLane, heldOut } = tally;
  const pkg = JSON.parse(await readFile(path.join(process.cwd(), "package.json"), "utf8")) as { version: string };
  return {
    format: EXPORT_FORMAT,
    createdAt: new Date().toISOString(),
    studioVersion: pkg.version,
    coordinateFrame: "original screenshot pixels" as const,
    filters: { status, apps: opts.apps ?? [], project: opts.project ?? null },
    split: opts.split ?? { kind: "none" },
    counts: {
      trajectories: summary.trajectories,
      steps: summary.steps,
      trainingSteps: summary.trainingSteps,
      harmfulSteps: summary.harmfulSteps,
      screenshots: summary.screenshots,
      byApp: Object.fromEntries(Object.entries(byApp).sort(([a], [b]) => a.localeCompare(b))),
      bySplit: summary.bySplit,
      byLane,
    },
    /** Measured at the max_pixels the export page proposes; the bridge measures again at its own. */
    trainer: summary.trainer,
    ...(heldOut.trajectories > 0
      ? {
          heldOut: {
            trajectories: heldOut.trajectories,
            steps: heldOut.steps,
            sets: [...heldOut.sets].sort(),
          },
        }
      : {}),
    files: FILES_PLACEHOLDER,
  };
}
