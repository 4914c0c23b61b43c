// End to end: a UI-S1 trajectory with GOOD / HARMFUL / NEUTRAL annotations imported into a real temporary
// database, reviewed by a person (one step's call corrected), submitted, exported, and run through the
// trainer bridge's preference, process-label and critic commands. The labels reach every row, UI-S1's
// annotations map one to one, and only the corrected step gives a preference pair.
import { readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { annotationOf } from "@/lib/domain/annotation";
import { runBridge } from "@/lib/bridge/cli";
import { captureIo } from "@/lib/bridge/test-fixtures";
import { CLI_ACTOR } from "../people/audit";
import { exportDataset } from "./dataset";
import { importFile } from "../import";
import { saveStepAnnotation, saveTrajectoryAnnotation, submitTrajectory } from "../annotate";
import { createUser } from "../people";
import { getTrajectory } from "../annotate/trajectories";
import { listTrajectories } from "../annotate/trajectory-list";
import { blankPng, freshStudio } from "../testing/fixtures";

const STEPS = [
  {
    action: { action: "open", text: "Gmail" },
    thought: "The home screen. Open Gmail. To write mail.",
    what: "Open Gmail",
    annotation: "GOOD",
  },
  {
    action: { action: "click", coordinate: [100, 2200], bbox: [40, 2140, 160, 2260] },
    thought: "Gmail is open. Tap Meet. To see calls.",
    what: "Tap Meet",
    annotation: "HARMFUL",
  },
  {
    action: { action: "system_button", button: "Back" },
    thought: "Meet opened. Go back. To return.",
    what: "Go back",
    annotation: "NEUTRAL",
  },
  {
    action: { action: "click", coordinate: [200, 300], bbox: [150, 250, 250, 350] },
    thought: "The inbox. Tap compose. To write.",
    what: "Tap the menu",
    annotation: "GOOD",
  },
] as const;

async function importReviewExport() {
  const { db } = await freshStudio();
  const dir = await mkdtemp(path.join(os.tmpdir(), "ui-s1-pairs-"));
  const steps = [];
  for (const [i, s] of STEPS.entries()) {
    const file = path.join(dir, `s${i}.png`);
    await writeFile(file, await blankPng(1080, 2400, `#${(20 + i * 40).toString(16).padStart(2, "0")}8080`));
    steps.push({ action_content: s.action, screenshot: file, thought: s.thought, action_description: s.what, annotation: s.annotation });
  }
  await writeFile(
    path.join(dir, "t.jsonl"),
    `${JSON.stringify({ goal: "Write a mail in Gmail", is_successful: true, episode_id: "ep-1", steps })}\n`,
  );
  const imported = await importFile({ file: path.join(dir, "t.jsonl"), format: "ui-s1", db });
  expect(imported.ok, JSON.stringify(imported)).toBe(true);
  const id = (await listTrajectories({ page: 1, pageSize: 10, actor: CLI_ACTOR }, db)).rows[0]!.id;

  const { person } = await createUser({ actor: CLI_ACTOR, email: "lead@example.com", role: "admin" }, db);
  const admin = { id: person.id, email: person.email, name: "Lead", role: "admin" as const };
  let t = await getTrajectory(id, db);
  expect(t.steps.map((s) => s.verdict)).toEqual(["unreviewed", "harmful", "neutral", "unreviewed"]);
  // A person confirms step 1 and corrects step 4's tap (the compose button is bottom right).
  const s0 = t.steps[0]!;
  await saveStepAnnotation({ actor: admin, stepId: s0.id, ...annotationOf(s0), verdict: "good", version: s0.version }, db);
  const s3 = t.steps[3]!;
  await saveStepAnnotation(
    {
      actor: admin,
      stepId: s3.id,
      ...annotationOf(s3),
      clearAction: "Tap the compose button",
      toolCall: { action: "click", coordinate: [900, 2100] },
      box: [820, 2020, 980, 2180],
      verdict: "corrected",
      version: s3.version,
    },
    db,
  );
  t = await getTrajectory(id, db);
  await saveTrajectoryAnnotation({ actor: admin, id, outcome: "success", isDiscarded: false, cutAfter: null, version: t.version }, db);
  await submitTrajectory({ actor: admin, id }, db);
  const exportDir = path.join(await mkdtemp(path.join(os.tmpdir(), "ui-s1-pairs-export-")), "export");
  await exportDataset({ outDir: exportDir, status: "submitted", db });
  return exportDir;
}

async function bridge(args: string[]) {
  const io = captureIo();
  const out = await mkdtemp(path.join(os.tmpdir(), `bridge-${args[0]}-`));
  const code = await runBridge([args[0]!, args[1]!, "--out", out, ...args.slice(2)], io);
  expect(io.err()).not.toContain("problem:");
  expect(code).toBe(0);
  const lines = (file: string) =>
    readFileSync(path.join(out, file), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { out, io, lines };
}

describe("a reviewed UI-S1 trajectory through the trainer bridge's pair, label and critic commands", () => {
  it("labels each step as UI-S1 annotated it, names the first error, pairs only the corrected step", async () => {
    const exportDir = await importReviewExport();

    // traj: UI-S1's annotations come back one to one; the corrected step is GOOD as a target, -1 as the model's step.
    const traj = (await bridge(["traj", exportDir, "--target", "ui-s1"])).lines("ui_s1_trajectories.jsonl")[0]!;
    const trajSteps = traj.steps as { annotation: string; process_label: number }[];
    expect(trajSteps.map((s) => s.annotation)).toEqual(["GOOD", "HARMFUL", "NEUTRAL", "GOOD"]);
    expect(trajSteps.map((s) => s.process_label)).toEqual([1, -1, 0, -1]);
    expect(traj.first_error).toBe(2);

    const prm = (await bridge(["prm", exportDir])).lines("mobile_use_prm.jsonl");
    expect(prm.map((r) => [r.process_label, r.annotation, r.first_error])).toEqual([
      [1, "GOOD", 2],
      [-1, "HARMFUL", 2],
      [0, "NEUTRAL", 2],
      [-1, "HARMFUL", 2],
    ]);
    // The model's own tap (200, 300) at 1080x2400 is (202, 301) in the 1092x2408 frame.
    expect(prm[3]!.model_action).toBe('{"action": "click", "coordinate": [202, 301]}');

    const grpo = (await bridge(["grpo", exportDir, "--target", "ms-swift"])).lines("mobile_use_grpo.jsonl");
    expect(grpo.map((r) => [r.annotation, r.process_label, r.first_error])).toEqual([
      ["GOOD", 1, 2],
      ["HARMFUL", -1, 2],
      ["NEUTRAL", 0, 2],
      ["GOOD", -1, 2],
    ]);

    for (const target of ["ms-swift", "llamafactory"]) {
      const dpo = await bridge(["dpo", exportDir, "--target", target]);
      const index = dpo.lines("mobile_use_dpo.steps.jsonl");
      expect(index.map((p) => [p.step, p.changed])).toEqual([[3, ["clearAction", "toolCall"]]]);
      const [row] = dpo.lines("mobile_use_dpo.jsonl");
      const rejected = target === "ms-swift" ? (row!.rejected_response as string) : (row!.rejected as { value: string }).value;
      expect(rejected).toContain("<action>\nTap the menu\n</action>");
      expect(rejected).toContain('"coordinate": [202, 301]');
    }

    const critic = await bridge(["critic", exportDir, "--balance", "1:1", "--seed", "3"]);
    const summary = JSON.parse(critic.io.out()) as {
      positives: number;
      negatives: number;
      candidates: { positives: number; negatives: number };
    };
    // Candidates: steps 1 and 3 right (2), the model's harmful tap and wrong tap (2 negatives), the correction (1 positive).
    expect(summary.candidates).toEqual({ positives: 3, negatives: 2 });
    expect([summary.positives, summary.negatives]).toEqual([2, 2]);
  });
});
