import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { COOKBOOK_DIR, UI_S1_EVAL_JSONL, UI_S1_THOUGHT_JSONL, UI_S1_TRAIN_JSONL } from "@/fixtures";
import { writeCookbookDataset } from "@/lib/demo/cookbook";
import { generateDemoDataset } from "@/lib/demo/generate";
import {
  COORDINATE_CONVENTION_NAMES,
  framePair,
  fromConventionPoint,
  roundTripBound,
  toConventionPoint,
  type CoordinateConvention,
  type FramePair,
  type Point,
  type Size,
} from "@/lib/domain/geometry";

// Every point of every step of the UI-S1 sample set and of the demo set goes original -> each convention ->
// original. The bound is half a unit of the convention in original pixels (integers in the convention's frame
// cannot do better): under 1 px for qwen25-abs at the frames phones get, 1.2 px on a 2400 px side for
// qwen3-rel1000 (one unit is 2.4 px there). The figures are printed and named in lib/bridge/README.md.

type Sample = { where: string; size: Size; points: Point[] };

/** The screen size AndroidControl episodes were captured at, as uiS1ScreenshotDir decides it for the import tests. */
function androidControlSize(points: Point[]): Size {
  return points.some(([x, y]) => x > 1080 || y > 2400) ? { width: 1440, height: 3120 } : { width: 1080, height: 2400 };
}

const isPoint = (v: unknown): v is Point => Array.isArray(v) && v.length === 2 && v.every((n) => typeof n === "number");
const isBox = (v: unknown): v is [number, number, number, number] =>
  Array.isArray(v) && v.length === 4 && v.every((n) => typeof n === "number");
const corners = (b: unknown): Point[] =>
  isBox(b)
    ? [
        [b[0], b[1]],
        [b[2], b[3]],
      ]
    : [];

async function uiS1Samples(file: string): Promise<Sample[]> {
  const out: Sample[] = [];
  const lines = (await readFile(file, "utf8")).split("\n").filter((l) => l.trim() !== "");
  lines.forEach((line, li) => {
    const t = JSON.parse(line) as { steps: { action_content: Record<string, unknown>; check_options?: Record<string, unknown> }[] };
    const perStep = t.steps.map((s) => {
      const a = s.action_content;
      const c = s.check_options ?? {};
      const boxes = Array.isArray(c.candidate_bbox) ? c.candidate_bbox : [];
      return [...[a.coordinate, a.coordinate2, c.coordinate, c.coordinate2].filter(isPoint), ...corners(a.bbox), ...boxes.flatMap(corners)];
    });
    const size = androidControlSize(perStep.flat());
    perStep.forEach((points, si) => out.push({ where: `${path.basename(file)}:${li + 1} step ${si + 1}`, size, points }));
  });
  return out;
}

async function demoSamples(): Promise<Sample[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "coords-demo-"));
  // The demo set as `npm run demo` makes it: 60 trajectories at seed 7, plus the cookbook's two screenshots.
  await generateDemoDataset({ outDir: path.join(dir, "synthetic"), trajectories: 60, seed: 7, renderImages: false });
  await writeCookbookDataset(path.join(dir, "cookbook"), COOKBOOK_DIR);
  const out: Sample[] = [];
  for (const part of ["synthetic", "cookbook"]) {
    const lines = (await readFile(path.join(dir, part, "data.jsonl"), "utf8")).split("\n").filter((l) => l.trim() !== "");
    lines.forEach((line, li) => {
      const t = JSON.parse(line) as { image_width: number; image_height: number; trajectory: { action: string; bbox: unknown }[] };
      t.trajectory.forEach((s, si) => {
        const args = (JSON.parse(s.action) as { arguments: Record<string, unknown> }).arguments;
        const points = [...[args.coordinate, args.coordinate2].filter(isPoint), ...corners(s.bbox)];
        out.push({ where: `demo ${part}:${li + 1} step ${si + 1}`, size: { width: t.image_width, height: t.image_height }, points });
      });
    });
  }
  return out;
}

