// `npm run bench`: import, export and `bridge sft` at Mobile-R1 scale (24,521 steps), each in its own
// process so its peak memory is its own. Figures are reported as ratios to a baseline measured in the
// same run (a plain streaming pass over the same files: read every JSONL line and hash every
// screenshot), because these machines are noisy. Results: bench/out/results.json.
import { spawnSync } from "node:child_process";
import { createReadStream } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { generateDemoDataset } from "@/lib/demo/generate";
import { blankPng, withTextChunk } from "@/lib/server/testing/fixtures";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUT = path.join(ROOT, "bench/out");
const TARGET_STEPS = Number(process.env.BENCH_STEPS ?? 24_521);

type Phase = { name: string; seconds: number; peakMB: number; detail?: string };

/** Run a command in a child process; its own peak RSS comes from GNU time's %M (KB). */
function measure(name: string, args: string[], env: NodeJS.ProcessEnv): Phase {
  const started = process.hrtime.bigint();
  const r = spawnSync("/usr/bin/time", ["-f", "BENCH_MAXRSS_KB=%M", process.execPath, ...args], { cwd: ROOT, env, encoding: "utf8", maxBuffer: 64 << 20 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`${name} failed (exit ${r.status}):\n${r.stderr.slice(-2000)}`);
  const kb = Number(r.stderr.match(/BENCH_MAXRSS_KB=(\d+)/)?.[1] ?? 0);
  const last = r.stdout.trim().split("\n").pop();
  return { name, seconds, peakMB: Math.round(kb / 1024), detail: last };
}

async function main() {
  await rm(OUT, { recursive: true, force: true });
  await mkdir(OUT, { recursive: true });
  const source = path.join(OUT, "source");

  // 1. A Mobile-R1-format dataset of at least TARGET_STEPS steps: demo trajectories, with screenshots
  //    of the right sizes (same pixels, distinct bytes) so the run measures the studio, not rendering.
  let n = Math.ceil(TARGET_STEPS / 7);
  let made = await generateDemoDataset({ outDir: source, trajectories: n, seed: 11, renderImages: false });
  while (made.steps < TARGET_STEPS) {
    n = Math.ceil((n * TARGET_STEPS) / made.steps) + 1;
    made = await generateDemoDataset({ outDir: source, trajectories: n, seed: 11, renderImages: false });
  }
  await mkdir(path.join(source, "images"), { recursive: true });
  const blanks = new Map<string, Buffer>();
  for await (const line of createInterface({ input: createReadStream(path.join(source, "data.jsonl"), "utf8") })) {
    const t = JSON.parse(line) as { image_width: number; image_height: number; trajectory: { image: string }[] };
    const key = `${t.image_width}x${t.image_height}`;
    if (!blanks.has(key)) blanks.set(key, await blankPng(t.image_width, t.image_height));
    for (const s of t.trajectory) await writeFile(path.join(source, "images", s.image), withTextChunk(blanks.get(key)!, "Title", s.image));
  }
  console.log(`dataset: ${made.trajectories} trajectories, ${made.steps} steps`);

  const dataDir = path.join(OUT, "studio");
  const env = { ...process.env, STUDIO_DATA_DIR: dataDir, DATABASE_URL: `file:${path.join(dataDir, "studio.db")}`, NEXT_TELEMETRY_DISABLED: "1" };
  const tsx = [path.join(ROOT, "node_modules/tsx/dist/cli.mjs")];
  const cli = [...tsx, "lib/cli/main.ts"];

  const phases: Phase[] = [];
  phases.push(measure("baseline: read every line, hash every screenshot", [...tsx, "bench/baseline.ts", source], env));
  phases.push(measure("import (mobile-r1)", [...cli, "import", path.join(source, "data.jsonl"), "--format", "mobile-r1"], env));
  phases.push(measure("export --status all", [...cli, "export", "--out", path.join(OUT, "export"), "--status", "all"], env));
  phases.push(measure("bridge sft --target ms-swift", [...cli, "bridge", "sft", path.join(OUT, "export"), "--out", path.join(OUT, "sft"), "--target", "ms-swift", "--max-pixels", "1003520"], env));

  const base = phases[0]!;
  console.log(`\n${"phase".padEnd(52)} ${"seconds".padStart(8)} ${"× base".padStart(7)} ${"peak MB".padStart(8)} ${"× base".padStart(7)}`);
  for (const p of phases) {
    console.log(
      `${p.name.padEnd(52)} ${p.seconds.toFixed(1).padStart(8)} ${(p.seconds / base.seconds).toFixed(2).padStart(7)} ${String(p.peakMB).padStart(8)} ${(p.peakMB / base.peakMB).toFixed(2).padStart(7)}`,
    );
  }
  const results = { trajectories: made.trajectories, steps: made.steps, phases: phases.map((p) => ({ ...p, timeRatio: p.seconds / base.seconds, memoryRatio: p.peakMB / base.peakMB })) };
  await writeFile(path.join(OUT, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  // The annotation editor: key press to the next screenshot painted, in Chromium (needs a build).
  if (process.env.BENCH_SKIP_BROWSER !== "1") {
    const build = spawnSync(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], { cwd: ROOT, env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" }, stdio: "ignore" });
    if (build.status !== 0) throw new Error("next build failed; run it to see why");
    const r = spawnSync(process.execPath, [...tsx, "bench/step-switch.ts"], { cwd: ROOT, env: { ...process.env, STUDIO_SKIP_BUILD: "1" }, encoding: "utf8" });
    console.log(`\n${r.stdout.trim()}`);
    if (r.status !== 0) throw new Error(`step-switch failed:\n${r.stderr.slice(-2000)}`);
  }
  console.log(`\nsteps/second: import ${(made.steps / phases[1]!.seconds).toFixed(0)}, export ${(made.steps / phases[2]!.seconds).toFixed(0)}, sft ${(made.steps / phases[3]!.seconds).toFixed(0)}`);
}

await main();
