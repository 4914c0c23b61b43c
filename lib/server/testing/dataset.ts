// A Mobile-R1-format dataset on disk for tests and the bench: demo trajectories (lib/demo), with a
// screenshot of the right size for every step. Each screenshot is the same blank pixels with its own
// name in a PNG text chunk, so every file has its own sha256 as real screenshots do, and nothing
// is rendered (the run measures the studio, not drawing).
import { createReadStream } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { generateDemoDataset } from "@/lib/demo/generate";
import { blankPng, withTextChunk } from "./fixtures";

/** Write `<outDir>/data.jsonl` and `<outDir>/images/` holding at least `minSteps` steps. */
export async function mobileR1Dataset(
  outDir: string,
  minSteps: number,
  seed = 11,
): Promise<{ trajectories: number; steps: number; file: string }> {
  let n = Math.max(1, Math.ceil(minSteps / 7));
  let made = await generateDemoDataset({ outDir, trajectories: n, seed, renderImages: false });
  while (made.steps < minSteps) {
    n = Math.ceil((n * minSteps) / made.steps) + 1;
    made = await generateDemoDataset({ outDir, trajectories: n, seed, renderImages: false });
  }
  await mkdir(path.join(outDir, "images"), { recursive: true });
  const blanks = new Map<string, Buffer>();
  const file = path.join(outDir, "data.jsonl");
  for await (const line of createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    const t = JSON.parse(line) as { image_width: number; image_height: number; trajectory: { image: string }[] };
    const key = `${t.image_width}x${t.image_height}`;
    if (!blanks.has(key)) blanks.set(key, await blankPng(t.image_width, t.image_height));
    for (const s of t.trajectory) await writeFile(path.join(outDir, "images", s.image), withTextChunk(blanks.get(key)!, "Title", s.image));
  }
  return { ...made, file };
}
