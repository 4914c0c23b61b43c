import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Point } from "@/lib/domain/geometry";
import { groundTruthSchema, REWARD_RULES, rewardFor, type GroundTruth } from "@/lib/domain/rewards";
import { toPyDict, uiS1ComputeScore } from "@/lib/domain/ui-s1-reward";
import { runBridge } from "./cli";
import { captureIo, readJsonl, standardExport, tempDir } from "./test-fixtures";

// `--coords qwen3-rel1000` rows end to end: what the model is shown and asked for, what the rows declare, and
// that both reward implementations (and UI-S1's own arithmetic on a verl row) score the same predictions,
// written in each row's frame, alike.

const PLUGIN_PATH = fileURLToPath(new URL("./reward_plugin.py", import.meta.url));
const CONVENTIONS = ["qwen25-abs", "qwen3-rel1000"] as const;
type Convention = (typeof CONVENTIONS)[number];

const sftRow = z.object({ messages: z.array(z.object({ role: z.string(), content: z.string() })), images: z.array(z.string()) });
const swiftRow = z
  .object({
    gt_action: z.string(),
    trajectory_id: z.string(),
    step: z.number(),
    resized_wh: z.tuple([z.number(), z.number()]),
    coords: z.string().optional(),
  })
  .passthrough();
const verlRow = z.object({
  reward_model: z.object({ ground_truth: z.string() }),
  extra_info: z.object({
    trajectory_id: z.string(),
    step: z.number(),
    width: z.number(),
    height: z.number(),
    resized_width: z.number(),
    resized_height: z.number(),
  }),
});

type Out = {
  sft: z.infer<typeof sftRow>[];
  sftSummary: Record<string, unknown>;
  swift: z.infer<typeof swiftRow>[];
  verl: z.infer<typeof verlRow>[];
};
const out = {} as Record<Convention, Out>;

const hints: Record<string, string> = {};
async function run(args: string[]): Promise<string> {
  const dir = await tempDir();
  const io = captureIo();
  expect(await runBridge([...args, "--out", dir], io), io.err()).toBe(0);
  hints[args.join(" ")] = io.err();
  return dir;
}

beforeAll(async () => {
  const { dir } = await standardExport();
  for (const coords of CONVENTIONS) {
    const sft = await run(["sft", dir, "--target", "ms-swift", "--coords", coords]);
    const swift = await run(["grpo", dir, "--target", "ms-swift", "--coords", coords]);
    const verl = await run(["grpo", dir, "--target", "verl", "--rule", "ui-s1", "--coords", coords]);
    const file = await asyncBufferFromFile(path.join(verl, "mobile_use_grpo.parquet"));
    out[coords] = {
      sft: (await readJsonl(path.join(sft, "mobile_use_sft.jsonl"))).map((r) => sftRow.parse(r)),
      sftSummary: JSON.parse(await readFile(path.join(sft, "mobile_use_sft.summary.json"), "utf8")) as Record<string, unknown>,
      swift: (await readJsonl(path.join(swift, "mobile_use_grpo.jsonl"))).map((r) => swiftRow.parse(r)),
      verl: ((await parquetReadObjects({ file })) as unknown[]).map((r) => verlRow.parse(r)),
    };
  }
}, 120_000);

describe("bridge sft --coords", () => {
  it("asks for 0..1000 under qwen3-rel1000: a 1000x1000 screen in the prompt, targets and history in it", () => {
    const [absRow, relRow] = CONVENTIONS.map((c) => out[c].sft.find((r) => r.messages[1]!.content.startsWith("The user query:  Open"))!);
    // traj-en step 1 clicks (925, 405) on 1080x2400: 935.3, 405.7 -> [935, 406] in 1092x2408; 856.5, 168.75 -> [856, 169].
    expect(absRow!.messages[0]!.content).toContain("* The screen's resolution is 1092x2408.");
    expect(relRow!.messages[0]!.content).toContain("* The screen's resolution is 1000x1000.");
    expect(relRow!.messages[0]!.content).not.toContain("1092x2408");
    const targets = (c: Convention) => out[c].sft.map((r) => r.messages[2]!.content).join("\n");
    expect(targets("qwen25-abs")).toContain('"coordinate": [935, 406]');
    expect(targets("qwen3-rel1000")).toContain('"coordinate": [856, 169]');
    // traj-en step 4's history holds step 2's swipe (540, 1800) -> (540, 600): [546, 1806] -> [546, 602] and [500, 750] -> [500, 250].
    const history = (c: Convention) => out[c].sft.map((r) => r.messages[1]!.content).join("\n");
    expect(history("qwen25-abs")).toContain('"coordinate": [546, 1806], "coordinate2": [546, 602]');
    expect(history("qwen3-rel1000")).toContain('"coordinate": [500, 750], "coordinate2": [500, 250]');
    expect(out["qwen3-rel1000"].sftSummary.coords).toBe("qwen3-rel1000");
    expect(out["qwen25-abs"].sftSummary.coords).toBe("qwen25-abs");
    const printed = Object.entries(hints).filter(([args]) => args.startsWith("sft"));
    expect(printed.find(([args]) => args.endsWith("qwen3-rel1000"))![1]).toContain("coordinates are 0..1000 of the screenshot");
    expect(printed.find(([args]) => args.endsWith("qwen25-abs"))![1]).toContain("MAX_PIXELS/MIN_PIXELS keep the frame");
  });
});

