import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runBridge } from "./cli";
import { REWARD_PLUGIN_NAME } from "./reward-plugin";
import type { ScoreSummary } from "./score";
import type { StatsSummary } from "./stats";
import {
  captureIo,
  EN_SCREENSHOT,
  loadShot,
  makeStep,
  makeTrajectory,
  readJsonl,
  standardExport,
  tempDir,
  writeExport,
} from "./test-fixtures";

describe("bridge traj --target ui-s1", () => {
  it("writes kept trajectories up to the cut with original pixels, annotations and candidate boxes", async () => {
    const { dir } = await standardExport();
    const out = await tempDir();
    expect(await runBridge(["traj", dir, "--out", out, "--target", "ui-s1"], captureIo())).toBe(0);
    const rows = z
      .array(
        z.object({
          goal: z.string(),
          is_successful: z.boolean(),
          episode_id: z.string(),
          steps: z.array(
            z.object({
              action_content: z.record(z.string(), z.unknown()),
              screenshot: z.string(),
              thought: z.string(),
              action_description: z.string(),
              annotation: z.enum(["GOOD", "HARMFUL", "NEUTRAL"]),
              check_options: z.record(z.string(), z.unknown()),
            }),
          ),
        }),
      )
      .parse(await readJsonl(path.join(out, "ui_s1_trajectories.jsonl")));
    expect(rows.map((r) => [r.episode_id, r.steps.length])).toEqual([
      ["traj-en", 5],
      ["traj-zh", 1],
    ]);
    const en = rows[0]!;
    expect(en.is_successful).toBe(true);
    expect(en.steps.map((s) => s.annotation)).toEqual(["GOOD", "GOOD", "HARMFUL", "NEUTRAL", "GOOD"]);
    expect(en.steps[1]!.action_content).toEqual({ action: "click", coordinate: [925, 405], bbox: [850, 350, 1000, 460] });
    expect(en.steps[1]!.check_options).toEqual({
      action: "click",
      coordinate: [925, 405],
      candidate_bbox: [
        [850, 350, 1000, 460],
        [0, 300, 1080, 500],
      ],
    });
    expect(en.steps[1]!.action_description).toBe("Do step 1");
    expect(en.steps[0]!.screenshot).toMatch(/^images\/[0-9a-f]{64}\.png$/);
    expect(existsSync(path.join(out, en.steps[0]!.screenshot))).toBe(true);
  });
});

/** The Mobile-R1 response a perfect model would give for a call already in the resized frame. */
const answer = (call: object) =>
  `<think>\nt\n</think>\n<action>\na\n</action>\n<tool_call>\n${JSON.stringify({ name: "mobile_use", arguments: call })}\n</tool_call>`;

describe("bridge score", () => {
  async function score(predictions: object[], extra: string[] = []) {
    const { dir } = await standardExport();
    const file = path.join(await tempDir(), "predictions.jsonl");
    await writeFile(file, predictions.map((p) => JSON.stringify(p)).join("\n"));
    const io = captureIo();
    const code = await runBridge(["score", dir, "--predictions", file, "--json", ...extra], io);
    return { code, io, summary: JSON.parse(io.out()) as ScoreSummary };
  }
  // traj-en at 1092x2408; the harmful swipe (step 2) is avoided by answering Back.
  const perfectEn = [
    { trajectory: "traj-en", step: 0, response: answer({ action: "open", text: "File Manager" }) },
    { trajectory: "traj-en", step: 1, response: answer({ action: "click", coordinate: [935, 406] }) },
    { trajectory: "traj-en", step: 2, response: answer({ action: "system_button", button: "Back" }) },
    { trajectory: "traj-en", step: 3, response: answer({ action: "system_button", button: "Back" }) },
    { trajectory: "traj-en", step: 4, response: answer({ action: "terminate", status: "success" }) },
  ];

  it("gives full accuracy and SOP success for perfect predictions (trajectory by id or by position)", async () => {
    const { code, summary } = await score(
      [...perfectEn, { trajectory: 1, step: 0, response: answer({ action: "click", coordinate: [639, 1095] }) }],
      ["--rule", "mobile-r1"],
    );
    expect(code).toBe(0);
    expect(summary.scoredSteps).toBe(6);
    expect(summary.accuracy).toMatchObject({ steps: 5, typeAccuracy: 1, stepAccuracy: 1, groundingSteps: 2, groundingAccuracy: 1 });
    expect(summary.harmful).toEqual({ steps: 1, repeated: 0 });
    expect(summary.sop).toEqual({ definition: "studio", trajectories: 2, successRate: 100, progress: 1, incomplete: 0 });
    // Mobile-R1: 5 steps at format 1 + action 1, the neutral Back at 1 + 0.5; harmful avoided counts 1 + 1.
    expect(summary.rewards["mobile-r1"].score).toBeCloseTo((5 * 2 + 1.5) / 6, 9);
  });

  it("stops SOP progress at the first wrong step", async () => {
    const wrong = perfectEn.map((p) => (p.step === 1 ? { ...p, response: answer({ action: "click", coordinate: [10, 10] }) } : p));
    const { summary } = await score(wrong, ["--rule", "studio-lenient"]);
    // Training-target steps of traj-en: 0, 1, 3, 4. Step 1 is wrong, so 1 of 4 matched in a row.
    // traj-zh has no prediction for its first step, so it is left out (and counted).
    expect(summary.sop).toEqual({ definition: "studio", trajectories: 1, successRate: 0, progress: 0.25, incomplete: 1 });
    expect(summary.accuracy.groundingAccuracy).toBe(0);
    expect(summary.perAction.click).toMatchObject({ steps: 1, typeAccuracy: 1, stepAccuracy: 0 });
  });

  it("reports predictions that match no kept step and exits 1 unless problems are allowed", async () => {
    const preds = [...perfectEn, { trajectory: "traj-zh", step: 2, response: "x" }, { trajectory: "nope", step: 0, response: "x" }];
    const failed = await score(preds, ["--rule", "ui-s1"]);
    expect(failed.code).toBe(1);
    expect(failed.summary.problems).toBe(2);
    expect(failed.io.err()).toContain("predictions.jsonl:6 trajectory traj-zh step 2: matches no kept step");
    expect(failed.io.err()).toContain("trajectory nope step 0");
    expect((await score(preds, ["--rule", "ui-s1", "--allow-problems"])).code).toBe(0);
  });

  it("prints a readable report without --json", async () => {
    const { dir } = await standardExport();
    const file = path.join(await tempDir(), "p.jsonl");
    await writeFile(file, perfectEn.map((p) => JSON.stringify(p)).join("\n"));
    const io = captureIo();
    expect(await runBridge(["score", dir, "--predictions", file, "--rule", "ui-s1"], io)).toBe(0);
    expect(io.out()).toContain("SOP (UI-S1 eval_qwenvl.py) over 1 trajectories: success rate 0.0%");
  });
});

