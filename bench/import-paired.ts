// `npx tsx bench/import-paired.ts --before <checkout> [--after <checkout>] [--steps 3000] [--rounds 4] [--images blank|fixtures] [--out bench/out-paired]`
// One import timed in two builds of the studio, in turn, in the same minutes: "after" (default: the checkout
// this file is in) and "before" (e.g. `git archive <commit> | tar -x -C <dir>`, with a node_modules link and
// `npm run db:generate` run there; each build's command line compiles itself on first use). Each round imports the same Mobile-R1 dataset into a fresh migrated
// studio with each build's compiled command line (`node scripts/studio.mjs import`, process start included),
// the order alternating between rounds, and reads wall, user and system seconds from /usr/bin/time (the
// reader threads' CPU included). Prints every run and the after/before ratios of wall and CPU per round and of
// the medians, so a change's cost is read against the same machine load (see docs/LOAD.md).
//
// --images blank: the bench's own screenshots (one blank PNG per size, each file its own bytes: the
// cheapest decode there is). --images fixtures: every screenshot is one of the repository's real ones
// (fixtures/mobile-r1-release/images and the Qwen cookbook's, RGB and RGBA, stretched to the size its line
// declares), each file its own bytes, so the decode and the hash see real screen content.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { COOKBOOK_EN_PNG, COOKBOOK_ZH_PNG, MOBILE_R1_RELEASE_IMAGES } from "@/fixtures";
import { mobileR1Dataset } from "@/lib/server/testing/dataset";
import { withTextChunk } from "@/lib/server/testing/fixtures";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    before: { type: "string" },
    after: { type: "string", default: ROOT },
    steps: { type: "string", default: "3000" },
    rounds: { type: "string", default: "4" },
    images: { type: "string", default: "blank" },
    out: { type: "string", default: "bench/out-paired" },
  },
});
if (!args.before) throw new Error("--before <checkout> is required");
const BUILDS = { before: path.resolve(args.before), after: path.resolve(args.after) };
for (const dir of Object.values(BUILDS)) {
  if (!existsSync(path.join(dir, "scripts/studio.mjs"))) throw new Error(`${dir}: not a studio checkout`);
}
if (args.images !== "blank" && args.images !== "fixtures") throw new Error(`--images blank|fixtures, got ${args.images}`);
const OUT = path.resolve(ROOT, args.out);
const ROUNDS = Number(args.rounds);

/** Replace every screenshot of the dataset with a real one of the size its line declares (its own bytes). */
async function realScreens(dir: string): Promise<void> {
  const sources = [
    ...readdirSync(MOBILE_R1_RELEASE_IMAGES)
      .filter((f) => f.endsWith(".png"))
      .map((f) => path.join(MOBILE_R1_RELEASE_IMAGES, f)),
    COOKBOOK_EN_PNG,
    COOKBOOK_ZH_PNG,
  ];
  const pools = new Map<string, Buffer[]>();
  let n = 0;
  for (const line of readFileSync(path.join(dir, "data.jsonl"), "utf8").split("\n")) {
    if (!line.trim()) continue;
    const t = JSON.parse(line) as { image_width: number; image_height: number; trajectory: { image: string }[] };
    const key = `${t.image_width}x${t.image_height}`;
    let pool = pools.get(key);
    if (!pool) {
      pool = await Promise.all(
        sources.map((s) => sharp(s).resize(t.image_width, t.image_height, { fit: "fill" }).png({ compressionLevel: 6 }).toBuffer()),
      );
      pools.set(key, pool);
    }
    for (const s of t.trajectory)
      await writeFile(path.join(dir, "images", s.image), withTextChunk(pool[n++ % pool.length]!, "Title", s.image));
  }
}

type Run = { wall: number; cpu: number };

/** `node scripts/studio.mjs <args>` of one build under /usr/bin/time: wall and user+system seconds. */
function studio(build: string, dataDir: string, cliArgs: string[]): Run & { stdout: string } {
  const r = spawnSync("/usr/bin/time", ["-f", "TIME %e %U %S", process.execPath, path.join(build, "scripts/studio.mjs"), ...cliArgs], {
    cwd: build,
    env: { ...process.env, STUDIO_DATA_DIR: dataDir, DATABASE_URL: `file:${path.join(dataDir, "studio.db")}` },
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`${build}: ${cliArgs.join(" ")} failed (exit ${r.status}):\n${(r.stderr || r.stdout).slice(-3000)}`);
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+)/.exec(r.stderr);
  if (!m) throw new Error(`no timing in ${r.stderr.slice(-500)}`);
  return { wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), stdout: r.stdout };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

await rm(OUT, { recursive: true, force: true });
const source = path.join(OUT, "source");
const made = await mobileR1Dataset(source, Number(args.steps));
if (args.images === "fixtures") await realScreens(source);
console.log(`dataset: ${made.trajectories} trajectories, ${made.steps} steps, ${args.images} screenshots; ${os.cpus().length} cores`);
const runs: Record<keyof typeof BUILDS, Run[]> = { before: [], after: [] };
for (let round = 1; round <= ROUNDS; round++) {
  const order: (keyof typeof BUILDS)[] = round % 2 ? ["before", "after"] : ["after", "before"];
  const line: string[] = [];
  for (const which of order) {
    const dataDir = path.join(OUT, `${which}-${round}`);
    await mkdir(dataDir, { recursive: true });
    studio(BUILDS[which], dataDir, ["migrate"]);
    const r = studio(BUILDS[which], dataDir, ["import", path.join(source, "data.jsonl"), "--format", "mobile-r1"]);
    if (!new RegExp(`${made.steps} steps`).test(r.stdout)) throw new Error(`${which}: unexpected output ${r.stdout}`);
    runs[which].push({ wall: r.wall, cpu: r.cpu });
    line.push(`${which} ${r.wall.toFixed(1)} s wall, ${r.cpu.toFixed(1)} s CPU`);
    await rm(dataDir, { recursive: true, force: true });
  }
  const [b, a] = [runs.before.at(-1)!, runs.after.at(-1)!];
  console.log(
    `round ${round} (load ${os.loadavg()[0]!.toFixed(1)}): ${line.join("; ")}; after/before wall ${(a.wall / b.wall).toFixed(2)} x, CPU ${(a.cpu / b.cpu).toFixed(2)} x`,
  );
}
const med = (which: keyof typeof BUILDS, k: keyof Run) => median(runs[which].map((r) => r[k]));
console.log(
  `medians: before ${med("before", "wall").toFixed(1)} s wall / ${med("before", "cpu").toFixed(1)} s CPU, after ${med("after", "wall").toFixed(1)} s / ${med("after", "cpu").toFixed(1)} s; ` +
    `after/before wall ${(med("after", "wall") / med("before", "wall")).toFixed(2)} x, CPU ${(med("after", "cpu") / med("before", "cpu")).toFixed(2)} x`,
);
await rm(source, { recursive: true, force: true });