describe("bridge grpo --coords: the rows declare their frame", () => {
  it("ms-swift: a coords column under qwen3-rel1000 only; ground truth stays in original pixels", () => {
    expect(out["qwen25-abs"].swift.every((r) => !("coords" in r))).toBe(true);
    expect(out["qwen3-rel1000"].swift.every((r) => r.coords === "qwen3-rel1000")).toBe(true);
    expect(out["qwen3-rel1000"].swift.map((r) => r.gt_action)).toEqual(out["qwen25-abs"].swift.map((r) => r.gt_action));
  });
  it("verl: ground_truth says coords, and extra_info's resized size is the frame UI-S1's reward divides the answer by", () => {
    const rel = out["qwen3-rel1000"].verl;
    expect(rel.every((r) => (JSON.parse(r.reward_model.ground_truth) as { coords?: string }).coords === "qwen3-rel1000")).toBe(true);
    expect(rel.every((r) => r.extra_info.resized_width === 1000 && r.extra_info.resized_height === 1000)).toBe(true);
    expect(out["qwen25-abs"].verl[1]!.extra_info).toMatchObject({ width: 1080, height: 2400, resized_width: 1092, resized_height: 2408 });
  });
});

/** The same predictions per row: points on a grid of the resized frame (what a Qwen2.5-VL model writes), and in 0..1000. */
function predictions(gt: GroundTruth, coords: Convention): { mobileR1: string; uiS1: string }[] {
  const [rw, rh] = gt.resized_wh;
  const g = gt.gt_action;
  const grid: Point[] = [];
  for (let i = 0; i <= 12; i++) for (let j = 0; j <= 12; j++) grid.push([Math.round((rw * i) / 12), Math.round((rh * j) / 12)]);
  const inFrame = ([x, y]: Point): Point => (coords === "qwen25-abs" ? [x, y] : [(x / rw) * 1000, (y / rh) * 1000]);
  const calls =
    g.action === "click" || g.action === "long_press"
      ? grid.map((p) => ({ ...g, coordinate: inFrame(p) }))
      : g.action === "swipe"
        ? grid.map((p) => ({ action: "swipe", coordinate: inFrame(p), coordinate2: inFrame([p[0], Math.max(0, p[1] - rh / 4)]) }))
        : [g];
  return calls.map((call) => ({
    mobileR1: `<think>\nt\n</think>\n<action>\na\n</action>\n<tool_call>\n${JSON.stringify({ name: "mobile_use", arguments: call })}\n</tool_call>`,
    uiS1: `<think>\nt\n</think>\n<action>\n${JSON.stringify(call)}\n</action>`,
  }));
}

function swiftGroundTruth(r: z.infer<typeof swiftRow>): GroundTruth {
  return groundTruthSchema.parse({ ...r, gt_action: JSON.parse(r.gt_action) });
}

type Scored = Record<string, number[]>;

/** Every rule's score of every prediction of every row, by the TypeScript rules and by UI-S1's arithmetic on the verl rows. */
function scoreTs(coords: Convention): Scored {
  const scored: Scored = {};
  const o = out[coords];
  for (const rule of REWARD_RULES) {
    scored[rule] = o.swift.flatMap((r) => {
      const gt = swiftGroundTruth(r);
      return predictions(gt, coords).map((p) => rewardFor(rule, rule === "ui-s1" ? p.uiS1 : p.mobileR1, gt).score);
    });
  }
  // UI-S1's gui_action_match_compute_score on the verl row as it is: check_options and extra_info, nothing else.
  scored["ui-s1 upstream on verl rows"] = o.verl.flatMap((r) => {
    const gt = JSON.parse(r.reward_model.ground_truth) as GroundTruth & { check_options: Record<string, unknown> };
    const e = r.extra_info;
    const frames = { width: e.width, height: e.height, resizedWidth: e.resized_width, resizedHeight: e.resized_height };
    return predictions(groundTruthSchema.parse(gt), coords).map((p) => uiS1ComputeScore(p.uiS1, toPyDict(gt.check_options), frames).score);
  });
  return scored;
}

