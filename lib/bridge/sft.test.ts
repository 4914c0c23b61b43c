import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Template } from "@huggingface/jinja";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { smartResize } from "@/lib/domain/geometry";
import { parseModelOutput } from "@/lib/domain/model-output";
import { normalizeAction } from "@/lib/domain/normalize";
import { MOBILE_R1_RELEASE_IMAGES, MOBILE_R1_RELEASE_JSONL } from "@/fixtures";
import { runBridge } from "./cli";
import {
  captureIo,
  EN_INSTRUCTION,
  loadShot,
  makeStep,
  makeTrajectory,
  readJsonl,
  REFERENCE_DIR,
  standardExport,
  tempDir,
  writeExport,
  type Shot,
} from "./test-fixtures";

const rowSchema = z.object({
  messages: z.array(z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() })),
  images: z.array(z.string()),
});
type Row = z.infer<typeof rowSchema>;

const template = new Template(readFileSync(path.join(REFERENCE_DIR, "qwen2-vl-chat-template.jinja"), "utf8"));
const VISION = "<|vision_start|><|image_pad|><|vision_end|>";

/** What ms-swift / HF processors do before templating: each `<image>` becomes an image content part. */
function toHfMessages(messages: Row["messages"]) {
  return messages.map((m) => {
    if (!m.content.includes("<image>")) return { role: m.role, content: m.content };
    const parts = m.content
      .split("<image>")
      .flatMap((text, i) => [...(i > 0 ? [{ type: "image" }] : []), ...(text ? [{ type: "text", text }] : [])]);
    return { role: m.role, content: parts };
  });
}
function render(messages: Row["messages"], addGenerationPrompt: boolean): string {
  return template.render({ messages: toHfMessages(messages), add_generation_prompt: addGenerationPrompt });
}
const count = (s: string, sub: string) => s.split(sub).length - 1;

async function sft(args: string[]) {
  const io = captureIo();
  const code = await runBridge(["sft", ...args], io);
  return { code, io };
}

