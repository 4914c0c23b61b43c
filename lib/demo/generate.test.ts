import { mapRecord } from "@/lib/domain/import-formats";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COOKBOOK_DIR } from "@/fixtures";
import { isPointInBox, isPointOnScreen, type Box } from "@/lib/domain/geometry";
import { parseModelOutput } from "@/lib/domain/model-output";
import { ACTION_TYPES, pointsOf, toolCallSchema, type ToolCall } from "@/lib/domain/tool-call";
import { APP_NAMES } from "./apps";
import { writeCookbookDataset } from "./cookbook";
import { generateDemoDataset, type MobileR1DemoLine } from "./generate";

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "demo-gen-"));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function readLines(dir: string): Promise<MobileR1DemoLine[]> {
  const text = await readFile(path.join(dir, "data.jsonl"), "utf8");
  return text
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as MobileR1DemoLine);
}

function callOf(action: string): ToolCall {
  const parsed = JSON.parse(action) as { name: string; arguments: unknown };
  expect(parsed.name).toBe("mobile_use");
  return toolCallSchema.parse(parsed.arguments);
}

async function hashImages(dir: string): Promise<Record<string, string>> {
  const files = (await readdir(path.join(dir, "images"))).sort();
  const out: Record<string, string> = {};
  for (const f of files)
    out[f] = createHash("sha256")
      .update(await readFile(path.join(dir, "images", f)))
      .digest("hex");
  return out;
}

