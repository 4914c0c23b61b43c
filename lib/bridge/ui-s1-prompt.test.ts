import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Template } from "@huggingface/jinja";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { framePair, toResizedPoint, type FramePair } from "@/lib/domain/geometry";
import type { Verdict } from "@/lib/domain/trajectory";
import { runBridge } from "./cli";
import { REWARD_PLUGIN_NAME } from "./reward-plugin";
import { groundTruthSchema, uiS1Reward, type GroundTruth } from "@/lib/domain/rewards";
import {
  captureIo,
  EN_SCREENSHOT,
  loadShot,
  makeStep,
  makeTrajectory,
  readJsonl,
  REFERENCE_DIR,
  tempDir,
  writeExport,
  ZH_SCREENSHOT,
  type Shot,
} from "./test-fixtures";
import {
  slimMessages,
  UI_S1_MAX_PIXELS,
  UI_S1_MIN_PIXELS,
  UI_S1_PROMPT_ACTIONS,
  UI_S1_RAW_SPACE,
  uiS1ChatMessages,
  uiS1FormatResponse,
  uiS1GeneratePrompt,
  uiS1ImageSize,
  uiS1JsonDumps,
  uiS1StepMessages,
  uiS1SystemPrompt,
  type UiS1Message,
  type UiS1PromptStep,
} from "./ui-s1-prompt";
import { loadUiS1PromptVectors, type UiS1PromptVectors } from "./vectors/vectors";

const vectors = loadUiS1PromptVectors();
type VectorTrajectory = UiS1PromptVectors["trajectories"][number];

const uiS1Frames = (width: number, height: number): FramePair => ({
  original: { width, height },
  resized: uiS1ImageSize({ width, height }).resized,
});
const promptSteps = (t: VectorTrajectory): UiS1PromptStep[] =>
  t.steps.map((s) => ({ image: s.image, frames: uiS1Frames(s.width, s.height), call: s.call, thought: s.thought }));
const vectorGroundTruth = (s: VectorTrajectory["steps"][number], frames: FramePair): GroundTruth => ({
  gt_action: s.call,
  gt_bbox: s.box,
  candidate_bbox: [],
  orig_wh: [frames.original.width, frames.original.height],
  resized_wh: [frames.resized.width, frames.resized.height],
  annotation: s.annotation,
});
const rounds = vectors.trajectories.flatMap((t) => t.rounds.map((r) => [`${t.name} step ${r.step}`, t, r] as const));

describe("UI-S1 prompt vector table", () => {
  it("comes from the pinned UI-S1 commit and covers every action, both frames' edges and the history window", () => {
    expect(vectors.upstream).toMatchObject({ commit: "11cea575561fb7800b5fb6b6cafa56f7a91de11f", licence: "MIT" });
    const actions = new Set(vectors.trajectories.flatMap((t) => t.steps.map((s) => s.call.action)));
    expect([...actions].sort()).toEqual([...UI_S1_PROMPT_ACTIONS].sort());
    expect(Math.max(...vectors.trajectories.map((t) => t.rounds.length))).toBeGreaterThan(3);
    expect(vectors.frames.some((f) => f.width * f.height > UI_S1_MAX_PIXELS)).toBe(true);
    expect(vectors.frames.some((f) => f.width * f.height < UI_S1_MIN_PIXELS * 2)).toBe(true);
  });
});

describe("UI-S1 system prompt (generate_prompt on RAW_SPACE inside MOBILE_USE)", () => {
  it("is gen_next_round's system prompt byte for byte", () => {
    expect(uiS1SystemPrompt()).toBe(vectors.system_prompt);
    for (const t of vectors.trajectories)
      for (const r of t.rounds) expect(r.messages[0]).toEqual({ role: "system", content: [{ text: vectors.system_prompt }] });
  });

  it("reproduces generate_prompt with the add_thought gen_next_round passes (None) and with True", () => {
    expect(uiS1GeneratePrompt(UI_S1_RAW_SPACE, false)).toBe(vectors.generate_prompt.as_gen_next_round_calls_it);
    expect(uiS1GeneratePrompt(UI_S1_RAW_SPACE, true)).toBe(vectors.generate_prompt.add_thought_true);
    // The examples gen_next_round shows carry no <think>, although the output format asks for one.
    expect(vectors.system_prompt).not.toContain("<think>\n...\n</think>");
  });

  it("offers every RAW_SPACE action, answer included", () => {
    expect(UI_S1_PROMPT_ACTIONS).toEqual(vectors.raw_space_actions);
    for (const a of UI_S1_PROMPT_ACTIONS) expect(uiS1SystemPrompt()).toContain(`\n- ${a}: `);
  });
});