describe("bridge sft (ms-swift)", () => {
  let rows: Row[];
  let exportDir: string;
  let outDir: string;
  let code: number;
  beforeAll(async () => {
    exportDir = (await standardExport()).dir;
    outDir = await tempDir();
    const r = await sft([exportDir, "--out", outDir, "--target", "ms-swift"]);
    code = r.code;
    rows = (await readJsonl(path.join(outDir, "mobile_use_sft.jsonl"))).map((x) => rowSchema.parse(x));
  });

  it("writes one row per training-target step: no harmful, none after the cut, no discarded trajectory", () => {
    expect(code).toBe(0);
    // traj-en: steps 0, 1, 3, 4 (2 is harmful); traj-zh: step 0 (cut after 0); traj-discarded: none.
    expect(rows).toHaveLength(5);
    const users = rows.map((r) => r.messages[1]!.content);
    expect(users.filter((u) => u.includes(EN_INSTRUCTION))).toHaveLength(4);
    expect(rows.some((r) => r.messages[2]!.content.includes('"action": "swipe"'))).toBe(false);
    expect(rows.some((r) => r.messages[2]!.content.includes('"action": "type"'))).toBe(false);
    expect(rows.some((r) => r.messages[2]!.content.includes('"action": "wait"'))).toBe(false);
  });

  it("renders the click step through the Qwen2-VL template exactly as the cookbook prompt", () => {
    const click = rows.find((r) => r.messages[2]!.content.includes('"coordinate": [935, 406]'));
    expect(click).toBeDefined();
    const reference = readFileSync(path.join(REFERENCE_DIR, "qwen-cookbook-mobile-en-1080x2400.txt"), "utf8");
    const promptPart = reference.slice(0, reference.indexOf("<|im_start|>assistant\n") + "<|im_start|>assistant\n".length);
    expect(render(click!.messages.slice(0, 2), true)).toBe(promptPart);
  });

  it("writes the cookbook's answer coordinates in the Mobile-R1 target layout", () => {
    const click = rows.find((r) => r.messages[2]!.content.includes("[935, 406]"))!;
    expect(click.messages[2]!.content).toBe(
      '<think>\nState 1. Next action 1. Purpose 1.\n</think>\n<action>\nDo step 1\n</action>\n<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [935, 406]}}\n</tool_call>',
    );
    const zh = rows.find((r) => r.messages[1]!.content.includes("盒马"))!;
    expect(zh.messages[0]!.content).toContain("The screen's resolution is 728x1288.");
    expect(zh.messages[2]!.content).toContain('"coordinate": [639, 1095]');
  });

  it("pairs every image placeholder with exactly one image the output folder carries (relative to it), also after templating", () => {
    for (const row of rows) {
      const tags = row.messages.reduce((n, m) => n + count(m.content, "<image>"), 0);
      expect(tags).toBe(row.images.length);
      for (const image of row.images) {
        expect(image).toMatch(/^images\/[0-9a-f]{64}\.png$/);
        expect(existsSync(path.join(outDir, image))).toBe(true);
      }
      expect(count(render(row.messages, false), VISION)).toBe(row.images.length);
    }
  });

  it("keeps the harmful step in later steps' history, in the resized frame", () => {
    const back = rows.find((r) => r.messages[2]!.content.includes('"button": "Back"'))!;
    // swipe (540, 1800) -> (546, 1806); (540, 600) -> (546, 602) at 1092x2408
    expect(back.messages[1]!.content).toContain(
      'Step 3: {"name": "mobile_use", "arguments": {"action": "swipe", "coordinate": [546, 1806], "coordinate2": [546, 602]}}; <image>',
    );
    expect(back.messages[1]!.content).toContain(
      'Step 2: {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [935, 406]}}; ',
    );
  });

  it("every target parses back with the domain parser and its coordinates lie inside the announced frame", () => {
    for (const row of rows) {
      const parsed = parseModelOutput(row.messages[2]!.content);
      expect(parsed.problems).toEqual([]);
      expect(parsed.tags).toEqual({ think: true, action: true, toolCall: true, inOrder: true });
      const res = /resolution is (\d+)x(\d+)\./.exec(row.messages[0]!.content)!;
      const [w, h] = [Number(res[1]), Number(res[2])];
      const call = parsed.toolCall!;
      if ("coordinate" in call) {
        expect(call.coordinate[0]).toBeLessThanOrEqual(w);
        expect(call.coordinate[1]).toBeLessThanOrEqual(h);
      }
    }
  });

  it("writes a summary with the counts", () => {
    const summary = JSON.parse(readFileSync(path.join(outDir, "mobile_use_sft.summary.json"), "utf8")) as Record<string, unknown>;
    expect(summary).toMatchObject({ rows: 5, skippedHarmful: 1, problems: 0, discardedTrajectories: 1, trajectories: 3 });
  });
});

describe("bridge sft at a lower max_pixels", () => {
  it("announces 672x1484 for 1080x2400 and converts coordinates with Python rounding", async () => {
    const { dir } = await standardExport();
    const out = await tempDir();
    const { code } = await sft([dir, "--out", out, "--target", "ms-swift", "--max-pixels", "1003520"]);
    expect(code).toBe(0);
    expect(smartResize({ width: 1080, height: 2400 }, { maxPixels: 1003520 })).toEqual({ width: 672, height: 1484 });
    const rows = (await readJsonl(path.join(out, "mobile_use_sft.jsonl"))).map((x) => rowSchema.parse(x));
    const click = rows.find((r) => r.messages[2]!.content.includes('"action": "click"') && r.messages[0]!.content.includes("672x1484"))!;
    // 925 * 672 / 1080 = 575.56 -> 576; 405 * 1484 / 2400 = 250.425 -> 250
    expect(click.messages[2]!.content).toContain('"coordinate": [576, 250]');
  });
});