describe("generateDemoDataset", () => {
  it("writes a rendered Mobile-R1 dataset whose steps, images and boxes agree", async () => {
    const dir = path.join(tmp, "small");
    const progress: number[] = [];
    const t0 = performance.now();
    const result = await generateDemoDataset({ outDir: dir, trajectories: 6, seed: 11, onProgress: (d) => progress.push(d) });
    const ms = performance.now() - t0;
    console.log(
      `demo render: ${result.steps} screenshots in ${ms.toFixed(0)} ms = ${(ms / result.steps).toFixed(1)} ms per screenshot (concurrency 3, ${os.cpus().length} cores)`,
    );
    expect(result.trajectories).toBe(6);
    expect(progress.at(-1)).toBe(6);

    const lines = await readLines(dir);
    expect(lines).toHaveLength(6);
    let steps = 0;
    for (const line of lines) {
      expect(Object.keys(line)).toEqual([
        "app_name",
        "trajectory_length",
        "instruction",
        "system",
        "image_width",
        "image_height",
        "trajectory",
      ]);
      expect(line.trajectory_length).toBe(line.trajectory.length);
      expect(line.trajectory_length).toBeGreaterThanOrEqual(3);
      expect(line.trajectory_length).toBeLessThanOrEqual(9);
      const size = { width: line.image_width, height: line.image_height };
      for (const step of line.trajectory) {
        steps++;
        const file = path.join(dir, "images", step.image);
        expect(existsSync(file), step.image).toBe(true);
        const meta = await sharp(file).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual(["png", size.width, size.height]);
        const call = callOf(step.action);
        for (const p of pointsOf(call)) expect(isPointOnScreen(p, size), `${step.image} ${step.action}`).toBe(true);
        // The response is the tagged Mobile-R1 text that the studio's own parser reads back.
        const parsed = parseModelOutput(step.response);
        expect(parsed.style).toBe("mobile-r1");
        expect(parsed.problems).toEqual([]);
        expect(parsed.toolCall).toEqual(call);
        expect(step.response).toBe(
          `<think>\n${step.thought}\n</think>\n<action>\n${step.subtask}\n</action>\n<tool_call>\n${step.action}\n</tool_call>`,
        );
      }
      expect(callOf(line.trajectory.at(-1)!.action).action).toBe("terminate");
    }
    expect(steps).toBe(result.steps);
    expect((await readdir(path.join(dir, "images"))).length).toBe(steps);
  });

  it("covers every app and action kind, boxes hold the taps, and mistakes stay rare (data only, 60 trajectories)", async () => {
    const dir = path.join(tmp, "large");
    const result = await generateDemoDataset({ outDir: dir, trajectories: 60, seed: 3, renderImages: false });
    const lines = await readLines(dir);
    expect(lines).toHaveLength(60);
    expect(new Set(lines.map((l) => l.app_name))).toEqual(new Set(APP_NAMES));
    expect(APP_NAMES).toHaveLength(28);

    const kinds = new Set<string>();
    const buttons = new Set<string>();
    const statuses = new Set<string>();
    const sizes = new Set<string>();
    let coordinateSteps = 0;
    let hits = 0;
    for (const line of lines) {
      sizes.add(`${line.image_width}x${line.image_height}`);
      const size = { width: line.image_width, height: line.image_height };
      for (const step of line.trajectory) {
        const call = callOf(step.action);
        kinds.add(call.action);
        if (call.action === "system_button") buttons.add(call.button);
        if (call.action === "terminate") statuses.add(call.status);
        if (call.action === "long_press" || call.action === "wait") expect(call.time).toBeGreaterThan(0);
        expect(step.thought.split("。").filter(Boolean).length, step.thought).toBeGreaterThanOrEqual(3);
        expect(step.subtask.length).toBeGreaterThan(0);
        if (call.action === "click" || call.action === "long_press" || call.action === "swipe") {
          coordinateSteps++;
          expect(step.bbox, step.action).not.toBeNull();
          const box = step.bbox as Box;
          expect(
            box[0] <= box[2] && box[1] <= box[3] && isPointOnScreen([box[0], box[1]], size) && isPointOnScreen([box[2], box[3]], size),
          ).toBe(true);
          if (isPointInBox(call.coordinate, box)) hits++;
        } else {
          expect(step.bbox).toBeNull();
        }
      }
    }
    expect([...kinds].sort()).toEqual([...ACTION_TYPES].sort());
    expect([...buttons].sort()).toEqual(["Back", "Enter", "Home", "Menu"]);
    expect([...statuses].sort()).toEqual(["failure", "success"]);
    expect(sizes).toEqual(new Set(["1080x2400", "1080x2340", "720x1280"]));
    console.log(`demo data: ${result.steps} steps, ${coordinateSteps} coordinate steps, ${hits} inside their bbox`);
    // Every screen carries the elements drawn on it, the target among them, so box snapping works on the demo at once.
    for (const line of lines) {
      for (const step of line.trajectory) {
        expect(step.elements?.length, step.image).toBeGreaterThan(0);
        if (step.bbox) expect(step.elements!.map((e) => e.bbox)).toContainEqual(step.bbox);
      }
      const mapped = mapRecord("mobile-r1", line, "demo");
      expect(mapped.problems).toEqual([]);
      expect(mapped.draft!.steps.map((s) => s.elements?.length ?? 0)).toEqual(line.trajectory.map((s) => s.elements!.length));
    }
    // The demo's own data never contradicts itself: a deliberate mis-click names the element it hit, so a
    // release of the demo shards without --allow-problems (its mistakes are for people to find, not geometry).
    expect(hits).toBe(coordinateSteps);
  });

  it("is deterministic: same seed and count give identical data.jsonl and images", async () => {
    const a = path.join(tmp, "det-a");
    const b = path.join(tmp, "det-b");
    await generateDemoDataset({ outDir: a, trajectories: 3, seed: 42 });
    await generateDemoDataset({ outDir: b, trajectories: 3, seed: 42, concurrency: 1 });
    expect(await readFile(path.join(a, "data.jsonl"), "utf8")).toBe(await readFile(path.join(b, "data.jsonl"), "utf8"));
    expect(await hashImages(a)).toEqual(await hashImages(b));

    const c = path.join(tmp, "det-c");
    await generateDemoDataset({ outDir: c, trajectories: 3, seed: 43, renderImages: false });
    expect(await readFile(path.join(c, "data.jsonl"), "utf8")).not.toBe(await readFile(path.join(a, "data.jsonl"), "utf8"));
  });
});

describe("writeCookbookDataset", () => {
  const samples = COOKBOOK_DIR;
  it("writes the two real cookbook screenshots with clicks in original pixels", async () => {
    const dir = path.join(tmp, "cookbook");
    await writeCookbookDataset(dir, samples);
    const lines = await readLines(dir);
    expect(lines.map((l) => [l.app_name, l.image_width, l.image_height])).toEqual([
      ["File Manager", 1080, 2400],
      ["盒马", 720, 1280],
    ]);
    const clicks = lines.map((l) => callOf(l.trajectory[0]!.action));
    // 935 * 1080/1092 = 924.7, 406 * 2400/2408 = 404.7; 639 * 720/728 = 632.0, 1095 * 1280/1288 = 1088.2
    expect(clicks).toEqual([
      { action: "click", coordinate: [924.7, 404.7] },
      { action: "click", coordinate: [632, 1088.2] },
    ]);
    for (const l of lines) {
      const step = l.trajectory[0]!;
      const meta = await sharp(path.join(dir, "images", step.image)).metadata();
      expect([meta.width, meta.height]).toEqual([l.image_width, l.image_height]);
      const call = callOf(step.action);
      if (call.action === "click") expect(isPointInBox(call.coordinate, step.bbox as Box)).toBe(true);
    }
  });
});