describe("problems are reported, never dropped silently", () => {
  async function brokenExport() {
    const en = await loadShot(EN_SCREENSHOT, 1080, 2400);
    const missing = { ...en, sha256: "f".repeat(64), file: `screenshots/${"f".repeat(64)}.png` };
    return writeExport(
      [
        makeTrajectory([makeStep(0, en, { action: "click", coordinate: [500, 500] }), makeStep(1, missing, { action: "wait", time: 1 })], {
          id: "t-missing-shot",
        }),
        makeTrajectory([makeStep(0, en, { action: "click", coordinate: [5000, 10] }), makeStep(1, en, { action: "wait", time: 1 })], {
          id: "t-off-screen",
        }),
        makeTrajectory([makeStep(0, en, { action: "click", coordinate: [1, 1] }, { thought: "  " })], { id: "t-no-thought" }),
        '{"format": "trajectory-studio/v1", "id": "t-invalid", "steps": []}',
        makeTrajectory([makeStep(0, en, { action: "type", text: "a <image> tag" })], { id: "t-image-tag", instruction: "type <image>" }),
      ],
      [en, missing],
      { omitShots: [missing.sha256] },
    );
  }

  it("names trajectory and step for each, counts them, exits 1 and leaves no rows file, finished or half-made", async () => {
    const dir = await brokenExport();
    const out = path.join(await tempDir(), "nested", "out");
    const io = captureIo();
    const code = await runBridge(["sft", dir, "--out", out, "--target", "ms-swift"], io);
    expect(code).toBe(1);
    const err = io.err();
    expect(err).toContain("trajectory t-missing-shot step 2: screenshots/ffff");
    expect(err).toContain("is missing from the export folder");
    expect(err).toContain("trajectory t-off-screen step 1: toolCall [5056, 10] outside the 1092x2408 resized frame");
    expect(err).toContain("trajectory t-off-screen step 2: history step 1 cannot be converted");
    expect(err).toContain("trajectory t-no-thought step 1: thought.text is empty");
    expect(err).toContain("trajectories.jsonl:4 trajectory t-invalid");
    expect(err).toContain("trajectory t-image-tag step 1: 3 <image> tags for 1 images");
    const summary = JSON.parse(readFileSync(path.join(out, "mobile_use_sft.summary.json"), "utf8")) as { problems: number; rows: number };
    expect(summary).toMatchObject({ problems: 6, rows: 1 });
    expect(existsSync(path.join(out, "mobile_use_sft.jsonl"))).toBe(false);
    expect(existsSync(path.join(out, "mobile_use_sft.jsonl.incomplete"))).toBe(false);
  });

  it("--allow-problems writes the rows that could be made and exits 0", async () => {
    const dir = await brokenExport();
    const out = await tempDir();
    const io = captureIo();
    expect(await runBridge(["grpo", dir, "--out", out, "--target", "verl", "--allow-problems"], io)).toBe(0);
    expect(existsSync(path.join(out, "mobile_use_grpo.parquet"))).toBe(true);
    expect(io.err()).toContain("problem: ");
  });

  it("rejects an unusable export folder or bad arguments with exit 2", async () => {
    const io = captureIo();
    expect(await runBridge(["sft", await tempDir(), "--out", await tempDir(), "--target", "ms-swift"], io)).toBe(2);
    expect(io.err()).toContain("manifest.json: not found");
    const { dir } = await standardExport();
    expect(await runBridge(["sft", dir, "--out", await tempDir(), "--target", "axolotl"], captureIo())).toBe(2);
    expect(await runBridge(["grpo", dir, "--out", await tempDir(), "--target", "verl", "--max-pixels", "-5"], captureIo())).toBe(2);
    // Under one 28x28 patch qwen-vl-utils floors a side to 0 (and crashes); no trainer can read such a frame.
    const tiny = captureIo();
    expect(
      await runBridge(["sft", dir, "--out", await tempDir(), "--target", "ms-swift", "--max-pixels", "700", "--min-pixels", "100"], tiny),
    ).toBe(2);
    expect(tiny.err()).toContain("--max-pixels must be at least 784");
    expect(await runBridge(["sft", dir, "--target", "ms-swift"], captureIo())).toBe(2);
    expect(await runBridge(["sft", dir, "--out", "x", "--target", "ms-swift", "--bogus"], captureIo())).toBe(2);
  });
});