describe("UI-S1 frames (update_image_size_)", () => {
  it.each(vectors.frames.map((f) => [`${f.width}x${f.height}`, f] as const))("%s", (_name, f) => {
    if (f.error !== null) {
      expect(() => uiS1ImageSize(f)).toThrow();
      return;
    }
    expect(uiS1ImageSize(f)).toEqual({ resized: { width: f.resized_width, height: f.resized_height }, seqLen: f.seq_len });
  });

  it("equal the bridge's smart_resize at --max-pixels 10035200 --min-pixels 784, except for a side under 14 pixels", () => {
    for (const f of vectors.frames) {
      if (f.error !== null) continue;
      const bridge = framePair(f, UI_S1_MAX_PIXELS, UI_S1_MIN_PIXELS).resized;
      const same = bridge.width === f.resized_width && bridge.height === f.resized_height;
      expect(same, `${f.width}x${f.height}`).toBe(Math.min(f.width, f.height) >= 14);
    }
  });
});

describe("UI-S1 model input per step (gen_next_round + slim_messages(num_image_limit=2))", () => {
  it.each(rounds)("%s", (_name, t, r) => {
    const messages = uiS1StepMessages(t.goal, promptSteps(t), r.step);
    // JSON text comparison: key order and every byte of every text.
    expect(JSON.stringify(messages)).toBe(JSON.stringify(r.messages));
    const flat = uiS1ChatMessages(messages);
    expect(flat.images).toEqual(t.steps.slice(Math.max(0, r.step - 1), r.step + 1).map((s) => s.image));
    expect(flat.messages.map((m) => m.role)).toEqual(r.messages.map((m) => m.role));
  });

  it("writes format_response for every step, coordinates in the resized frame with UI-S1's rounding", () => {
    for (const t of vectors.trajectories) {
      const steps = promptSteps(t);
      for (const r of t.rounds) {
        const s = steps[r.step]!;
        expect(uiS1FormatResponse(s.thought, s.call, s.frames)).toBe(r.answers.format_response.response);
      }
    }
    // 750 * (2408 / 2400) is 752.5000000000001 in Python and rounds to 753; the studio's toResizedPoint
    // (750 * 2408 / 2400 = 752.5 exactly, half to even) gives 752.
    const longPress = vectors.trajectories[0]!.rounds[2]!.answers.format_response.response;
    expect(longPress).toContain('"coordinate": [546, 753]');
    expect(toResizedPoint([540, 750], uiS1Frames(1080, 2400))).toEqual([546, 752]);
  });

  it("renders through the Qwen2-VL chat template exactly as upstream's list content does, once flattened to <image> rows", () => {
    const template = new Template(readFileSync(path.join(REFERENCE_DIR, "qwen2-vl-chat-template.jinja"), "utf8"));
    // How verl's RLHFDataset and ms-swift turn a string with <image> back into content parts.
    const split = (m: { role: string; content: string }) => ({
      role: m.role,
      content: m.content
        .split("<image>")
        .flatMap((text, i) => [...(i > 0 ? [{ type: "image" }] : []), ...(text ? [{ type: "text", text }] : [])]),
    });
    for (const [, , r] of rounds) {
      // UI-S1's trainer: processor.apply_chat_template(messages, add_generation_prompt=True) on the slimmed messages.
      const upstream = template.render({ messages: r.messages, add_generation_prompt: true });
      const ours = template.render({
        messages: uiS1ChatMessages(r.messages as UiS1Message[]).messages.map(split),
        add_generation_prompt: true,
      });
      expect(ours).toBe(upstream);
      expect(upstream.split("<|image_pad|>").length - 1).toBe(Math.min(2, r.step + 1));
    }
  });

  it("slim_messages keeps the last images and every text", () => {
    const m: UiS1Message[] = [
      { role: "user", content: [{ text: "a" }, { image: "1", height: 1, width: 1, resized_height: 28, resized_width: 28, seq_len: 3 }] },
      { role: "user", content: [{ image: "2", height: 1, width: 1, resized_height: 28, resized_width: 28, seq_len: 3 }, { text: "b" }] },
      { role: "user", content: [{ image: "3", height: 1, width: 1, resized_height: 28, resized_width: 28, seq_len: 3 }] },
    ];
    expect(uiS1ChatMessages(slimMessages(m, 2))).toEqual({
      messages: [
        { role: "user", content: "a" },
        { role: "user", content: "<image>b" },
        { role: "user", content: "<image>" },
      ],
      images: ["2", "3"],
      sizes: [
        { width: 28, height: 28 },
        { width: 28, height: 28 },
      ],
    });
    expect(uiS1ChatMessages(slimMessages(m, 0)).images).toEqual(["1", "2", "3"]);
  });

  it("prints numbers as Python prints what json.loads read", () => {
    expect(uiS1JsonDumps({ action: "wait", time: 2 })).toBe('{"action": "wait", "time": 2}');
    expect(uiS1JsonDumps([1.5, 0.0001, 0.00001, 1.5e-7, 1e21, -0.25])).toBe("[1.5, 0.0001, 1e-05, 1.5e-07, 1e+21, -0.25]");
    expect(uiS1JsonDumps({ text: 'a"\\\n\t\u0001é😀' })).toBe('{"text": "a\\"\\\\\\n\\t\\u0001é😀"}');
  });
});

