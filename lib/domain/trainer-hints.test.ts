import { describe, expect, it } from "vitest";
import { framePair, toResizedPoint, type Size } from "./geometry";
import { mobileR1Response, mobileUseSystemPrompt, mobileUseUserText, type ActionSpace } from "./prompt";
import { mapPoints, type StepToolCall, type ToolCall } from "./tool-call";
import { isTrainingTarget, VERDICTS, type CanonicalStep, type CanonicalTrajectory } from "./trajectory";
import {
  addRow,
  emptyHints,
  estimateTextTokens,
  hydraOverride,
  imageTokens,
  lengthSetting,
  measureTrajectory,
  measureTrajectorySpaces,
  promptTokens,
  shellQuote,
  trainerCommands,
  trainerSettings,
  type TrainerHints,
} from "./trainer-hints";

describe("token estimates", () => {
  it("counts a resized image as pixels / 784 and text as an upper estimate", () => {
    expect(imageTokens({ width: 672, height: 1484 })).toBe(1272);
    expect(estimateTextTokens("点击购物车")).toBe(5);
    expect(estimateTextTokens("abcdef")).toBe(2);
    // system + user messages (5 template tokens each), one image (+2) and the generation prompt (3).
    expect(promptTokens([{ content: "abc" }, { content: "de<image>f" }], [{ width: 28, height: 28 }])).toBe(1 + 5 + 1 + 5 + 1 + 2 + 3);
  });
  it("keeps maxima and turns them into length settings with room for the estimate", () => {
    const h = addRow(addRow(emptyHints(1003520, 3136), { imageTokens: 10, promptTokens: 900, responseTokens: 50 }), {
      imageTokens: 20,
      promptTokens: 800,
      responseTokens: 200,
    });
    expect(h).toMatchObject({ rows: 2, maxImageTokens: 20, maxPromptTokens: 900, maxResponseTokens: 200, maxSequenceTokens: 1000 });
    expect(lengthSetting(1000)).toBe(1280);
    expect(lengthSetting(10)).toBe(256);
  });
});

describe("trainer commands", () => {
  const hints = {
    maxPixels: 1003520,
    minPixels: 3136,
    rows: 3,
    maxImageTokens: 1272,
    maxPromptTokens: 2000,
    maxSequenceTokens: 2200,
    maxResponseTokens: 200,
  };
  it("quote folders with spaces and CJK for the shell, and carry pixel limits, image root and lengths", () => {
    expect(shellQuote("/data/导出 v1")).toBe("'/data/导出 v1'");
    expect(shellQuote("/data/x")).toBe("/data/x");
    expect(trainerSettings("ms-swift", hints, "/d/导出 v1")).toEqual([
      "MAX_PIXELS=1003520 MIN_PIXELS=3136 ROOT_IMAGE_DIR='/d/导出 v1'",
      "--max_length 2560",
    ]);
    expect(trainerSettings("llamafactory", hints, "/d")).toEqual([
      "dataset_dir: /d",
      "media_dir: /d",
      "image_max_pixels: 1003520",
      "image_min_pixels: 3136",
      "cutoff_len: 2560",
    ]);
    expect(trainerSettings("verl", hints, "/d")[0]).toBe("data.max_prompt_length=2304");
    // A YAML plain scalar may not hold ": " or " #"; such a folder is written as a double-quoted string.
    expect(trainerSettings("llamafactory", hints, "/d/导出 v1: a #b").slice(0, 2)).toEqual([
      'dataset_dir: "/d/导出 v1: a #b"',
      'media_dir: "/d/导出 v1: a #b"',
    ]);
    expect(trainerSettings("llamafactory", hints, "/d/导出 v1")[0]).toBe('dataset_dir: "/d/导出 v1"');
    // Hydra overrides (verl, UI-S1): the value quoted for Hydra, the whole argument for the shell.
    expect(hydraOverride("data.train_files", "/d/x.parquet")).toBe("data.train_files=/d/x.parquet");
    expect(hydraOverride("data.train_files", "/d/导出 v1/x.parquet")).toBe(`'data.train_files="/d/导出 v1/x.parquet"'`);
    expect(hydraOverride("data.train_files", '/d/it\'s "v1"/x.parquet')).toBe(`'data.train_files="/d/it'\\''s \\"v1\\"/x.parquet"'`);
    const cmds = trainerCommands("/x/导出 v1", hints);
    expect(cmds.map((c) => c.trainer)).toEqual(["ms-swift", "llamafactory", "verl", "ui-s1"]);
    expect(cmds[0]!.bridge).toBe(
      "npm run studio -- bridge sft '/x/导出 v1' --target ms-swift --out '/x/导出 v1-sft-ms-swift' --max-pixels 1003520",
    );
    expect(cmds[2]!.bridge).toContain("--embed-images");
    expect(trainerCommands("/x", null).every((c) => c.settings.length === 0)).toBe(true);
  });
});

