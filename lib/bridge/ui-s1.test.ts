import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { uiS1Reward } from "@/lib/domain/rewards";
import { pyJsonLoads, pyStrip, PyBigInt, pyContains, pyDivide } from "@/lib/domain/python-compat";
import {
  toPy,
  uiS1EvalCheckOptions,
  uiS1EvalResize,
  uiS1SopEpisode,
  uiS1SopRates,
  uiS1TrainCheckOptions,
  uiS1TrajStep,
} from "@/lib/domain/ui-s1-reward";
import { loadUiS1RewardVectors, loadUiS1SopVectors, UI_S1_REWARD_VECTORS as REWARD_VECTORS } from "./vectors/vectors";

const PLUGIN_PATH = fileURLToPath(new URL("./reward_plugin.py", import.meta.url));
const rewardVectors = loadUiS1RewardVectors();
const { vectors } = rewardVectors;
const sop = loadUiS1SopVectors();

/** The categories the issue names, each by the vector-name prefix that covers it. */
const CATEGORIES: Record<string, string[]> = {
  "aliases (tap, back, …)": ["alias_tap", "alias_back"],
  "coordinates as strings": ["coord_strings", "coord_one_string"],
  "fenced JSON": ["parse_fenced_json"],
  "unclosed <action>": ["parse_unclosed_action"],
  "<thinking>": ["format_thinking_tag"],
  "unknown actions": ["unknown_action"],
  "broken JSON": ["parse_broken_json", "parse_trailing_comma"],
  "click in a candidate box other than the target": ["click_in_candidate_not_target"],
  "answer ground truth": ["answer_pred_answer", "answer_pred_type"],
  "key ground truth": ["key_pred_key", "key_pred_type"],
  "swipe up/down swap": ["swipe_same_path_up", "swipe_opposite_path_matches"],
  "terminate status": ["terminate_status_differs"],
  "empty text": ["text_empty_pred", "text_empty_gt"],
  "HARMFUL / NEUTRAL": ["annotation_harmful_match", "annotation_neutral_match"],
};

describe("UI-S1 vector tables", () => {
  it("come from the pinned UI-S1 commit and cover every category the rule must reproduce", () => {
    expect(rewardVectors.upstream.commit).toBe("11cea575561fb7800b5fb6b6cafa56f7a91de11f");
    expect(sop.upstream.commit).toBe("11cea575561fb7800b5fb6b6cafa56f7a91de11f");
    const names = new Set(vectors.map((v) => v.name));
    for (const [category, required] of Object.entries(CATEGORIES)) {
      for (const name of required) expect(names.has(name), `${category}: ${name}`).toBe(true);
    }
    // Not every vector is a zero: the table exercises full matches, type-only matches and errors.
    const scores = new Set(vectors.map((v) => v.expect.score));
    expect(scores.size).toBeGreaterThan(5);
  });
});

describe("uiS1Reward (TypeScript) equals UI-S1's gui_action_match_compute_score", () => {
  it.each(vectors.map((v) => [v.name, v] as const))("%s", (_name, v) => {
    const actionContent = v.gt.gt_bbox ? { ...v.gt.gt_action, bbox: v.gt.gt_bbox } : v.gt.gt_action;
    // The check options fix_line built upstream are the ones we build.
    expect(uiS1TrainCheckOptions(actionContent, v.gt.annotation)).toEqual(toPy(v.check_options));
    const r = uiS1Reward(v.response, v.gt);
    expect({ score: r.score, format_score: r.format, type_match: r.typeMatch, extract_match: r.extractMatch }).toEqual(v.expect);
  });
});

const pythonSchema = z.array(
  z.object({ name: z.string(), score: z.number(), format: z.number(), type_match: z.boolean(), extract_match: z.boolean() }),
);