describe("bridge sft (LLaMA-Factory)", () => {
  it("writes the same rows plus a sharegpt dataset_info.json entry, and says to set image_max_pixels", async () => {
    const { dir } = await standardExport();
    const out = await tempDir();
    const { code, io } = await sft([dir, "--out", out, "--target", "llamafactory"]);
    expect(code).toBe(0);
    const info = JSON.parse(readFileSync(path.join(out, "dataset_info.json"), "utf8")) as Record<string, unknown>;
    expect(info).toEqual({
      mobile_use_sft: {
        file_name: "mobile_use_sft.jsonl",
        formatting: "sharegpt",
        columns: { messages: "messages", images: "images" },
        tags: { role_tag: "role", content_tag: "content", user_tag: "user", assistant_tag: "assistant", system_tag: "system" },
      },
    });
    expect(io.err()).toContain("image_max_pixels: 12845056");
    const rows = (await readJsonl(path.join(out, "mobile_use_sft.jsonl"))).map((x) => rowSchema.parse(x));
    expect(rows.map((r) => r.messages.map((m) => m.role))).toEqual(Array(5).fill(["system", "user", "assistant"]));
  });
});

describe("bridge sft (LLaMA-Factory) writes rows in the frame LLaMA-Factory gives the model", () => {
  // LLaMA-Factory's _preprocess_image scales an image above image_max_pixels by sqrt(image_max_pixels / pixels),
  // truncating each side, before the Qwen2-VL image processor's own smart_resize (12845056 / 3136). For 1080x2340
  // at 1003520: 680x1474, then 672x1484. qwen-vl-utils (ms-swift) resizes the original at 1003520: 672x1456.
  it("announces and converts to 672x1484 for a 1080x2340 screenshot at --max-pixels 1003520 (ms-swift: 672x1456)", async () => {
    const bytes = await sharp({ create: { width: 1080, height: 2340, channels: 3, background: { r: 200, g: 220, b: 240 } } })
      .png()
      .toBuffer();
    const shotFile = path.join(await tempDir(), "1080x2340.png");
    writeFileSync(shotFile, bytes);
    const shot = await loadShot(shotFile, 1080, 2340);
    const dir = await writeExport(
      [
        makeTrajectory([makeStep(0, shot, { action: "click", coordinate: [540, 1170] }, { box: [400, 1000, 700, 1300] })], {
          id: "t-2340",
        }),
      ],
      [shot],
    );
    const run = async (target: string) => {
      const out = await tempDir();
      const { code, io } = await sft([dir, "--out", out, "--target", target, "--max-pixels", "1003520"]);
      expect(code).toBe(0);
      return { row: rowSchema.parse((await readJsonl(path.join(out, "mobile_use_sft.jsonl")))[0]), err: io.err() };
    };
    const lf = await run("llamafactory");
    expect(lf.row.messages[0]!.content).toContain("The screen's resolution is 672x1484.");
    // 540 * 672 / 1080 = 336; 1170 * 1484 / 2340 = 742
    expect(lf.row.messages[2]!.content).toContain('"coordinate": [336, 742]');
    expect(lf.err).toContain("image_max_pixels: 1003520");
    const swift = await run("ms-swift");
    expect(swift.row.messages[0]!.content).toContain("The screen's resolution is 672x1456.");
    expect(swift.row.messages[2]!.content).toContain('"coordinate": [336, 728]');
  });
});

