// One timed bench phase in a process of its own (run.ts starts it with the heap capped, e.g.
// `node --max-old-space-size=128 --import tsx bench/phase.ts import <data.jsonl> <studio dir>`).
// Times the work itself, not the process start, and prints one JSON line: seconds, peak resident
// memory (maxRSS) and peak JS heap (sampled every 20 ms).
//   import <data.jsonl> <studio dir>       migrate a fresh studio there, import the file (mobile-r1)
//   export <studio dir> <out dir>          export every trajectory (--status all)
import { getHeapStatistics } from "node:v8";
import path from "node:path";

const [mode, a, b] = process.argv.slice(2);
if (!mode || !a || !b) throw new Error("usage: bench/phase.ts import <data.jsonl> <studio dir> | export <studio dir> <out dir>");
const studio = mode === "import" ? b : a;
process.env.STUDIO_DATA_DIR = studio;
process.env.DATABASE_URL = `file:${path.join(studio, "studio.db")}`;

const { migrate } = await import("@/lib/server/migrate");
const { createDb } = await import("@/lib/server/db");
const { importFile } = await import("@/lib/server/import");
const { exportDataset } = await import("@/lib/server/export");

await migrate(process.env.DATABASE_URL);
const db = createDb(process.env.DATABASE_URL);
let heapPeak = 0;
const sample = () => (heapPeak = Math.max(heapPeak, getHeapStatistics().used_heap_size));
const timer = setInterval(sample, 20);
const started = performance.now();
let detail: unknown;
if (mode === "import") {
  const r = await importFile({ file: a, format: "mobile-r1", db });
  if (!r.ok) throw new Error(`import failed: ${JSON.stringify(r.problems.slice(0, 3))}`);
  detail = { trajectories: r.trajectories, steps: r.steps, screenshots: r.screenshots };
} else if (mode === "export") {
  const r = await exportDataset({ outDir: b, status: "all", db });
  detail = { trajectories: r.trajectories, steps: r.steps, screenshots: r.screenshots };
} else throw new Error(`unknown mode ${mode}`);
const seconds = (performance.now() - started) / 1000;
clearInterval(timer);
sample();
await db.$disconnect();
console.log(
  JSON.stringify({
    seconds,
    maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    heapPeakMB: Math.round(heapPeak / 1024 ** 2),
    heapLimitMB: Math.round(getHeapStatistics().heap_size_limit / 1024 ** 2),
    detail,
  }),
);