describe("ui_s1_reward (Python plugin, standard library only) equals UI-S1's gui_action_match_compute_score", () => {
  const run = spawnSync("python3", ["-B", "-I", "-S", PLUGIN_PATH, "--ui-s1-vectors", REWARD_VECTORS], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  it("runs without third-party packages", () => {
    expect(run.error).toBeUndefined();
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
  const results = run.status === 0 ? pythonSchema.parse(JSON.parse(run.stdout)) : [];
  it.each(vectors.map((v, i) => [v.name, v, i] as const))("%s", (name, v, i) => {
    const r = results[i]!;
    expect(r.name).toBe(name);
    expect({ score: r.score, format_score: r.format, type_match: r.type_match, extract_match: r.extract_match }).toEqual(v.expect);
  });
});

describe("UI-S1 SOP (eval_qwenvl.py) per trajectory", () => {
  it.each(sop.trajectories.map((t) => [t.name, t] as const))("%s", (_name, t) => {
    const episode = uiS1SopEpisode(
      t.steps.map((s, i) => ({
        checkOptions: uiS1EvalCheckOptions(
          uiS1TrajStep(
            { index: i, toolCall: s.call, box: s.box, candidateBoxes: s.candidates } as Parameters<typeof uiS1TrajStep>[0],
            s.annotation,
          ),
        ),
        width: s.width,
        height: s.height,
        response: t.responses[i] ?? null,
      })),
    );
    expect(episode).toMatchObject({
      complete: true,
      numSteps: t.expect.num_steps,
      finalStepId: t.expect.final_step_id,
      taskSuccess: t.expect.task_success,
    });
  });

  it("totals equal main()'s success rate and average progress", () => {
    const episodes = sop.trajectories.map((t) => ({
      numSteps: t.expect.num_steps,
      finalStepId: t.expect.final_step_id,
      taskSuccess: t.expect.task_success,
    }));
    const rates = uiS1SopRates(episodes)!;
    expect(rates.successRate).toBe(sop.totals.success_rate);
    expect(rates.progress).toBe(sop.totals.progress);
  });

  it("reports a trajectory as incomplete when the evaluation would need a response it does not have", () => {
    const steps = [
      {
        checkOptions: toPy({ action: "system_button", button: "Back", candidate_bbox: [] }) as Map<string, never>,
        width: 1080,
        height: 2400,
        response: '<think>t</think><action>{"action": "system_button", "button": "Back"}</action>',
      },
      {
        checkOptions: toPy({ action: "system_button", button: "Back", candidate_bbox: [] }) as Map<string, never>,
        width: 1080,
        height: 2400,
        response: null,
      },
    ];
    expect(uiS1SopEpisode(steps)).toEqual({ complete: false, missingStep: 1 });
    // A miss before the gap ends the episode: no response is needed after it.
    steps[0]!.response = '<think>t</think><action>{"action": "system_button", "button": "Home"}</action>';
    expect(uiS1SopEpisode(steps)).toMatchObject({ complete: true, finalStepId: 0, taskSuccess: false });
  });
});

describe("Python semantics the UI-S1 rule relies on", () => {
  it("json.loads: NaN and Infinity parse, big integers stay exact, 4301-digit integers and bad JSON fail", () => {
    expect(Number.isNaN(pyJsonLoads("NaN") as number)).toBe(true);
    expect(pyJsonLoads("[-Infinity]")).toEqual([-Infinity]);
    expect(pyJsonLoads("123456789012345678901")).toEqual(new PyBigInt(123456789012345678901n));
    expect(() => pyJsonLoads("9".repeat(4301))).toThrow(/4300 digits/);
    expect(pyJsonLoads("9".repeat(4300))).toBeInstanceOf(PyBigInt);
    for (const bad of ["{'a': 1}", "[1,]", "01", "1.", '"\n"', "[1] x", "", "nul", "\ufeff{}"])
      expect(() => pyJsonLoads(bad), bad).toThrow();
    expect(pyJsonLoads('{"a": 1, "a": 2}')).toEqual(new Map([["a", 2]]));
    expect(pyJsonLoads("1e5")).toBe(100000);
    expect(pyJsonLoads("1E+2")).toBe(100);
  });

  it("str.strip, `in` on code points and int / int true division", () => {
    expect(pyStrip("\x1c a \u3000")).toBe("a");
    expect(pyStrip("\ufeffa")).toBe("\ufeffa");
    expect(pyContains("😀", "\ud83d")).toBe(false);
    expect(pyContains("a😀b", "😀")).toBe(true);
    expect(pyDivide(true, 4)).toBe(0.25);
    expect(() => pyDivide("1", 4)).toThrow(/TypeError/);
    // Correctly rounded like CPython's int / int; converting to a double first would round twice.
    expect(pyDivide(new PyBigInt(1164320092763483550780n), 2408)).toBe(4.8352163320742675e17);
    expect(Number(1164320092763483550780n) / 2408).toBe(4.835216332074267e17);
    expect(() => pyDivide(new PyBigInt(10n ** 400n), 500)).toThrow(/OverflowError/);
    expect(pyDivide(new PyBigInt(10n ** 309n), 1000)).toBe(1e306);
  });

  it("smart_resize as find_last_image_ele calls it", () => {
    expect(uiS1EvalResize(1080, 2400)).toEqual([1092, 2408]);
    expect(uiS1EvalResize(3000, 4000)).toEqual([2716, 3640]);
    expect(() => uiS1EvalResize(1, 100)).toThrow(/ValueError/);
  });
});
