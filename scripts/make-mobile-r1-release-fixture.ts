// Writes fixtures/mobile-r1-release/: synthetic trajectories in the Mobile-R1 release's published row
// shape (FORMATS.md §1.4), screens drawn by the demo generator. Run once; the output is committed:
//   node --import tsx scripts/make-mobile-r1-release-fixture.ts
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { buildTrajectory } from "@/lib/demo/flows";
import { renderScreen } from "@/lib/demo/generate";
import { pyJsonDumps, mapPoints, type ToolCall } from "@/lib/domain/tool-call";
import type { Size } from "@/lib/domain/geometry";

const OUT = path.join(process.cwd(), "fixtures", "mobile-r1-release");

/** The release's system prompt: a stub tool, the <tool_call> instructions, Chinese lines, the task. */
function releaseSystem(instruction: string): string {
  return [
    "# Tools",
    "",
    "You may call one or more functions to assist with the user query.",
    "",
    "You are provided with function signatures within <tools></tools> XML tags:",
    "<tools>",
    '{"type": "function", "function": {"name_for_human": "mobile_use", "name": "mobile_use", "description": "Use a touchscreen to interact with a mobile device."}}',
    "</tools>",
    "",
    "For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:",
    "<tool_call>",
    '{"name": <function-name>, "arguments": <args-json-object>}',
    "</tool_call>",
    "分析任务和历史动作,给出下一步操作。",
    "在标签<think> </think>内输出思考过程。",
    "在标签<action> </action>内输出这一步将要执行的动作。",
    "在标签<tool_call> </tool_call>内输出最终答案。",
    `用户任务: ${instruction}`,
  ].join("\n");
}

/** Python json.dumps with ensure_ascii=True: every non-ASCII character as \uXXXX. */
const asciiOnly = (s: string) => s.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

type Plan = {
  /** demo seed and index (a 1080x2400 flow with few steps) */
  seed: number;
  index: number;
  /** device size the row declares; coordinates are written in it */
  device: Size;
  /** size of the PNG files (differs from `device` when the release scaled its images) */
  png: Size;
  ensureAscii?: boolean;
  system?: string;
  extraTop?: Record<string, unknown>;
  extraStep?: Record<string, unknown>;
  /** the quirks of step 2 and 3 (see line()) */
  quirks?: boolean;
  /** replace step i's call (the Tap rows) */
  tapAt?: number;
  prefix: string;
};

/** Apps already used, so each row has its own app and instruction. */
const usedApps = new Set<string>();

/** The first short 1080x2400 demo flow from (seed, index) on of an app not used yet: seeds first, then the next app. */
function findFlow(seed: number, index: number, maxSteps: number) {
  for (let i = index; ; i++)
    for (let s = seed; s < seed + 50; s++) {
      const d = buildTrajectory(s, i);
      if (usedApps.has(d.app.name)) break;
      if (d.size.width === 1080 && d.size.height === 2400 && d.steps.length >= 3 && d.steps.length <= maxSteps) {
        usedApps.add(d.app.name);
        return d;
      }
    }
}

async function line(plan: Plan): Promise<string> {
  const d = findFlow(plan.seed, plan.index, 5);
  const scale = (v: number, to: number, from: number) => Math.round((v * to) / from);
  const toDevice = (c: ToolCall) => mapPoints(c, ([x, y]) => [scale(x, plan.device.width, 1080), scale(y, plan.device.height, 2400)]);
  const dump = (v: unknown) => (plan.ensureAscii ? asciiOnly(pyJsonDumps(v)) : pyJsonDumps(v));
  const steps = [];
  for (const [i, s] of d.steps.entries()) {
    const image = `${plan.prefix}_${i}.png`;
    const png = await renderScreen(s.layout.svg);
    const resized =
      plan.png.width === 1080 && plan.png.height === 2400
        ? png
        : await sharp(png).resize(plan.png.width, plan.png.height).png({ compressionLevel: 9 }).toBuffer();
    await writeFile(path.join(OUT, "images", image), resized);
    const args = plan.tapAt === i ? { action: "system_button", button: "Tap" } : toDevice(s.call);
    const action = dump({ name: "mobile_use", arguments: args });
    // The release encodes the call inside <tool_call> once more, as a JSON string.
    const quoted = plan.ensureAscii ? asciiOnly(JSON.stringify(action)) : JSON.stringify(action);
    // Quirks real rows have that a renderer cannot guess (only keeping the imported bytes gives them back):
    // on step 2 of the quirky row the `thought` field is shorter than the response's <think>, on step 3
    // the response ends with a newline.
    const quirk = plan.quirks ? i : -1;
    steps.push({
      image,
      thought: quirk === 2 ? s.thought.split("。")[0]! + "。" : s.thought,
      subtask: s.subtask,
      action,
      response: `<think>\n${s.thought}\n</think><action>\n${s.subtask}\n</action><tool_call>\n${quoted}\n</tool_call>${quirk === 3 ? "\n" : ""}`,
      ...(i === 1 ? plan.extraStep : {}),
    });
  }
  return JSON.stringify({
    app_name: d.app.name,
    trajectory_length: steps.length,
    instruction: d.instruction,
    system: plan.system ?? releaseSystem(d.instruction),
    image_width: plan.device.width,
    image_height: plan.device.height,
    trajectory: steps,
    ...plan.extraTop,
  });
}

async function main() {
  await rm(path.join(OUT, "images"), { recursive: true, force: true });
  await mkdir(path.join(OUT, "images"), { recursive: true });
  const phone = { width: 1080, height: 2400 };
  const big = { width: 1440, height: 3200 };
  const lines = [
    await line({ seed: 11, index: 0, device: phone, png: phone, quirks: true, prefix: "r1_0001" }),
    // A 1440x3200 device; its `type` text escaped as json.dumps' default ensure_ascii=True writes it.
    await line({ seed: 23, index: 3, device: big, png: big, ensureAscii: true, prefix: "r1_0002" }),
    // Scaled images: the row declares 1440x3200, the PNG files are 720x1600.
    await line({ seed: 37, index: 9, device: big, png: { width: 720, height: 1600 }, prefix: "r1_0003" }),
    // An empty system prompt, a top-level field and a step field no reader knows.
    await line({
      seed: 41,
      index: 18,
      device: phone,
      png: phone,
      system: "",
      extraTop: { episode_uuid: "3f1c9a2e-synthetic" },
      extraStep: { step_reward: 1 },
      prefix: "r1_0004",
    }),
  ];
  const instructions = lines.map((l) => (JSON.parse(l) as { instruction: string }).instruction);
  if (new Set(instructions).size !== lines.length) throw new Error(`two rows share an instruction: ${instructions.join(" | ")}`);
  await writeFile(path.join(OUT, "data.jsonl"), `${lines.join("\n")}\n`);
  // The release's point-less taps (system_button "Tap"): importable once the normaliser reads them.
  const tap = await line({ seed: 53, index: 20, device: phone, png: phone, tapAt: 1, prefix: "r1_tap" });
  await writeFile(path.join(OUT, "data-tap.jsonl"), `${tap}\n`);
}

void main();
