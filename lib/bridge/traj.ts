import path from "node:path";
import type { Box } from "@/lib/domain/geometry";
import type { ToolCall } from "@/lib/domain/tool-call";
import { openExport, readTrajectories, resolveScreenshot, type BridgeProblem } from "./export-reader";
import { exitCodeFor, JsonlOutput, RunLog, writeJson, type BridgeIo } from "./output";
import type { Annotation } from "./rewards";
import { annotationOf } from "./samples";

export const TRAJ_TARGETS = ["ui-s1"] as const;
export type TrajTarget = (typeof TRAJ_TARGETS)[number];
export const UI_S1_DATASET = "ui_s1_trajectories";

/** One step of a UI-S1 trajectory (FORMATS.md §2.1). All coordinates in ORIGINAL screenshot pixels. */
export type UiS1Step = {
  action_content: ToolCall & { bbox?: Box };
  /** Absolute path. */
  screenshot: string;
  thought: string;
  action_description: string;
  annotation: Annotation;
  check_options: ToolCall & { candidate_bbox: Box[] };
};

export type UiS1Trajectory = {
  goal: string;
  is_successful: boolean;
  episode_id: string;
  app: string;
  steps: UiS1Step[];
};

export type TrajSummary = {
  command: "traj";
  target: TrajTarget;
  trajectories: number;
  written: number;
  discardedTrajectories: number;
  steps: number;
  cutSteps: number;
  /** Written trajectories whose outcome was never set (exported as is_successful: false). */
  withoutOutcome: number;
  problems: number;
  file: string;
};

function uniqueBoxes(boxes: Box[]): Box[] {
  const seen = new Set<string>();
  return boxes.filter((b) => {
    const k = b.join(",");
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Write the UI-S1 trajectory JSONL: one line per kept trajectory with its steps up to the cut,
 * coordinates and boxes in original pixels, screenshots as absolute paths, per-step annotation
 * (GOOD/HARMFUL/NEUTRAL) and check_options with candidate_bbox (target box first). A trajectory
 * with any unusable step is reported step by step and not written, since UI-S1 replays whole trajectories.
 */
export async function exportTraj(
  exportDir: string,
  opts: { target: TrajTarget; outDir: string; allowProblems: boolean },
  io: BridgeIo,
): Promise<{ summary: TrajSummary; exitCode: number }> {
  const exp = await openExport(exportDir);
  const log = new RunLog(io, `bridge traj (${opts.target})`);
  const out = await JsonlOutput.create(path.join(opts.outDir, `${UI_S1_DATASET}.jsonl`));
  const s = { trajectories: 0, discarded: 0, steps: 0, cutSteps: 0, withoutOutcome: 0 };
  for await (const record of readTrajectories(exp)) {
    if (!record.ok) {
      log.problem(record.problem);
      continue;
    }
    s.trajectories += 1;
    const t = record.trajectory;
    if (t.isDiscarded) {
      s.discarded += 1;
      continue;
    }
    const kept = t.cutAfter === null ? t.steps : t.steps.slice(0, t.cutAfter + 1);
    s.cutSteps += t.steps.length - kept.length;
    const steps: UiS1Step[] = [];
    const problems: BridgeProblem[] = [];
    for (const step of kept) {
      const image = await resolveScreenshot(exp, step);
      if (!image.ok) {
        problems.push({ line: record.line, trajectory: record.key, step: step.index, message: image.message });
        continue;
      }
      const candidates = uniqueBoxes(step.box ? [step.box, ...step.candidateBoxes] : step.candidateBoxes);
      steps.push({
        action_content: step.box ? { ...step.toolCall, bbox: step.box } : step.toolCall,
        screenshot: image.path,
        thought: step.thought.text,
        action_description: step.clearAction,
        annotation: annotationOf(step.verdict),
        check_options: { ...step.toolCall, candidate_bbox: candidates },
      });
    }
    if (problems.length > 0) {
      problems.forEach((p) => log.problem(p));
      continue;
    }
    if (t.outcome === null) s.withoutOutcome += 1;
    const row: UiS1Trajectory = { goal: t.instruction, is_successful: t.outcome === "success", episode_id: record.key, app: t.app, steps };
    await out.write(row);
    s.steps += steps.length;
    log.progress(`${s.trajectories} trajectories, ${out.rows} written, ${log.problems} problems`);
  }
  const exitCode = exitCodeFor(log.problems, opts.allowProblems);
  const file = await out.close(exitCode === 0);
  const summary: TrajSummary = {
    command: "traj",
    target: opts.target,
    trajectories: s.trajectories,
    written: out.rows,
    discardedTrajectories: s.discarded,
    steps: s.steps,
    cutSteps: s.cutSteps,
    withoutOutcome: s.withoutOutcome,
    problems: log.problems,
    file,
  };
  await writeJson(path.join(opts.outDir, `${UI_S1_DATASET}.summary.json`), { ...summary, firstProblems: log.sample });
  log.progress(`${s.trajectories} trajectories, ${out.rows} written, ${log.problems} problems`, true);
  return { summary, exitCode };
}
