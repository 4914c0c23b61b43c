import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { cohensKappa, emptyConfusion, type Confusion } from "@/lib/domain/model";
import { openExport, readTrajectories } from "./export-reader";
import { RunLog, type BridgeIo } from "./output";

export type JudgeSummary = {
  command: "judge";
  trajectories: number;
  /** trajectories with both a human outcome and a judge verdict */
  pairs: number;
  agree: number;
  kappa: number | null;
  /** rows: human outcome, columns: judge outcome */
  confusion: Confusion;
  unjudged: number;
  problems: number;
  file: string;
};

/**
 * Judge verdicts beside human labels: one `judge.jsonl` row per trajectory of the export
 * ({ id, app, instruction, status, human_outcome, judge_outcome, judge_consistent, judge_reason,
 * judge_model, judge_prompt }; judge fields null when it was never judged), and the agreement
 * (confusion matrix, Cohen's kappa) over the trajectories that have both, to measure a task reward
 * model before training with it.
 */
export async function exportJudge(exportDir: string, outDir: string, io: BridgeIo): Promise<{ summary: JudgeSummary; exitCode: number }> {
  const exp = await openExport(exportDir);
  const log = new RunLog(io, "judge");
  const confusion = emptyConfusion();
  const rows: string[] = [];
  let trajectories = 0;
  let unjudged = 0;
  for await (const rec of readTrajectories(exp)) {
    if (!rec.ok) {
      log.problem(rec.problem);
      continue;
    }
    const t = rec.trajectory;
    trajectories += 1;
    const j = t.judge;
    rows.push(
      JSON.stringify({
        id: rec.key,
        app: t.app,
        instruction: t.instruction,
        status: t.status ?? null,
        human_outcome: t.outcome,
        judge_outcome: j?.outcome ?? null,
        judge_consistent: j?.isConsistent ?? null,
        judge_reason: j?.reason ?? null,
        judge_model: j?.model ?? null,
        judge_prompt: j?.prompt ?? null,
      }),
    );
    if (j && t.outcome) confusion[t.outcome][j.outcome] += 1;
    else unjudged += 1;
  }
  await mkdir(outDir, { recursive: true });
  const file = path.join(outDir, "judge.jsonl");
  await writeFile(file, rows.length ? `${rows.join("\n")}\n` : "");
  const pairs = confusion.success.success + confusion.success.failure + confusion.failure.success + confusion.failure.failure;
  const summary: JudgeSummary = {
    command: "judge",
    trajectories,
    pairs,
    agree: confusion.success.success + confusion.failure.failure,
    kappa: cohensKappa(confusion),
    confusion,
    unjudged,
    problems: log.problems,
    file,
  };
  return { summary, exitCode: log.problems > 0 ? 1 : 0 };
}
