import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { runBridge } from "./cli";
import { REWARD_PLUGIN_NAME } from "./reward-plugin";
import { groundTruthSchema, mobileR1Reward } from "@/lib/domain/rewards";
import { uiS1TrainCheckOptions } from "@/lib/domain/ui-s1-reward";
import { captureIo, readJsonl, standardExport, tempDir } from "./test-fixtures";

const swiftRowSchema = z.object({
  messages: z.array(z.object({ role: z.enum(["system", "user"]), content: z.string() })),
  images: z.array(z.string()).length(1),
  gt_action: z.string(),
  gt_bbox: z.array(z.number()).nullable(),
  candidate_bbox: z.array(z.array(z.number())),
  orig_wh: z.tuple([z.number(), z.number()]),
  resized_wh: z.tuple([z.number(), z.number()]),
  annotation: z.enum(["GOOD", "HARMFUL", "NEUTRAL"]),
  trajectory_id: z.string(),
  step: z.number(),
});

describe("bridge grpo (ms-swift)", () => {
  let rows: z.infer<typeof swiftRowSchema>[];
  beforeAll(async () => {
    const { dir } = await standardExport();
    const out = await tempDir();
    expect(await runBridge(["grpo", dir, "--out", out, "--target", "ms-swift"], captureIo())).toBe(0);
    rows = (await readJsonl(path.join(out, "mobile_use_grpo.jsonl"))).map((r) => swiftRowSchema.parse(r));
  });

  it("includes harmful steps as HARMFUL negatives and never a step after the cut", () => {
    expect(rows.map((r) => `${r.trajectory_id}:${r.step}:${r.annotation}`)).toEqual([
      "traj-en:0:GOOD",
      "traj-en:1:GOOD",
      "traj-en:2:HARMFUL",
      "traj-en:3:NEUTRAL",
      "traj-en:4:GOOD",
      "traj-zh:0:GOOD",
    ]);
  });

  it("has no assistant turn, ends the user turn with the image, and keeps ground truth in original pixels", () => {
    const click = rows.find((r) => r.trajectory_id === "traj-en" && r.step === 1)!;
    expect(click.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(click.messages[1]!.content.endsWith("; <image>")).toBe(true);
    expect(JSON.parse(click.gt_action)).toEqual({ action: "click", coordinate: [925, 405] });
    expect(click.gt_bbox).toEqual([850, 350, 1000, 460]);
    expect(click.candidate_bbox).toEqual([[0, 300, 1080, 500]]);
    expect(click.orig_wh).toEqual([1080, 2400]);
    expect(click.resized_wh).toEqual([1092, 2408]);
  });

  it("scores the cookbook answer as correct against the row's own ground truth", () => {
    const click = rows.find((r) => r.trajectory_id === "traj-en" && r.step === 1)!;
    const gt = groundTruthSchema.parse({ ...click, gt_action: JSON.parse(click.gt_action) });
    const answer =
      '<think>\nx\n</think>\n<action>\ny\n</action>\n<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [935, 406]}}\n</tool_call>';
    expect(mobileR1Reward(answer, gt)).toMatchObject({ format: 1, action: 1, score: 2 });
  });
});

describe("bridge grpo (verl parquet)", () => {
  let rows: Record<string, unknown>[];
  let out: string;
  beforeAll(async () => {
    const { dir } = await standardExport();
    out = await tempDir();
    expect(
      await runBridge(["grpo", dir, "--out", out, "--target", "verl", "--rule", "ui-s1", "--max-pixels", "1003520"], captureIo()),
    ).toBe(0);
    const file = await asyncBufferFromFile(path.join(out, "mobile_use_grpo.parquet"));
    rows = (await parquetReadObjects({ file })) as Record<string, unknown>[];
  });

  const verlRowSchema = z.object({
    data_source: z.literal("trajectory_studio_ui_s1"),
    // --rule ui-s1: UI-S1's own layout (ui-s1-prompt.ts): history turns, the last two screenshots.
    prompt: z.array(z.object({ role: z.string(), content: z.string() })).min(2),
    images: z
      .array(z.object({ image: z.string().regex(/^images\/[0-9a-f]{64}\.png$/), max_pixels: z.bigint(), min_pixels: z.bigint() }))
      .min(1)
      .max(2),
    ability: z.literal("gui"),
    reward_model: z.object({ style: z.literal("rule"), ground_truth: z.string() }),
    extra_info: z.object({
      index: z.bigint(),
      trajectory_id: z.string(),
      step: z.number(),
      app: z.string(),
      annotation: z.string(),
      width: z.number(),
      height: z.number(),
      resized_width: z.number(),
      resized_height: z.number(),
    }),
  });

  it("reads back with the verl columns, one image per <image>, images resized as exported", () => {
    expect(rows).toHaveLength(6);
    for (const [i, raw] of rows.entries()) {
      const row = verlRowSchema.parse(raw);
      expect(row.extra_info.index).toBe(BigInt(i));
      expect(row.prompt.reduce((n, m) => n + m.content.split("<image>").length - 1, 0)).toBe(row.images.length);
      expect(row.images[0]!.max_pixels).toBe(1003520n);
      expect(existsSync(path.join(out, row.images[0]!.image))).toBe(true);
      groundTruthSchema.parse(JSON.parse(row.reward_model.ground_truth));
    }
    const en = verlRowSchema.parse(rows[1]);
    expect(en.extra_info).toMatchObject({
      trajectory_id: "traj-en",
      step: 1,
      width: 1080,
      height: 2400,
      resized_width: 672,
      resized_height: 1484,
    });
    expect(en.prompt[0]!.content).toContain("You are a GUI agent.");
    expect(en.images).toHaveLength(2);
  });

  it("carries UI-S1's own ground-truth shape too: {check_options, num_steps} as TrajDataset.fix_line builds it, beside extra_info's frames", () => {
    // gui_action_match_compute_score(solution, json.loads(ground_truth), extra_info) reads ground_truth['check_options'],
    // ground_truth['num_steps'] and extra_info width/height/resized_width/resized_height; nothing else.
    const byStep = new Map(rows.map((r) => verlRowSchema.parse(r)).map((r) => [`${r.extra_info.trajectory_id}:${r.extra_info.step}`, r]));
    const click = JSON.parse(byStep.get("traj-en:1")!.reward_model.ground_truth) as Record<string, unknown>;
    // fix_line: a copy of action_content (the call plus the target box as bbox), the annotation, candidate_bbox = bbox only.
    expect(click.check_options).toEqual({
      action: "click",
      coordinate: [925, 405],
      bbox: [850, 350, 1000, 460],
      annotation: "GOOD",
      candidate_bbox: [850, 350, 1000, 460],
    });
    expect(click.check_options).toEqual(
      Object.fromEntries(uiS1TrainCheckOptions({ action: "click", coordinate: [925, 405], bbox: [850, 350, 1000, 460] }, "GOOD")),
    );
    expect(click.num_steps).toBe(5);
    const harmful = JSON.parse(byStep.get("traj-en:2")!.reward_model.ground_truth) as Record<string, unknown>;
    expect(harmful.check_options).toEqual({
      action: "swipe",
      coordinate: [540, 1800],
      coordinate2: [540, 600],
      annotation: "HARMFUL",
      candidate_bbox: [],
    });
    // traj-zh is cut after its first step: UI-S1 sees a one-step trajectory.
    expect((JSON.parse(byStep.get("traj-zh:0")!.reward_model.ground_truth) as Record<string, unknown>).num_steps).toBe(1);
  });

  it("is scored by the written Python plugin's compute_score", async () => {
    expect(await runBridge(["reward-plugin", "--out", out], captureIo())).toBe(0);
    const row = verlRowSchema.parse(rows[1]);
    // (925, 405) original -> (576, 250) at 672x1484: a hit; the UI-S1 rule gives 0.1 + 0.9.
    const answer = '<think>\nx\n</think>\n<action>\n{"action": "click", "coordinate": [576, 250]}\n</action>';
    const script = [
      "import importlib.util, json, sys",
      `spec = importlib.util.spec_from_file_location('p', ${JSON.stringify(path.join(out, REWARD_PLUGIN_NAME))})`,
      "p = importlib.util.module_from_spec(spec); spec.loader.exec_module(p)",
      "a = json.loads(sys.stdin.read())",
      "print(json.dumps(p.compute_score(a['ds'], a['answer'], a['gt'], {})))",
    ].join("\n");
    const run = spawnSync("python3", ["-B", "-I", "-S", "-c", script], {
      input: JSON.stringify({ ds: row.data_source, answer, gt: row.reward_model.ground_truth }),
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toMatchObject({ score: 1, format: 1, action: 1, extract_match: 1 });
  });
});

describe("printed trainer settings name the data file so that a shell and Hydra read it whole", () => {
  it("quotes data.train_files (verl, UI-S1) for a folder with a space and CJK, and names it under --image-root", async () => {
    const { dir } = await standardExport();
    const out = path.join(await tempDir(), "导出 v1 grpo");
    const io = captureIo();
    expect(await runBridge(["grpo", dir, "--out", out, "--target", "verl", "--embed-images"], io)).toBe(0);
    expect(io.err()).toContain(`  'data.train_files="${out}/mobile_use_grpo.parquet"'\n`);
    const rooted = captureIo();
    expect(await runBridge(["grpo", dir, "--out", out, "--target", "verl", "--image-root", "/data/训练 v1"], rooted)).toBe(0);
    expect(rooted.err()).toContain(`  'data.train_files="/data/训练 v1/mobile_use_grpo.parquet"'\n`);
    const swift = captureIo();
    expect(await runBridge(["grpo", dir, "--out", out, "--target", "ms-swift", "--image-root", "/data/训练 v1"], swift)).toBe(0);
    expect(swift.err()).toContain(`--dataset '/data/训练 v1/mobile_use_grpo.jsonl'`);
    const traj = captureIo();
    const trajOut = path.join(await tempDir(), "导出 v1 traj");
    expect(await runBridge(["traj", dir, "--out", trajOut, "--target", "ui-s1"], traj)).toBe(0);
    expect(traj.err()).toContain(`  'data.train_files="${trajOut}/ui_s1_trajectories.jsonl"'\n`);
  });
});