type Measure = { points: number; maxError: number; worst: string; overOnePixel: number; overBound: number };

function roundTrip(samples: Sample[], convention: CoordinateConvention, frameOf: (size: Size) => FramePair): Measure {
  const m: Measure = { points: 0, maxError: 0, worst: "", overOnePixel: 0, overBound: 0 };
  for (const s of samples) {
    const frames = frameOf(s.size);
    const bound = roundTripBound(convention, frames);
    for (const p of s.points) {
      const back = fromConventionPoint(toConventionPoint(p, convention, frames), convention, frames);
      const dx = Math.abs(back[0] - p[0]);
      const dy = Math.abs(back[1] - p[1]);
      const err = Math.max(dx, dy);
      m.points += 1;
      if (err > 1) m.overOnePixel += 1;
      // 1e-9: the bound itself is reached by a point exactly half a unit off; float noise must not count.
      if (dx > bound.x + 1e-9 || dy > bound.y + 1e-9) m.overBound += 1;
      if (err > m.maxError) [m.maxError, m.worst] = [err, `${s.where} [${p.join(", ")}] on ${s.size.width}x${s.size.height}`];
    }
  }
  return m;
}

let uiS1: Sample[] = [];
let demo: Sample[] = [];
beforeAll(async () => {
  uiS1 = (await Promise.all([UI_S1_EVAL_JSONL, UI_S1_TRAIN_JSONL, UI_S1_THOUGHT_JSONL].map(uiS1Samples))).flat();
  demo = await demoSamples();
}, 120_000);

const FRAMES: Record<string, (size: Size) => FramePair> = {
  "max_pixels 12845056 (Qwen default)": (size) => framePair(size),
  "max_pixels 1003520 (common ms-swift MAX_PIXELS)": (size) => framePair(size, 1003520),
};

describe.each([
  ["the UI-S1 sample set", () => uiS1],
  ["the demo set", () => demo],
])("round trip original -> convention -> original over every step of %s", (_name, samples) => {
  it("reads every step and its points", () => {
    expect(samples().length).toBeGreaterThan(300);
    expect(samples().reduce((n, s) => n + s.points.length, 0)).toBeGreaterThan(500);
  });

  it.each(Object.entries(FRAMES))("qwen25-abs at %s moves no point by more than 1 original pixel", (label, frameOf) => {
    const m = roundTrip(samples(), "qwen25-abs", frameOf);
    console.info(`${_name}, qwen25-abs at ${label}: ${m.points} points, max ${m.maxError.toFixed(3)} px (${m.worst})`);
    expect(m.overOnePixel, m.worst).toBe(0);
    expect(m.overBound, m.worst).toBe(0);
  });

  it("qwen3-rel1000 moves no point by more than half a unit (side / 2000 original pixels)", () => {
    const m = roundTrip(samples(), "qwen3-rel1000", (size) => framePair(size));
    console.info(
      `${_name}, qwen3-rel1000: ${m.points} points, max ${m.maxError.toFixed(3)} px, ${m.overOnePixel} points over 1 px (${m.worst})`,
    );
    expect(m.overBound, m.worst).toBe(0);
    // Integers 0..1000 are coarser than a pixel on any side over 1000 px: 1.2 px at most on 2400 px, 1.56 on 3120.
    const longest = Math.max(...samples().map((s) => Math.max(s.size.width, s.size.height)));
    expect(m.maxError).toBeLessThanOrEqual(longest / 2000 + 1e-9);
    expect(m.maxError).toBeGreaterThan(1); // the figure the docs report: rel1000 cannot promise 1 px
    expect(m.overOnePixel).toBeGreaterThan(0);
  });
});

describe("the conventions the round trip covers", () => {
  it("are every convention there is", () => {
    expect([...COORDINATE_CONVENTION_NAMES]).toEqual(["qwen25-abs", "qwen3-rel1000"]);
  });
});