// The measurement as first written (whole prompt texts built per sample, CJK counted by a regex): the
// export's incremental version must give the same figures on any input.
const CJK = /[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/g;
function estimateByRegex(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  return Math.ceil(cjk + (text.length - cjk) / 3);
}
function measureAsWritten(h: TrainerHints, t: CanonicalTrajectory, space: ActionSpace): TrainerHints {
  if (t.isDiscarded) return h;
  const kept = t.cutAfter === null ? t.steps : t.steps.slice(0, t.cutAfter + 1);
  let out = h;
  const history: StepToolCall[] = [];
  for (const step of kept) {
    let frames;
    try {
      frames = framePair(step.screenshot, h.maxPixels, h.minPixels);
    } catch {
      return out;
    }
    const call = mapPoints(step.toolCall, (p) => toResizedPoint(p, frames));
    if (isTrainingTarget(t, step)) {
      const texts = [mobileUseSystemPrompt(frames.resized, space), mobileUseUserText(t.instruction, history)];
      const target = mobileR1Response(step.thought.text.trim(), step.clearAction.trim(), call);
      const text = texts.reduce((n, c) => n + estimateByRegex(c.split("<image>").join("")) + 5, 0);
      out = addRow(out, {
        imageTokens: imageTokens(frames.resized),
        promptTokens: text + imageTokens(frames.resized) + 2 + 3,
        responseTokens: estimateByRegex(target) + 5,
      });
    }
    history.push(call);
  }
  return out;
}

describe("measuring an export's samples", () => {
  // A fixed pseudo-random sequence (mulberry32), so a failure can be replayed.
  let seed = 20261123;
  const rand = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  // Text around every edge of the CJK ranges, image tags whole and broken, quotes and newlines.
  const pieces = [
    "点击",
    "购物车",
    "<image>",
    "<ima",
    "ge>",
    "<",
    ">",
    " ",
    "\n",
    '"',
    "\\",
    "abc",
    "ｆｕｌｌ",
    "〇",
    "\u2fff",
    "\u3000",
    "\u303f",
    "\u3040",
    "\u33ff",
    "\u3400",
    "\u9fff",
    "\ua000",
    "\uf8ff",
    "\uf900",
    "\ufaff",
    "\ufb00",
    "\ufeff",
    "\uff00",
    "\uffef",
    "\ufff0",
    "😀",
  ];
  const text = (max: number) => Array.from({ length: Math.floor(rand() * max) }, () => pick(pieces)).join("");
  // Sizes that resize, and ones that cannot (aspect ratio over 200): measuring stops there.
  const sizes: Size[] = [
    { width: 1080, height: 2400 },
    { width: 720, height: 1280 },
    { width: 1440, height: 3120 },
    { width: 30, height: 9000 },
  ];
  const call = (size: Size): ToolCall => {
    const pt = (): [number, number] => [Math.floor(rand() * size.width), Math.floor(rand() * size.height)];
    return pick<() => ToolCall>([
      () => ({ action: "click", coordinate: pt() }),
      () => ({ action: "long_press", coordinate: pt(), time: 2 }),
      () => ({ action: "swipe", coordinate: pt(), coordinate2: pt() }),
      () => ({ action: "type", text: text(6) }),
      () => ({ action: "answer", text: text(6) }),
      () => ({ action: "open", text: `x${text(3)}` }),
      () => ({ action: "system_button", button: "Back" }),
      () => ({ action: "terminate", status: "success" }),
    ])();
  };
  const trajectory = (): CanonicalTrajectory => {
    const n = 1 + Math.floor(rand() * 9);
    const steps: CanonicalStep[] = Array.from({ length: n }, (_, index) => {
      const size = rand() < 0.05 ? sizes[3]! : pick(sizes.slice(0, 3));
      const toolCall = call(size);
      return {
        index,
        screenshot: { sha256: "a".repeat(64), ...size },
        original: { toolCall },
        thought: { state: "", nextAction: "", purpose: "", text: ` ${text(8)} ` },
        clearAction: text(4),
        toolCall,
        box: null,
        candidateBoxes: [],
        verdict: pick(VERDICTS),
      };
    });
    return {
      format: "trajectory-studio/v1",
      app: "App",
      instruction: `i${text(10)}`,
      source: "studio",
      outcome: null,
      isDiscarded: rand() < 0.1,
      cutAfter: rand() < 0.3 ? Math.floor(rand() * n) : null,
      steps,
    };
  };

  it("measures both action spaces in one pass exactly as whole prompts measure them, image tags and CJK included", () => {
    let a = emptyHints(1003520, 3136);
    let b = emptyHints(1003520, 3136);
    let refA = a;
    let refB = b;
    let small = emptyHints(200704, 3136);
    let refSmall = small;
    for (let i = 0; i < 400; i++) {
      const t = trajectory();
      for (const s of [t.instruction, ...t.steps.map((x) => x.thought.text)]) expect(estimateTextTokens(s)).toBe(estimateByRegex(s));
      [a, b] = measureTrajectorySpaces([a, b], t, ["mobile-use", "ui-s1"]);
      refA = measureAsWritten(refA, t, "mobile-use");
      refB = measureAsWritten(refB, t, "ui-s1");
      small = measureTrajectory(small, t, "ui-s1");
      refSmall = measureAsWritten(refSmall, t, "ui-s1");
      expect([a, b, small], `after trajectory ${i}`).toEqual([refA, refB, refSmall]);
    }
    // The inputs reached what matters: answers make UI-S1's prompt longer, and rows were folded.
    expect(b.maxPromptTokens).toBeGreaterThan(a.maxPromptTokens);
    expect(a.rows).toBeGreaterThan(1000);
    expect(() => measureTrajectorySpaces([a, small], trajectory(), ["mobile-use", "ui-s1"])).toThrow(/different pixel limits/);
  });
});
