// bridge judge: the model judge's verdicts beside the human outcome, with the agreement figures.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CanonicalTrajectory } from "@/lib/domain/trajectory";
import { runBridge } from "./cli";
import { captureIo, EN_SCREENSHOT, loadShot, makeStep, makeTrajectory, tempDir, writeExport } from "./test-fixtures";

const verdict = (outcome: "success" | "failure", reason = "r"): NonNullable<CanonicalTrajectory["judge"]> => ({
  outcome,
  isConsistent: true,
  reason,
  model: "qwen",
  prompt: "judge.v1",
  at: "2026-11-22T00:00:00.000Z",
});

describe("bridge judge", () => {
  it("writes one row per trajectory with the verdict beside the human label, and kappa over the judged ones", async () => {
    const shot = await loadShot(EN_SCREENSHOT, 1080, 2400);
    const step = makeStep(0, shot, { action: "open", text: "Files" });
    // human/judge: S/S, S/F, F/F, F/S, S/S, and one never judged
    const plan: ["success" | "failure", "success" | "failure" | null][] = [
      ["success", "success"],
      ["success", "failure"],
      ["failure", "failure"],
      ["failure", "success"],
      ["success", "success"],
      ["failure", null],
    ];
    const trajectories = plan.map(([human, judge], i) => ({
      ...makeTrajectory([step], { id: `t${i}`, outcome: human, app: i < 3 ? "Files" : "Mail" }),
      ...(judge ? { judge: verdict(judge, `why ${i}`) } : {}),
    }));
    const dir = await writeExport(trajectories, [shot]);
    const out = await tempDir();
    const io = captureIo();
    expect(await runBridge(["judge", dir, "--out", out], io)).toBe(0);
    const summary = JSON.parse(io.out());
    // po = 3/5, human S = 3/5, judge S = 3/5, pe = 0.36 + 0.16 = 0.52, kappa = 0.08 / 0.48
    expect(summary).toMatchObject({
      command: "judge",
      trajectories: 6,
      pairs: 5,
      agree: 3,
      unjudged: 1,
      confusion: { success: { success: 2, failure: 1 }, failure: { success: 1, failure: 1 } },
    });
    expect(summary.kappa).toBeCloseTo(1 / 6, 10);
    const rows = readFileSync(path.join(out, "judge.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(6);
    expect(rows[3]).toEqual({
      id: "t3",
      app: "Mail",
      instruction: "Do the thing",
      status: null,
      human_outcome: "failure",
      judge_outcome: "success",
      judge_consistent: true,
      judge_reason: "why 3",
      judge_model: "qwen",
      judge_prompt: "judge.v1",
    });
    expect(rows[5]).toMatchObject({ id: "t5", human_outcome: "failure", judge_outcome: null, judge_reason: null });
  });

  it("needs --out", async () => {
    const io = captureIo();
    expect(await runBridge(["judge", await tempDir()], io)).toBe(2);
    expect(io.err()).toContain("--out <dir> is required");
  });
});
