// The scoring tally's pieces on hand-counted inputs. Whole scorings (bridge score, an evaluation run) are checked
// against UI-S1's vectors and against each other in lib/bridge/score-sop.test.ts and lib/server/eval/eval.test.ts.
import { describe, expect, it } from "vitest";
import type { RewardResult } from "./rewards";
import { AccuracyTally, RewardTally, ScoreTally, SopTally, SopTrajectory, type TalliedSample } from "./score-tally";
import type { ToolCall } from "./tool-call";

const result = (r: Partial<RewardResult>): RewardResult => ({
  format: 1,
  action: 0,
  score: 0,
  parsed: true,
  typeMatch: false,
  extractMatch: false,
  hit: null,
  ...r,
});

const trajectory = (targets: (boolean | null)[]) => {
  const t = new SopTrajectory();
  t.targets.push(...targets);
  return t;
};

function sample(index: number, call: ToolCall, annotation: TalliedSample["annotation"], isTarget: boolean): TalliedSample {
  return {
    step: {
      index,
      screenshot: { sha256: "0".repeat(64), width: 1080, height: 2400, file: "screenshots/x.png" },
      original: { toolCall: call, response: "" },
      thought: { state: "", nextAction: "", purpose: "", text: "" },
      clearAction: "",
      toolCall: call,
      box: null,
      candidateBoxes: [],
      verdict: annotation === "HARMFUL" ? "harmful" : "good",
    },
    annotation,
    isTarget,
    groundTruth: { gt_action: call, gt_bbox: null, candidate_bbox: [], orig_wh: [1080, 2400], resized_wh: [1092, 2408], annotation },
  };
}
const answer = (call: ToolCall) => `<tool_call>{"name":"mobile_use","arguments":${JSON.stringify(call)}}</tool_call>`;

describe("the scoring tally", () => {
  it("means each reward over the steps added, and says n/a for none", () => {
    const t = new RewardTally();
    expect(t.means()).toEqual({ steps: 0, format: null, action: null, score: null });
    t.add(result({ format: 1, action: 1, score: 2 }));
    t.add(result({ format: 0, action: 0.5, score: 0.5 }));
    expect(t.means()).toEqual({ steps: 2, format: 0.5, action: 0.75, score: 1.25 });
  });

  it("counts grounding only over the steps with a point to hit", () => {
    const a = new AccuracyTally();
    a.add(result({ typeMatch: true, extractMatch: true, hit: true }));
    a.add(result({ typeMatch: true, hit: false }));
    a.add(result({ typeMatch: false }));
    a.add(result({ typeMatch: true, extractMatch: true }));
    expect(a.rates()).toEqual({ steps: 4, typeAccuracy: 0.75, stepAccuracy: 0.5, groundingSteps: 2, groundingAccuracy: 0.5 });
    expect(new AccuracyTally().rates()).toEqual({
      steps: 0,
      typeAccuracy: null,
      stepAccuracy: null,
      groundingSteps: 0,
      groundingAccuracy: null,
    });
  });

  it("studio SOP: stops at the first miss, needs responses only up to it, and leaves out trajectories without targets", () => {
    const sop = new SopTally("studio-lenient");
    sop.add(trajectory([true, true])); // success, progress 1
    sop.add(trajectory([true, false, null])); // the gap after the miss does not matter: progress 1/3
    sop.add(trajectory([false, true])); // progress 0
    sop.add(trajectory([true, null, false])); // a gap before the miss: incomplete
    sop.add(trajectory([])); // no training target: not counted
    expect(sop.figures()).toEqual({
      definition: "studio",
      trajectories: 3,
      successRate: (1 / 3) * 100, // 1 of 3, in %
      progress: (1 + 1 / 3 + 0) / 3,
      incomplete: 1,
    });
    expect(new SopTally("mobile-r1").figures()).toEqual({
      definition: "studio",
      trajectories: 0,
      successRate: null,
      progress: null,
      incomplete: 0,
    });
    expect(new SopTally("ui-s1").figures()).toEqual({
      definition: "eval_qwenvl",
      trajectories: 0,
      successRate: null,
      progress: null,
      incomplete: 0,
    });
  });

  it("keeps harmful steps out of the accuracies, counts their repeats, and notes a target without a response", () => {
    const back: ToolCall = { action: "system_button", button: "Back" };
    const home: ToolCall = { action: "system_button", button: "Home" };
    const tally = new ScoreTally({ rule: "studio-lenient", coords: "qwen25-abs" });
    const t = new SopTrajectory();
    const first = tally.step(t, sample(0, back, "GOOD", true), answer(back));
    expect(first?.["studio-lenient"]).toMatchObject({ typeMatch: true, extractMatch: true });
    expect(tally.step(t, sample(1, home, "HARMFUL", false), answer(home))?.["studio-lenient"].extractMatch).toBe(true);
    expect(tally.step(t, sample(2, back, "GOOD", true), answer(home))?.["studio-lenient"].extractMatch).toBe(false);
    expect(tally.step(t, sample(3, back, "GOOD", true), undefined)).toBeNull();
    expect(t.targets).toEqual([true, false, null]);
    expect(t.episode).toEqual([]); // only ui-s1 reads the steps as eval_qwenvl.py does
    tally.sop.add(t);
    const f = tally.figures();
    expect([f.scoredSteps, f.unpredictedSteps]).toEqual([3, 1]);
    expect(f.harmful).toEqual({ steps: 1, repeated: 1 });
    expect(f.accuracy).toMatchObject({ steps: 2, typeAccuracy: 1, stepAccuracy: 0.5 });
    expect(Object.keys(f.perAction)).toEqual(["system_button"]);
    expect(Object.keys(f.rewards)).toEqual(["mobile-r1", "ui-s1", "studio-lenient"]);
    expect(f.rewards["studio-lenient"].steps).toBe(3);
    expect(f.sop).toMatchObject({ definition: "studio", trajectories: 1, successRate: 0, progress: 1 / 3, incomplete: 0 });
  });

  it("under ui-s1 builds each step's eval_qwenvl.py episode, in 0..1000 when the responses are", () => {
    const back: ToolCall = { action: "system_button", button: "Back" };
    const rel = new ScoreTally({ rule: "ui-s1", coords: "qwen3-rel1000" });
    const t = new SopTrajectory();
    rel.step(t, sample(0, back, "GOOD", true), undefined);
    expect(t.episode).toHaveLength(1);
    expect(t.episode[0]).toMatchObject({ width: 1080, height: 2400, response: null, predictionFrame: [1000, 1000] });
    rel.sop.add(t);
    expect(rel.figures().sop).toMatchObject({ definition: "eval_qwenvl", trajectories: 0, incomplete: 1 });
  });
});