describe("bridge sft --prompt source (each trajectory's own system prompt and response layout)", () => {
  type ReleaseRow = {
    instruction: string;
    system: string;
    trajectory: { image: string; thought: string; subtask: string; action: string; response: string }[];
  };
  const release = readFileSync(MOBILE_R1_RELEASE_JSONL, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as ReleaseRow);
  // Rows 1 and 4: images at the declared device size (1080x2400), so the file's pixels are the studio's.
  const [own, noSystem] = [release[0]!, release[3]!];

  /** The export a studio writes for a release row nobody changed (what import + export give, without the database). */
  async function exported(row: ReleaseRow) {
    const shots: Shot[] = [];
    const steps = [];
    for (const [i, s] of row.trajectory.entries()) {
      const file = path.join(MOBILE_R1_RELEASE_IMAGES, s.image);
      const { width, height } = await sharp(file).metadata();
      const shot = await loadShot(file, width!, height!);
      shots.push(shot);
      const call = normalizeAction(s.action);
      if (!call.ok) throw new Error(`fixture step ${i}: ${JSON.stringify(call.problems)}`);
      const step = makeStep(i, shot, call.call, { thought: s.thought, clearAction: s.subtask });
      steps.push({
        ...step,
        original: { response: s.response, thought: s.thought, clearAction: s.subtask, toolCall: call.call, rawAction: s.action },
      });
    }
    const t = makeTrajectory(steps, { instruction: row.instruction });
    return { trajectory: { ...t, source: "mobile-r1" as const, systemPrompt: row.system || null }, shots };
  }

  let rows: Row[];
  let summary: { prompt: string; rows: number; problems: number };
  let err: string;
  let dir: string;
  beforeAll(async () => {
    const a = await exported(own);
    const b = await exported(noSystem);
    dir = await writeExport([a.trajectory, b.trajectory], [...a.shots, ...b.shots]);
    const out = await tempDir();
    const r = await sft([dir, "--out", out, "--target", "ms-swift", "--prompt", "source", "--allow-problems"]);
    err = r.io.err();
    summary = JSON.parse(r.io.out()) as typeof summary;
    rows = (await readJsonl(path.join(out, "mobile_use_sft.jsonl"))).map((x) => rowSchema.parse(x));
  });

  it("carries the trajectory's own system prompt verbatim and says so in the summary and the hint", () => {
    expect(rows).toHaveLength(own.trajectory.length);
    for (const r of rows) expect(r.messages[0]).toEqual({ role: "system", content: own.system });
    expect(summary).toMatchObject({ prompt: "source", rows: own.trajectory.length });
    expect(err).toContain("prompt: source");
  });

  it("answers in the source's layout: an unchanged step with nothing to convert byte for byte, a click with its point in the resized frame", () => {
    const frame = smartResize({ width: 1080, height: 2400 }, {});
    own.trajectory.forEach((s, i) => {
      const answer = rows[i]!.messages[2]!.content;
      const call = JSON.parse(s.action) as { arguments: { action: string; coordinate?: [number, number] } };
      const point = call.arguments.coordinate;
      if (!point) return expect(answer, `step ${i}`).toBe(s.response);
      const resized = point.map((v, k) => Math.round((v * (k === 0 ? frame.width : frame.height)) / (k === 0 ? 1080 : 2400)));
      // Same tags, separators and double encoding; only the point differs.
      expect(answer, `step ${i}`).toBe(s.response.replace(`[${point.join(", ")}]`, `[${resized.join(", ")}]`));
      expect(answer).not.toBe(s.response);
    });
    expect(own.trajectory.some((s) => s.action.includes('"coordinate"'))).toBe(true);
    expect(own.trajectory.some((s) => !s.action.includes('"coordinate"'))).toBe(true);
  });

  it("a trajectory without a system prompt of its own is a problem for each of its rows (exit 1), never a cookbook row in disguise", async () => {
    expect(summary.problems).toBe(noSystem.trajectory.length);
    expect(err).toContain("no system prompt of its own");
    const r = await sft([dir, "--out", await tempDir(), "--target", "ms-swift", "--prompt", "source"]);
    expect(r.code).toBe(1);
  });

  it("--prompt cookbook (the default) keeps today's rows", async () => {
    const a = await exported(own);
    const dir = await writeExport([a.trajectory], a.shots);
    const [one, two] = [await tempDir(), await tempDir()];
    const r = await sft([dir, "--out", one, "--target", "ms-swift"]);
    await sft([dir, "--out", two, "--target", "ms-swift", "--prompt", "cookbook"]);
    expect(JSON.parse(r.io.out())).toMatchObject({ prompt: "cookbook" });
    expect(r.io.err()).toContain("prompt: cookbook");
    const first = rowSchema.parse((await readJsonl(path.join(one, "mobile_use_sft.jsonl")))[0]);
    expect(first.messages[0]!.content).toContain("The screen's resolution is 1092x2408.");
    expect(readFileSync(path.join(one, "mobile_use_sft.jsonl"), "utf8")).toBe(readFileSync(path.join(two, "mobile_use_sft.jsonl"), "utf8"));
  });
});