describe("UI-S1's reward on UI-S1's own answers (gui_action_match_compute_score)", () => {
  it.each(rounds)("%s: TypeScript rule equals upstream", (_name, t, r) => {
    const s = t.steps[r.step]!;
    const gt = vectorGroundTruth(s, uiS1Frames(s.width, s.height));
    for (const key of ["format_response", "mobile_r1_layout"] as const) {
      const a = r.answers[key];
      const got = uiS1Reward(a.response, gt);
      expect({ score: got.score, format_score: got.format, type_match: got.typeMatch, extract_match: got.extractMatch }, key).toEqual({
        score: a.score,
        format_score: a.format_score,
        type_match: a.type_match,
        extract_match: a.extract_match,
      });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// bridge grpo --rule ui-s1
// ---------------------------------------------------------------------------------------------

const VERDICT: Record<string, Verdict> = { GOOD: "good", NEUTRAL: "neutral", HARMFUL: "harmful" };

/** An export holding the vector trajectories whose screenshots the fixtures have (1080x2400 and 720x1280). */
async function vectorExport(): Promise<{ dir: string; used: VectorTrajectory[]; shots: Map<string, Shot> }> {
  const en = await loadShot(EN_SCREENSHOT, 1080, 2400);
  const zh = await loadShot(ZH_SCREENSHOT, 720, 1280);
  const shotFor = (w: number, h: number) => (w === 1080 && h === 2400 ? en : w === 720 && h === 1280 ? zh : undefined);
  const used = vectors.trajectories.filter((t) => t.steps.every((s) => shotFor(s.width, s.height)));
  const shots = new Map<string, Shot>();
  const trajectories = used.map((t) =>
    makeTrajectory(
      t.steps.map((s, i) => {
        const shot = shotFor(s.width, s.height)!;
        shots.set(s.image, shot);
        return makeStep(i, shot, s.call, { box: s.box, thought: s.thought, verdict: VERDICT[s.annotation] });
      }),
      { id: t.name, instruction: t.goal },
    ),
  );
  return { dir: await writeExport(trajectories, [en, zh]), used, shots };
}

/** What UI-S1's format_response writes for a row's ground truth (thought from the export), and a wrong answer. */
function answersFor(gt: GroundTruth, thought: string): { right: string; wrong: string } {
  const frames = {
    original: { width: gt.orig_wh[0], height: gt.orig_wh[1] },
    resized: { width: gt.resized_wh[0], height: gt.resized_wh[1] },
  };
  const right = uiS1FormatResponse(thought, gt.gt_action, frames);
  // The Mobile-R1 layout of the same call: what the cookbook prompt asks for. UI-S1's parser finds no <action> JSON.
  const call = JSON.parse(right.slice(right.indexOf("<action>\n") + 9, right.lastIndexOf("\n</action>"))) as unknown;
  const wrong = `<think>\n${thought}\n</think>\n<action>\nx\n</action>\n<tool_call>\n${JSON.stringify({ name: "mobile_use", arguments: call })}\n</tool_call>`;
  return { right, wrong };
}

const pythonResultSchema = z.array(z.object({ verl: z.number(), swift: z.number() }));

/** Score every (answer, row) pair with the written Python plugin: verl compute_score and the ms-swift column path. */
function pythonScores(
  pluginDir: string,
  items: { answer: string; verlGt: string; swift: Record<string, unknown> }[],
): z.infer<typeof pythonResultSchema> {
  const script = [
    "import importlib.util, json, sys",
    `spec = importlib.util.spec_from_file_location('p', ${JSON.stringify(path.join(pluginDir, REWARD_PLUGIN_NAME))})`,
    "p = importlib.util.module_from_spec(spec); spec.loader.exec_module(p)",
    "out = []",
    "for it in json.loads(sys.stdin.read()):",
    "    verl = p.compute_score('trajectory_studio_ui_s1', it['answer'], it['verlGt'], {})['score']",
    "    (text, gt), = p._rows([it['answer']], {k: [v] for k, v in it['swift'].items()})",
    "    out.append({'verl': verl, 'swift': float(p.ui_s1_reward(text, gt)['score'])})",
    "print(json.dumps(out))",
  ].join("\n");
  const run = spawnSync("python3", ["-B", "-I", "-S", "-c", script], {
    input: JSON.stringify(items),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(run.stderr).toBe("");
  return pythonResultSchema.parse(JSON.parse(run.stdout));
}

const swiftRowSchema = z.object({
  messages: z.array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() })),
  images: z.array(z.string()),
  gt_action: z.string(),
  gt_bbox: z.array(z.number()).nullable(),
  candidate_bbox: z.array(z.array(z.number())),
  orig_wh: z.tuple([z.number(), z.number()]),
  resized_wh: z.tuple([z.number(), z.number()]),
  annotation: z.enum(["GOOD", "HARMFUL", "NEUTRAL"]),
  trajectory_id: z.string(),
  step: z.number(),
});
const verlRowSchema = z.object({
  data_source: z.literal("trajectory_studio_ui_s1"),
  prompt: z.array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() })),
  images: z.array(z.object({ image: z.string(), max_pixels: z.bigint(), min_pixels: z.bigint() })),
  reward_model: z.object({ style: z.literal("rule"), ground_truth: z.string() }),
  extra_info: z.object({ trajectory_id: z.string(), step: z.number() }).passthrough(),
});

describe("bridge grpo --rule ui-s1 writes UI-S1's prompt", () => {
  let exp: Awaited<ReturnType<typeof vectorExport>>;
  let swift: z.infer<typeof swiftRowSchema>[];
  let verl: z.infer<typeof verlRowSchema>[];
  let swiftOut: string;
  let verlOut: string;
  let pluginDir: string;
  beforeAll(async () => {
    exp = await vectorExport();
    swiftOut = await tempDir();
    verlOut = await tempDir();
    expect(await runBridge(["grpo", exp.dir, "--out", swiftOut, "--target", "ms-swift", "--rule", "ui-s1"], captureIo())).toBe(0);
    expect(await runBridge(["grpo", exp.dir, "--out", verlOut, "--target", "verl", "--rule", "ui-s1"], captureIo())).toBe(0);
    swift = (await readJsonl(path.join(swiftOut, "mobile_use_grpo.jsonl"))).map((r) => swiftRowSchema.parse(r));
    const file = await asyncBufferFromFile(path.join(verlOut, "mobile_use_grpo.parquet"));
    verl = ((await parquetReadObjects({ file })) as unknown[]).map((r) => verlRowSchema.parse(r));
    pluginDir = verlOut;
    expect(await runBridge(["reward-plugin", "--out", pluginDir], captureIo())).toBe(0);
  });

  it("writes one row per vector round, each prompt equal to upstream's messages, its images the steps' screenshots", () => {
    const expected = exp.used.flatMap((t) => t.rounds.map((r) => ({ t, r })));
    expect(swift.map((r) => `${r.trajectory_id}:${r.step}`)).toEqual(expected.map(({ t, r }) => `${t.name}:${r.step}`));
    expect(verl).toHaveLength(swift.length);
    for (const [i, { t, r }] of expected.entries()) {
      // Rows name screenshots images/<sha256>.png, relative to the output folder (images.ts).
      const shotPath = (image: string) => `images/${path.basename(exp.shots.get(image)!.file)}`;
      const upstream = uiS1ChatMessages(r.messages as UiS1Message[]);
      expect(swift[i]!.messages, `${t.name} ${r.step}`).toEqual(upstream.messages);
      expect(swift[i]!.images).toEqual(upstream.images.map(shotPath));
      expect(verl[i]!.prompt).toEqual(upstream.messages);
      expect(verl[i]!.images.map((im) => im.image)).toEqual(upstream.images.map(shotPath));
      for (const p of swift[i]!.images) expect(existsSync(path.join(swiftOut, p))).toBe(true);
      for (const im of verl[i]!.images) expect(existsSync(path.join(verlOut, im.image))).toBe(true);
      // The row's frame is UI-S1's (default --max-pixels): ground truth normalises the answer by it.
      expect(swift[i]!.resized_wh).toEqual([r.extra_info.resized_width, r.extra_info.resized_height]);
    }
  });

  it("never uses an action in ground truth or history that the row's system prompt does not offer", () => {
    for (const row of swift) {
      const system = row.messages[0]!.content;
      expect(system).toBe(uiS1SystemPrompt());
      const used = [(JSON.parse(row.gt_action) as { action: string }).action];
      for (const m of row.messages.filter((x) => x.role === "assistant"))
        used.push((JSON.parse(/<action>\n([\s\S]*)\n<\/action>/.exec(m.content)![1]!) as { action: string }).action);
      for (const a of used) expect(system, a).toContain(`\n- ${a}: `);
    }
  });

  it("scores UI-S1's format_response of each row's ground truth 1.0 where UI-S1's reward can, in TypeScript and in the Python plugin; the Mobile-R1 layout 0", () => {
    const items: { answer: string; verlGt: string; swift: Record<string, unknown> }[] = [];
    const expectedRight: number[] = [];
    for (const [i, row] of swift.entries()) {
      const t = exp.used.find((x) => x.name === row.trajectory_id)!;
      const step = t.steps[row.step]!;
      const round = t.rounds[row.step]!;
      const verlGt = verl[i]!.reward_model.ground_truth;
      const gt = groundTruthSchema.parse(JSON.parse(verlGt));
      expect(gt).toEqual(groundTruthSchema.parse({ ...row, gt_action: JSON.parse(row.gt_action) }));
      const { right, wrong } = answersFor(gt, step.thought);
      // The answer is upstream's own format_response for this step (vector), and upstream scored it.
      expect(right).toBe(round.answers.format_response.response);
      const expectRight = round.answers.format_response.score;
      // 1.0 unless UI-S1's reward itself cannot give it to the right answer (README "Prompts per rule").
      const a = step.call.action;
      const verticalSwipe =
        a === "swipe" &&
        Math.abs(step.call.coordinate2[1] - step.call.coordinate[1]) >= Math.abs(step.call.coordinate2[0] - step.call.coordinate[0]);
      const tagsInTexts = step.thought.includes("<action>") || JSON.stringify(step.call).includes("</action>");
      const quirk =
        step.annotation !== "GOOD" || a === "answer" || a === "key" || verticalSwipe || step.thought.trim() === "" || tagsInTexts;
      if (!quirk) expect(expectRight, `${row.trajectory_id} ${row.step}`).toBe(1);
      expect(uiS1Reward(right, gt).score).toBe(expectRight);
      expect(uiS1Reward(wrong, gt).score).toBe(0);
      expectedRight.push(expectRight);
      const swiftCols = {
        gt_action: row.gt_action,
        gt_bbox: row.gt_bbox,
        candidate_bbox: row.candidate_bbox,
        orig_wh: row.orig_wh,
        resized_wh: row.resized_wh,
        annotation: row.annotation,
      };
      items.push({ answer: right, verlGt, swift: swiftCols }, { answer: wrong, verlGt, swift: swiftCols });
    }
    expect(expectedRight.filter((s) => s === 1).length).toBeGreaterThanOrEqual(8);
    const py = pythonScores(pluginDir, items);
    expect(py).toEqual(
      expectedRight.flatMap((s) => [
        { verl: s, swift: s },
        { verl: 0, swift: 0 },
      ]),
    );
  });
});

describe("bridge grpo: other rules keep the cookbook prompt", () => {
  it("mobile-r1 rows carry the mobile_use tool prompt and one screenshot", async () => {
    const { dir } = await vectorExport();
    const out = await tempDir();
    expect(await runBridge(["grpo", dir, "--out", out, "--target", "ms-swift", "--rule", "mobile-r1"], captureIo())).toBe(0);
    const rows = (await readJsonl(path.join(out, "mobile_use_grpo.jsonl"))).map((r) => swiftRowSchema.parse(r));
    for (const row of rows) {
      expect(row.messages.map((m) => m.role)).toEqual(["system", "user"]);
      expect(row.messages[0]!.content).toContain("<tools>");
      expect(row.images).toHaveLength(1);
    }
  });
});

describe("bridge grpo --rule ui-s1: the previous screenshot is part of the row", () => {
  it("reports a row whose previous step's screenshot is missing, with trajectory and step, and exits 1", async () => {
    const en = await loadShot(EN_SCREENSHOT, 1080, 2400);
    const zh = await loadShot(ZH_SCREENSHOT, 720, 1280);
    const t = makeTrajectory([makeStep(0, zh, { action: "system_button", button: "Home" }), makeStep(1, en, { action: "wait", time: 1 })], {
      id: "gap",
    });
    const dir = await writeExport([t], [en, zh], { omitShots: [zh.sha256] });
    const out = await tempDir();
    const io = captureIo();
    expect(await runBridge(["grpo", dir, "--out", out, "--target", "ms-swift", "--rule", "ui-s1"], io)).toBe(1);
    expect(io.err()).toMatch(/gap.*step 1.*previous step's screenshot .*missing/s);
    expect(existsSync(path.join(out, "mobile_use_grpo.jsonl"))).toBe(false);
    // The cookbook prompt needs only the step's own screenshot: step 1 is written there.
    const out2 = await tempDir();
    expect(
      await runBridge(["grpo", dir, "--out", out2, "--target", "ms-swift", "--rule", "mobile-r1", "--allow-problems"], captureIo()),
    ).toBe(0);
    expect(await readJsonl(path.join(out2, "mobile_use_grpo.jsonl"))).toHaveLength(1);
  });
});

describe("bridge grpo --target verl --rule ui-s1 --embed-images", () => {
  it("embeds the bytes of both screenshots a row shows, in order", async () => {
    const exp = await vectorExport();
    const out = await tempDir();
    expect(await runBridge(["grpo", exp.dir, "--out", out, "--target", "verl", "--rule", "ui-s1", "--embed-images"], captureIo())).toBe(0);
    const file = await asyncBufferFromFile(path.join(out, "mobile_use_grpo.parquet"));
    // utf8: false reads the un-annotated bytes column as bytes, as pyarrow does.
    const rows = (await parquetReadObjects({ file, utf8: false })) as {
      prompt: { content: string }[];
      images: { bytes: Uint8Array }[];
      extra_info: { trajectory_id: string; step: number };
    }[];
    const expected = exp.used.flatMap((t) => t.rounds.map((r) => ({ t, r })));
    expect(rows).toHaveLength(expected.length);
    for (const [i, { t, r }] of expected.entries()) {
      const row = rows[i]!;
      expect(`${row.extra_info.trajectory_id}:${row.extra_info.step}`).toBe(`${t.name}:${r.step}`);
      const shots = uiS1ChatMessages(r.messages as UiS1Message[]).images.map((image) => exp.shots.get(image)!);
      expect(row.images).toHaveLength(Math.min(2, r.step + 1));
      expect(row.images.map((im, k) => Buffer.from(im.bytes).equals(shots[k]!.bytes))).toEqual(shots.map(() => true));
      expect(row.prompt.reduce((n, m) => n + m.content.split("<image>").length - 1, 0)).toBe(row.images.length);
    }
  });
});