/** The same through the Python plugin: the ms-swift ORMs on the JSONL columns and verl compute_score on the parquet's ground truth. */
function scorePython(coords: Convention): Scored {
  const fake = mkdtempSync(path.join(os.tmpdir(), "fake-swift-"));
  mkdirSync(path.join(fake, "swift"));
  writeFileSync(path.join(fake, "swift", "__init__.py"), "");
  writeFileSync(path.join(fake, "swift", "plugin.py"), "class ORM:\n    pass\norms = {}\n");
  const o = out[coords];
  const swiftCases = o.swift.flatMap((r) => predictions(swiftGroundTruth(r), coords).map((p) => ({ row: r, p })));
  const verlCases = o.verl.flatMap((r) =>
    predictions(groundTruthSchema.parse(JSON.parse(r.reward_model.ground_truth)), coords).map((p) => ({
      gt: r.reward_model.ground_truth,
      p,
    })),
  );
  const script = [
    "import importlib.util, json, sys",
    `spec = importlib.util.spec_from_file_location('p', ${JSON.stringify(PLUGIN_PATH)})`,
    "p = importlib.util.module_from_spec(spec); spec.loader.exec_module(p)",
    "from swift.plugin import orms",
    "data = json.loads(sys.stdin.read())",
    "rows = [c['row'] for c in data['swift']]",
    "cols = {k: [r.get(k) for r in rows] for k in ('gt_action', 'gt_bbox', 'candidate_bbox', 'orig_wh', 'resized_wh', 'annotation', 'coords') if any(k in r for r in rows)}",
    "out = {}",
    "out['mobile-r1'] = [a + f for a, f in zip(orms['mobile_r1_action']()([c['p']['mobileR1'] for c in data['swift']], **cols), orms['mobile_r1_format']()([c['p']['mobileR1'] for c in data['swift']], **cols))]",
    "out['studio-lenient'] = orms['studio_lenient_step']()([c['p']['mobileR1'] for c in data['swift']], **cols)",
    "out['ui-s1'] = orms['ui_s1_step']()([c['p']['uiS1'] for c in data['swift']], **cols)",
    "out['verl mobile-r1'] = [p.compute_score('trajectory_studio_mobile_r1', c['p']['mobileR1'], c['gt'], {})['score'] for c in data['verl']]",
    "out['verl studio-lenient'] = [p.compute_score('trajectory_studio_lenient', c['p']['mobileR1'], c['gt'], {})['score'] for c in data['verl']]",
    "out['verl ui-s1'] = [p.compute_score('trajectory_studio_ui_s1', c['p']['uiS1'], c['gt'], {})['score'] for c in data['verl']]",
    "print(json.dumps(out))",
  ].join("\n");
  const res = spawnSync("python3", ["-B", "-S", "-c", script], {
    input: JSON.stringify({ swift: swiftCases, verl: verlCases }),
    encoding: "utf8",
    env: { ...process.env, PYTHONPATH: fake },
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(res.stderr).toBe("");
  return z.record(z.string(), z.array(z.number())).parse(JSON.parse(res.stdout));
}

describe("rows written with each --coords give the same rewards for the same predictions", () => {
  it("TypeScript, every rule, and UI-S1's own arithmetic on the verl rows", () => {
    const abs = scoreTs("qwen25-abs");
    const rel = scoreTs("qwen3-rel1000");
    for (const [k, scores] of Object.entries(abs)) {
      expect(rel[k], k).toEqual(scores);
      // The grid hits and misses: the comparison is between real decisions, not between two rows of zeros.
      expect(new Set(scores).size, k).toBeGreaterThan(1);
    }
  });
  it("Python plugin: ms-swift ORMs and verl compute_score, every rule, equal to each other and to TypeScript", () => {
    const ts = scoreTs("qwen25-abs");
    const abs = scorePython("qwen25-abs");
    const rel = scorePython("qwen3-rel1000");
    expect(rel).toEqual(abs);
    for (const rule of REWARD_RULES) {
      expect(
        abs[rule]!.map((s) => s.toFixed(9)),
        rule,
      ).toEqual(ts[rule]!.map((s) => s.toFixed(9)));
    }
  });
  it("would catch an undeclared frame: rel1000 answers against the qwen25-abs rows score differently", () => {
    const abs = out["qwen25-abs"].swift.flatMap((r) => {
      const gt = swiftGroundTruth(r);
      const mine = predictions(gt, "qwen25-abs");
      return predictions(gt, "qwen3-rel1000").map((p, i) => [
        rewardFor("studio-lenient", p.mobileR1, gt).score,
        rewardFor("studio-lenient", mine[i]!.mobileR1, gt).score,
      ]);
    });
    expect(abs.some(([wrong, right]) => wrong !== right)).toBe(true);
  });
});

describe("--coords on the command line", () => {
  it("refuses an unknown convention and a command it does not apply to, naming the option", async () => {
    const { dir } = await standardExport();
    const bad = captureIo();
    expect(await runBridge(["sft", dir, "--out", await tempDir(), "--target", "ms-swift", "--coords", "rel1000"], bad)).toBe(2);
    expect(bad.err()).toContain('--coords must be one of qwen25-abs|qwen3-rel1000, got "rel1000"');
    const stats = captureIo();
    expect(await runBridge(["stats", dir, "--coords", "qwen3-rel1000"], stats)).toBe(2);
    expect(stats.err()).toContain("--coords is for sft, grpo, traj, score, dpo and prm, not stats");
  });
});