describe("bridge stats", () => {
  it("counts image tokens as resized pixels / 784 and flags samples over the budget", async () => {
    const { dir } = await standardExport();
    const io = captureIo();
    expect(await runBridge(["stats", dir, "--json", "--max-tokens", "3000"], io)).toBe(0);
    const s = JSON.parse(io.out()) as StatsSummary;
    expect(s.samples).toBe(5);
    // 1092 * 2408 / 784 = 3354 for the four English samples; 728 * 1288 / 784 = 1196 for the Chinese one.
    expect(s.imageTokens).toMatchObject({ samples: 5, max: 3354, p50: 3354 });
    expect(Object.keys(s.perApp).sort()).toEqual(["File Manager", "盒马"]);
    expect(s.perAction.click?.samples).toBe(2);
    expect(s.overBudget.count).toBe(4);
    expect(s.overBudget.first.map((o) => o.trajectory)).toEqual(["traj-en", "traj-en", "traj-en", "traj-en"]);
  });

  it("prints a table whose columns line up under app names in Chinese, and names over-budget steps from 1 as the editor does", async () => {
    const { dir } = await standardExport();
    const io = captureIo();
    expect(await runBridge(["stats", dir, "--max-tokens", "3000"], io)).toBe(0);
    const text = io.out();
    // A CJK character takes two terminal columns: the numbers start in the same column on every row.
    const wide = (l: string) =>
      [...l].reduce((n, c) => n + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/.test(c) ? 2 : 1), 0);
    const rows = text.split("\n").filter((l) => /^ {2}\S.* \d+$/.test(l) && !l.includes("trajectory"));
    expect(rows.some((l) => l.includes("盒马"))).toBe(true);
    expect(new Set(rows.map(wide)).size).toBe(1);
    // JSON keeps the 0-based step index; the human line counts from 1 (traj-en's first step is over 3000).
    expect(text).toContain("  trajectory traj-en step 1: ");
    expect(text).not.toContain("step 0:");
  });

  it("shrinks with --max-pixels", async () => {
    const { dir } = await standardExport();
    const io = captureIo();
    expect(await runBridge(["stats", dir, "--json", "--max-pixels", "1003520"], io)).toBe(0);
    // 672 * 1484 / 784 = 1272
    expect((JSON.parse(io.out()) as StatsSummary).imageTokens.max).toBe(1272);
  });
});

describe("bridge reward-plugin", () => {
  it("writes the Python module, which imports cleanly without ms-swift", async () => {
    const out = await tempDir();
    const io = captureIo();
    expect(await runBridge(["reward-plugin", "--out", out], io)).toBe(0);
    const file = path.join(out, REWARD_PLUGIN_NAME);
    expect(io.out().trim()).toBe(file);
    expect(readFileSync(file, "utf8")).toContain("def compute_score(data_source, solution_str, ground_truth, extra_info=None):");
  });
});

describe("bridge score input errors", () => {
  it("exits 2 for a missing predictions file and reports malformed prediction lines by line", async () => {
    const { dir } = await standardExport();
    const io = captureIo();
    expect(await runBridge(["score", dir, "--predictions", "/nonexistent/p.jsonl", "--rule", "ui-s1"], io)).toBe(2);
    expect(io.err()).toContain("predictions file not found");
    const file = path.join(await tempDir(), "bad.jsonl");
    await writeFile(
      file,
      ['{"trajectory": "traj-en", "step": 0}', "not json", '{"trajectory": "traj-en", "step": 0, "response": ""}'].join("\n"),
    );
    const io2 = captureIo();
    expect(await runBridge(["score", dir, "--predictions", file, "--rule", "ui-s1", "--json"], io2)).toBe(1);
    expect(io2.err()).toContain("bad.jsonl:1 trajectory ?: response:");
    expect(io2.err()).toContain("bad.jsonl:2 trajectory ?: not valid JSON");
    const summary = JSON.parse(io2.out()) as ScoreSummary;
    expect(summary.scoredSteps).toBe(1);
    expect(summary.rewards["ui-s1"]).toMatchObject({ steps: 1, score: 0 });
  });
});
