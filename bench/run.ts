// `npm run bench [--steps N] [--rounds 3] [--out bench/out] [--skip-browser] [--skip-lane] [--skip-load] [--skip-saves] [--skip-hostile]`
// The command line's start-up (`studio --help`, `studio bridge --help`, `studio stats`, `studio bridge sft`
// on one app's export, each against `node -e 0` in the same minute). Import and export at Mobile-R1 scale (24,521 steps by default;
// `--steps 100000` for the large run) as people run them: the compiled command line (scripts/studio.mjs),
// process start included, with the JS heap capped at 128 MB, best of 3, each against a lower bound
// measured in the same round (bench/baseline.ts: the same files read, hashed and copied with plain fs
// calls plus the same rows through the raw driver; the same bytes written and files linked). Then
// `bridge sft`, annotators' saves while importing, hostile uploads, and the parts that need a running
// studio: the API under load (bench/load.ts, when present) and the editor's key-to-paint time
// (bench/step-switch.ts), and the first-error fast lane against full correction as one scripted person works the
// same 10 demo trajectories (bench/lane-timing.spec.ts, run through Playwright). Every figure is printed with its bound, ratio and target, with the machine's
// load (os.loadavg); all are written to bench/out/results.json (shape: bench/figures.ts).
//
// The studio is built into its own folder (.next-bench), so a build elsewhere holding .next/lock neither
// blocks nor breaks it; BENCH_DIST_DIR=<folder> reuses an existing build instead of building.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { mobileR1Dataset } from "@/lib/server/testing/dataset";
import { fileContent, junkLineCount, junkLines, writeMultipart, zipBomb } from "@/lib/server/testing/hostile-uploads";
import { figure, table, type BenchResults, type Figure, type Load } from "./figures";
import { allWorkersAnswer, runLoadBench, TARGETS } from "./load";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    out: { type: "string", default: "bench/out" },
    steps: { type: "string", default: process.env.BENCH_STEPS ?? "24521" },
    rounds: { type: "string", default: "3" },
    "heap-mb": { type: "string", default: "128" },
    "skip-browser": { type: "boolean", default: process.env.BENCH_SKIP_BROWSER === "1" },
    // The fast lane against full correction takes a few minutes of a scripted person's keys (a browser part too).
    "skip-lane": { type: "boolean", default: process.env.BENCH_SKIP_LANE === "1" },
    "skip-load": { type: "boolean", default: false },
    "skip-saves": { type: "boolean", default: false },
    "skip-hostile": { type: "boolean", default: false },
    "skip-sft": { type: "boolean", default: false },
    // Studio processes serving the API under load (STUDIO_WORKERS): one per core unless told otherwise.
    workers: { type: "string", default: String(os.availableParallelism()) },
  },
});
const WORKERS = Number(args.workers);
if (!Number.isInteger(WORKERS) || WORKERS < 1) throw new Error(`--workers must be a whole number from 1, got ${args.workers}`);
const OUT = path.resolve(ROOT, args.out);
const TARGET_STEPS = Number(args.steps);
const ROUNDS = Math.max(1, Number(args.rounds));
const HEAP_MB = Number(args["heap-mb"]);
if (!Number.isInteger(TARGET_STEPS) || TARGET_STEPS < 1) throw new Error(`--steps must be a whole number, got ${args.steps}`);

const TSX = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
/** The command line as `npm run studio` runs it (compiled; rebuilt first when a source changed). */
const STUDIO = path.join(ROOT, "scripts/studio.mjs");
const load: Load[] = [];
const noteLoad = () => {
  const l: Load = {
    at: new Date().toISOString(),
    loadavg: os.loadavg().map((x) => +x.toFixed(2)) as Load["loadavg"],
    cpus: os.cpus().length,
  };
  load.push(l);
  return `load ${l.loadavg.join(" / ")} on ${l.cpus} cores`;
};

type Phase = { name: string; seconds: number; peakMB: number; detail?: string };

/** Run a command in a child process; its own peak RSS comes from GNU time's %M (KB). */
function measure(name: string, cmd: string[], env: NodeJS.ProcessEnv): Phase {
  const started = process.hrtime.bigint();
  const r = spawnSync("/usr/bin/time", ["-f", "BENCH_MAXRSS_KB=%M", process.execPath, ...cmd], {
    cwd: ROOT,
    env,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`${name} failed (exit ${r.status}):\n${r.stderr.slice(-2000)}`);
  const kb = Number(r.stderr.match(/BENCH_MAXRSS_KB=(\d+)/)?.[1] ?? 0);
  const last = r.stdout.trim().split("\n").pop();
  return { name, seconds, peakMB: Math.round(kb / 1024), detail: last };
}

/** A script that prints one JSON line at the end (bench/baseline.ts), run with node's own flags. */
function timed<T>(what: string, nodeFlags: string[], script: string, scriptArgs: string[]): T {
  const r = spawnSync(process.execPath, [...nodeFlags, "--import", "tsx", script, ...scriptArgs], {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}):\n${(r.stderr || r.stdout).slice(-3000)}`);
  return JSON.parse(r.stdout.trim().split("\n").pop()!) as T;
}

type CliRun = { seconds: number; maxRssMB: number; heapPeakMB: number; heapLimitMB: number; stdout: string };

/** The environment of a command line run against the studio in `dataDir`. */
const studioEnv = (dataDir: string): NodeJS.ProcessEnv => ({
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  STUDIO_DATA_DIR: dataDir,
  DATABASE_URL: `file:${path.join(dataDir, "studio.db")}`,
});

/**
 * One command line run, timed from outside as a person waits for it: from spawning node to its exit, start-up
 * included. bench/heap-probe.mjs (preloaded) reports its JS heap peak and resident peak.
 */
function runCli(what: string, nodeFlags: string[], args: string[], env: NodeJS.ProcessEnv): CliRun {
  const probe = path.join(OUT, `heap-${process.pid}.json`);
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [...nodeFlags, "--import", "./bench/heap-probe.mjs", STUDIO, ...args], {
    cwd: ROOT,
    env: { ...env, BENCH_HEAP_OUT: probe },
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}):\n${(r.stderr || r.stdout).slice(-3000)}`);
  const heap = JSON.parse(readFileSync(probe, "utf8")) as Omit<CliRun, "seconds" | "stdout">;
  rmSync(probe, { force: true });
  return { seconds, ...heap, stdout: r.stdout };
}

const best = (xs: number[]) => Math.min(...xs);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const fmtSteps = (n: number) => n.toLocaleString("en-US");

/** The target of the hardening issue (#22): `studio` and `bridge` start in at most half a second. */
const START_TARGET_S = 0.5;
const START_RUNS = 9;

/**
 * The command line's start-up: each command START_RUNS times, in turn with `node -e 0` (node's own start, the
 * lower bound), after one run of each that is not counted; the figure is the median wall time of the whole
 * process, as a person waits for it.
 */
function startFigures(dataDir: string): Figure[] {
  const env = studioEnv(dataDir);
  const wall = (args: string[], commandEnv: NodeJS.ProcessEnv) => {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { cwd: ROOT, env: commandEnv, encoding: "utf8", maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`${args.join(" ")} failed (exit ${r.status}):\n${r.stderr.slice(-2000)}`);
    return Number(process.hrtime.bigint() - started) / 1e9;
  };
  // A bridge command on real data: the app with the fewest trajectories, exported (not timed) from this studio.
  const counts = JSON.parse(runCli("stats", [], ["stats", "--json"], env).stdout) as { byApp: { app: string; trajectories: number }[] };
  const app = [...counts.byApp].sort((a, b) => a.trajectories - b.trajectories)[0]!;
  const small = path.join(OUT, "start-export");
  rmSync(small, { recursive: true, force: true });
  runCli("export", [], ["export", "--out", small, "--status", "all", "--app", app.app], env);
  let sftRun = 0;
  // `work`: the command does real work beyond starting (the bridge's rows), so it is shown with no start target.
  const commands: { name: string; args: () => string[]; work?: boolean }[] = [
    { name: "studio --help", args: () => ["--help"] },
    { name: "studio bridge --help", args: () => ["bridge", "--help"] },
    // A real command: opens the database (migrations checked) and answers.
    { name: `studio stats (a studio of ${fmtSteps(TARGET_STEPS)}+ steps)`, args: () => ["stats", "--json"] },
    // A real bridge command: reads an export and writes the trainer's rows.
    {
      name: `studio bridge sft (ms-swift, ${app.trajectories} trajectories of one app; start and work)`,
      work: true,
      args: () => [
        "bridge",
        "sft",
        small,
        "--out",
        path.join(OUT, `start-sft-${sftRun++}`),
        "--target",
        "ms-swift",
        "--allow-unreviewed",
        "--allow-problems",
      ],
    },
  ];
  return commands.map((c) => {
    const runs: number[] = [];
    const node: number[] = [];
    wall([STUDIO, ...c.args()], env);
    wall(["-e", "0"], env);
    for (let i = 0; i < START_RUNS; i++) {
      runs.push(wall([STUDIO, ...c.args()], env));
      node.push(wall(["-e", "0"], env));
    }
    console.log(
      `  ${c.name}: median ${median(runs).toFixed(3)} s (node -e 0: ${median(node).toFixed(3)} s; runs ${runs.map((r) => r.toFixed(2)).join(", ")})`,
    );
    return figure({
      name: `start: ${c.name}`,
      value: median(runs),
      unit: "s",
      lowerBound: median(node),
      target: c.work ? null : { max: START_TARGET_S },
      runs,
      note: `median of ${START_RUNS}, whole process (node scripts/studio.mjs); bound: node -e 0 in turn with it`,
    });
  });
}

/**
 * Import and export through the command line, ROUNDS times each into fresh folders, each round with its lower
 * bounds. Each timing is the whole command as a person runs it (`studio import`, `studio export`: node's start,
 * the compiled command line's, the migration check and the job row included) into a studio migrated beforehand
 * (the bound's database is migrated untimed too). The figure is the best round against the best bound (both
 * measured in this run).
 */
async function importExport(source: string): Promise<{ figures: Figure[]; studio: string }> {
  const imports: CliRun[] = [];
  const exports: CliRun[] = [];
  const importBounds: number[] = [];
  const decodeBounds: number[] = [];
  const exportBounds: number[] = [];
  const heap = [`--max-old-space-size=${HEAP_MB}`];
  let steps = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`round ${round}/${ROUNDS} (${noteLoad()})`);
    const studio = path.join(OUT, `studio-${round}`);
    const exported = path.join(OUT, `export-${round}`);
    const env = studioEnv(studio);
    runCli("migrate", [], ["migrate"], env);
    const i = runCli("import", heap, ["import", path.join(source, "data.jsonl"), "--format", "mobile-r1"], env);
    steps = Number(/imported \d+ trajectories, (\d+) steps/.exec(i.stdout)?.[1] ?? NaN);
    if (!Number.isInteger(steps)) throw new Error(`import: unexpected output ${i.stdout}`);
    imports.push(i);
    const scratch = path.join(OUT, `bound-${round}`);
    importBounds.push(timed<{ seconds: number }>("import bound", [], "bench/baseline.ts", ["import", source, studio, scratch]).seconds);
    // Decoding every screenshot (issue #22 item 4) is work the issue's bound leaves out: timed apart, so the
    // import is shown against the bound and against the bound plus a bare decode of the same files.
    decodeBounds.push(timed<{ seconds: number }>("decode bound", [], "bench/baseline.ts", ["decode", source, studio, scratch]).seconds);
    const e = runCli("export", heap, ["export", "--out", exported, "--status", "all"], env);
    if (!new RegExp(`exported \\d+ trajectories, ${steps} steps`).test(e.stdout)) throw new Error(`export: unexpected output ${e.stdout}`);
    exports.push(e);
    exportBounds.push(timed<{ seconds: number }>("export bound", [], "bench/baseline.ts", ["export", exported, studio, scratch]).seconds);
    console.log(
      `  import ${i.seconds.toFixed(2)} s (bound ${importBounds.at(-1)!.toFixed(2)} s, + decode ${decodeBounds.at(-1)!.toFixed(2)} s, RSS ${i.maxRssMB} MB, heap ${i.heapPeakMB} MB)` +
        `  export ${e.seconds.toFixed(2)} s (bound ${exportBounds.at(-1)!.toFixed(2)} s, RSS ${e.maxRssMB} MB, heap ${e.heapPeakMB} MB)`,
    );
    await rm(scratch, { recursive: true, force: true });
    if (round > 1) await rm(studio, { recursive: true, force: true });
    await rm(exported, { recursive: true, force: true });
  }
  const large = TARGET_STEPS > 30_000;
  const heapNote = `studio import/export, process start included; heap capped at ${HEAP_MB} MB`;
  const figures = [
    figure({
      name: `import ${fmtSteps(steps)} steps`,
      value: best(imports.map((r) => r.seconds)),
      unit: "s",
      lowerBound: best(importBounds),
      target: large ? { maxRatio: 4 } : { max: 8, maxRatio: 4 },
      runs: imports.map((r) => r.seconds),
      note: `${heapNote}; bound: read+hash+copy every screenshot, raw driver insert of the same rows`,
    }),
    figure({
      name: `import ${fmtSteps(steps)} steps, against the bound plus decoding`,
      value: best(imports.map((r) => r.seconds)),
      unit: "s",
      lowerBound: best(importBounds.map((b, i) => b + decodeBounds[i]!)),
      target: { maxRatio: 4 },
      runs: imports.map((r) => r.seconds),
      note: `${heapNote}; bound: the import bound plus a bare sharp decode of every screenshot (${best(decodeBounds).toFixed(1)} s at best), the proof issue #22 item 4 added`,
    }),
    figure({
      name: `export ${fmtSteps(steps)} steps`,
      value: best(exports.map((r) => r.seconds)),
      unit: "s",
      lowerBound: best(exportBounds),
      target: large ? { maxRatio: 3 } : { max: 4, maxRatio: 3 },
      runs: exports.map((r) => r.seconds),
      note: `${heapNote}; bound: write the same bytes, link the same files`,
    }),
    figure({
      name: "import peak resident memory",
      value: Math.max(...imports.map((r) => r.maxRssMB)),
      unit: "MB",
      runs: imports.map((r) => r.maxRssMB),
      note: `JS heap peak ${Math.max(...imports.map((r) => r.heapPeakMB))} MB of ${imports[0]!.heapLimitMB} MB allowed`,
    }),
    figure({
      name: "export peak resident memory",
      value: Math.max(...exports.map((r) => r.maxRssMB)),
      unit: "MB",
      runs: exports.map((r) => r.maxRssMB),
      note: `JS heap peak ${Math.max(...exports.map((r) => r.heapPeakMB))} MB of ${exports[0]!.heapLimitMB} MB allowed`,
    }),
  ];
  return { figures, studio: path.join(OUT, "studio-1") };
}

/** Build the studio into .next-bench (or reuse BENCH_DIST_DIR), never touching .next or its lock. */
function studioBuild(): string {
  const existing = process.env.BENCH_DIST_DIR;
  if (existing) {
    if (!existsSync(path.join(ROOT, existing, "BUILD_ID"))) throw new Error(`BENCH_DIST_DIR=${existing} holds no build (no BUILD_ID)`);
    return existing;
  }
  const distDir = ".next-bench";
  const build = spawnSync(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], {
    cwd: ROOT,
    // With the test hooks: the browser part reads the canvas's paints (window.__studioPaint), which only such a build reports.
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", STUDIO_DIST_DIR: distDir, NEXT_PUBLIC_STUDIO_TEST_HOOKS: "1" },
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (build.status !== 0) throw new Error(`next build failed:\n${(build.stdout + build.stderr).slice(-3000)}`);
  return distDir;
}

/** Serve the studio at `dataDir` from the bench build on a private port while `fn` runs. */
async function withServer<T>(distDir: string, dataDir: string, fn: (baseUrl: string) => Promise<T>): Promise<T> {
  const port = Number(process.env.BENCH_SERVER_PORT ?? 3199);
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "server/main.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      STUDIO_WORKERS: String(WORKERS),
      NEXT_TELEMETRY_DISABLED: "1",
      STUDIO_DIST_DIR: distDir,
      STUDIO_DATA_DIR: dataDir,
      DATABASE_URL: `file:${path.join(dataDir, "studio.db")}`,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const ready = allWorkersAnswer(server);
  try {
    const until = Date.now() + 120_000;
    for (;;) {
      if (Date.now() > until) throw new Error("the bench studio did not come up");
      try {
        if ((await fetch(`${baseUrl}/api/health`)).ok) break;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    await ready;
    return await fn(baseUrl);
  } finally {
    server.kill("SIGTERM");
  }
}

/**
 * The API under load (bench/load.ts), as this run's figures: each workload's p95 with the same run's
 * `/api/health` p95 as its lower bound, its target, and throughput, p50, p99, errors and 409s in the note.
 */
async function loadFigures(distDir: string, dataDir: string): Promise<Figure[]> {
  const measured = await withServer(distDir, dataDir, (baseUrl) =>
    runLoadBench({ baseUrl, databaseUrl: `file:${path.join(dataDir, "studio.db")}` }),
  );
  const health = measured.find((f) => f.name.startsWith("GET /api/health"));
  return measured.map((f) => {
    const one = figure({
      name: `${f.name} p95${/connection/.test(f.name) ? "" : `, ${f.connections} connections`}`,
      value: f.p95,
      unit: "ms",
      lowerBound: f === health ? null : (health?.p95 ?? null),
      target: f.target ? { max: f.target.p95Ms } : null,
      note: `${Math.round(f.throughput)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, ${f.errors} errors, ${f.conflicts} 409s, ${WORKERS} worker${WORKERS === 1 ? "" : "s"}`,
    });
    // A target includes "0 errors".
    return f.errors > 0 && one.met ? { ...one, met: false } : one;
  });
}

async function main() {
  const startedAt = new Date().toISOString();
  noteLoad();
  await rm(OUT, { recursive: true, force: true });
  await mkdir(OUT, { recursive: true });
  const source = path.join(OUT, "source");

  // A Mobile-R1-format dataset of at least TARGET_STEPS steps: demo trajectories, with screenshots of
  // the right sizes (same pixels, distinct bytes) so the run measures the studio, not rendering.
  const made = await mobileR1Dataset(source, TARGET_STEPS, 11);
  console.log(`dataset: ${made.trajectories} trajectories, ${made.steps} steps`);
  const figures: Figure[] = [];
  const results = (): BenchResults => ({
    format: "trajectory-studio-bench/v1",
    startedAt,
    finishedAt: new Date().toISOString(),
    steps: made.steps,
    trajectories: made.trajectories,
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? "unknown",
      memoryMB: Math.round(os.totalmem() / 1024 ** 2),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
    },
    serverWorkers: WORKERS,
    load,
    figures,
  });
  const save = () => writeFile(path.join(OUT, "results.json"), `${JSON.stringify(results(), null, 2)}\n`);

  // The command line is compiled (or found up to date) here, so no timed run pays for a build.
  const build = spawnSync(process.execPath, [STUDIO, "--help"], { cwd: ROOT, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`the command line does not start:\n${build.stderr.slice(-3000)}`);
  const io = await importExport(source);
  figures.push(...io.figures);
  await save();
  console.log(`command line start-up (${noteLoad()})`);
  figures.push(...startFigures(io.studio));
  await save();

  const dataDir = io.studio;
  const env = {
    ...process.env,
    STUDIO_DATA_DIR: dataDir,
    DATABASE_URL: `file:${path.join(dataDir, "studio.db")}`,
    NEXT_TELEMETRY_DISABLED: "1",
  };
  const cli = [STUDIO];
  if (!args["skip-sft"]) {
    noteLoad();
    const exported = path.join(OUT, "export");
    measure("export", [...cli, "export", "--out", exported, "--status", "all"], env);
    try {
      const sft = measure(
        "bridge sft",
        [
          ...cli,
          "bridge",
          "sft",
          exported,
          "--out",
          path.join(OUT, "sft"),
          "--target",
          "ms-swift",
          "--max-pixels",
          "1003520",
          "--allow-unreviewed",
          // The demo data has steps the bridge reports as problems (and leaves out); the timing is of the whole run.
          "--allow-problems",
        ],
        env,
      );
      figures.push(
        figure({
          name: "bridge sft (ms-swift, max_pixels 1003520)",
          value: sft.seconds,
          unit: "s",
          note: `peak ${sft.peakMB} MB, process start included`,
        }),
      );
    } catch (e) {
      // The demo data's ground truth has steps the bridge refuses; the figure is left out, the run goes on.
      console.log(`bridge sft: no figure (${String(e).split("\n")[0]})`);
    }
    await save();
  }

  if (!args["skip-saves"]) {
    noteLoad();
    const saves = await savesWhileImporting(source, env, made.steps);
    figures.push(
      figure({
        name: `save p95 while importing ${fmtSteps(made.steps)} steps`,
        value: saves.importing.p95,
        unit: "ms",
        lowerBound: saves.aloneP95,
        target: { max: SAVE_TARGET_P95_MS },
        note: `${saves.annotators} annotators; bound: the same saves with no import; ${saves.importing.errors} errors`,
      }),
    );
    if (saves.importing.errors > 0) figures.at(-1)!.met = false;
    await save();
  }

  if (!args["skip-hostile"]) {
    noteLoad();
    for (const p of await hostileUploads([TSX]))
      figures.push(figure({ name: p.name, value: p.peakMB, unit: "MB", note: `${p.seconds.toFixed(1)} s` }));
    await save();
  }

  const runLane = !args["skip-browser"] && !args["skip-lane"];
  const needsServer = !args["skip-load"] || !args["skip-browser"];
  const distDir = needsServer ? studioBuild() : "";
  if (!args["skip-load"]) {
    console.log(noteLoad());
    figures.push(...(await loadFigures(distDir, dataDir)));
    await save();
  }
  if (!args["skip-browser"]) {
    noteLoad();
    const r = spawnSync(process.execPath, [TSX, "bench/step-switch.ts"], {
      cwd: ROOT,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", STUDIO_DIST_DIR: distDir, STUDIO_SKIP_BUILD: "1" },
      encoding: "utf8",
    });
    console.log(`\n${r.stdout.trim()}`);
    if (r.status !== 0) throw new Error(`step-switch failed:\n${r.stderr.slice(-2000)}`);
  }
  if (runLane) {
    console.log(noteLoad());
    figures.push(...laneFigures(distDir));
    await save();
  }

  console.log(noteLoad());
  await save();
  console.log(
    `\n${fmtSteps(made.steps)} steps, ${os.cpus().length} cores; load (1/5/15 min) during the run: ${load.map((l) => l.loadavg[0]).join(", ")}\n`,
  );
  console.log(table(figures));
  console.log(`\nwritten: ${path.relative(ROOT, path.join(OUT, "results.json"))}`);
}

type LaneTotals = {
  trajectories: number;
  steps: number;
  withMistake: number;
  fast: { keys: number; clicks: number; ms: number };
  full: { keys: number; clicks: number; ms: number };
  actionRatio: number;
  timeRatio: number;
};

/**
 * The fast lane against full correction (bench/lane-timing.spec.ts) on the bench build, its own port and data:
 * how many times the actions and the wall time full correction takes. The lane's point is fewer of both, so
 * each ratio's target is at least 1 (the spec itself also fails when any trajectory takes the lane more actions).
 */
function laneFigures(distDir: string): Figure[] {
  const out = path.join(OUT, "lane-timing.json");
  rmSync(out, { force: true });
  const dataDir = path.join(ROOT, ".tmp/bench-lane");
  rmSync(dataDir, { recursive: true, force: true });
  const r = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules/@playwright/test/cli.js"), "test", "-c", "bench/lane-timing.config.ts"],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        STUDIO_DIST_DIR: distDir,
        STUDIO_SKIP_BUILD: "1",
        E2E_PORT: process.env.BENCH_LANE_PORT ?? "3196",
        E2E_DATA_DIR: dataDir,
        BENCH_LANE_OUT: out,
      },
      stdio: "inherit",
    },
  );
  if (r.status !== 0 || !existsSync(out)) throw new Error(`the fast-lane timing failed (exit ${r.status})`);
  const { totals: t } = JSON.parse(readFileSync(out, "utf8")) as { totals: LaneTotals };
  const lanes = `${t.trajectories} trajectories, ${t.steps} steps, ${t.withMistake} with a model mistake`;
  return [
    figure({
      name: "full correction's actions ÷ the fast lane's",
      value: t.actionRatio,
      unit: "x",
      target: { min: 1 },
      note: `${lanes}; fast ${t.fast.keys} keys + ${t.fast.clicks} clicks, full ${t.full.keys} keys + ${t.full.clicks} clicks`,
    }),
    figure({
      name: "full correction's wall time ÷ the fast lane's",
      value: t.timeRatio,
      unit: "x",
      target: { min: 1 },
      note: `fast ${(t.fast.ms / 1000).toFixed(1)} s, full ${(t.full.ms / 1000).toFixed(1)} s`,
    }),
  ];
}

/**
 * The save figure's target, as the hardening issue puts it: while an import runs, annotators' saves are
 * never refused, nor delayed beyond the benchmark's save target (p95 ≤ 50 ms, TARGETS.save of
 * bench/load.ts). The ratio to the same saves without an import is printed beside it; it has no target
 * of its own (alone, a save takes well under a millisecond, and one fsync'd commit of the import's takes more).
 */
const SAVE_TARGET_P95_MS = TARGETS.save;

type SaveStats = { saves: number; errors: number; p50: number; p95: number; max: number; errorSamples: string[] };

function stats(samples: { ms: number; error?: string }[]): SaveStats {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const q = (f: number) => +(ms[Math.min(ms.length - 1, Math.floor(f * ms.length))] ?? 0).toFixed(1);
  const errors = samples.filter((s) => s.error);
  return {
    saves: samples.length,
    errors: errors.length,
    p50: q(0.5),
    p95: q(0.95),
    max: q(1),
    errorSamples: [...new Set(errors.map((e) => e.error!))].slice(0, 5),
  };
}

async function waitFor(file: string, timeoutMs = 300_000) {
  const until = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${file}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Run bench/saves.ts until `during()` resolves; the samples whose save started inside the window. */
async function savesDuring(name: string, env: NodeJS.ProcessEnv, tsx: string[], during: () => Promise<void>) {
  const out = path.join(OUT, `saves-${name}.json`);
  const stop = `${out}.stop`;
  const child = spawn(process.execPath, [...tsx, "bench/saves.ts", out, stop, String(ANNOTATORS)], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  await waitFor(`${out}.ready`);
  const from = Date.now();
  await during();
  const to = Date.now();
  await writeFile(stop, "");
  if ((await exited) !== 0) throw new Error(`bench/saves.ts (${name}) failed`);
  const { samples } = JSON.parse(await readFile(out, "utf8")) as { samples: { at: number; ms: number; error?: string }[] };
  return { seconds: (to - from) / 1000, ...stats(samples.filter((s) => s.at >= from && s.at <= to)) };
}

const ANNOTATORS = Number(process.env.BENCH_ANNOTATORS ?? 16);

async function savesWhileImporting(source: string, env: NodeJS.ProcessEnv, steps: number) {
  const tsx = [TSX];
  // The saves alone are measured before and after the import (this machine's load drifts within
  // minutes); the figure is the ratio to their mean.
  const baselineSeconds = Number(process.env.BENCH_SAVE_BASELINE_SECONDS ?? 20);
  const before = await savesDuring("alone-before", env, tsx, () => new Promise((r) => setTimeout(r, baselineSeconds * 1000)));
  let importPhase: Phase | undefined;
  const importing = await savesDuring("importing", env, tsx, async () => {
    importPhase = await measureAsync(
      "import again, into a new project",
      [STUDIO, "import", path.join(source, "data.jsonl"), "--format", "mobile-r1", "--project", "bench-while-saving"],
      env,
    );
  });
  const after = await savesDuring("alone-after", env, tsx, () => new Promise((r) => setTimeout(r, baselineSeconds * 1000)));
  const alone = { ...before, p95: +((before.p95 + after.p95) / 2).toFixed(1) };
  const ratio = +(importing.p95 / Math.max(0.1, alone.p95)).toFixed(2);
  const met = importing.errors === 0 && importing.p95 <= SAVE_TARGET_P95_MS;
  console.log(
    `\nsaves while importing (${ANNOTATORS} annotators saving every ${100} ms, one process; import of ${steps} steps from the command line):`,
  );
  console.log(`  alone, before      ${fmt(before)}`);
  console.log(`  alone, after       ${fmt(after)}`);
  console.log(
    `  during the import  ${fmt(importing)}   (import took ${importPhase!.seconds.toFixed(1)} s, peak ${importPhase!.peakMB} MB)`,
  );
  console.log(
    `  save p95 during the import = ${ratio} × alone (mean of before and after, ${alone.p95} ms); errors ${importing.errors}; target (p95 ≤ ${SAVE_TARGET_P95_MS} ms, no error): ${met ? "met" : "NOT met"}`,
  );
  for (const e of importing.errorSamples) console.log(`  error: ${e}`);
  return {
    annotators: ANNOTATORS,
    importSteps: steps,
    aloneBefore: before,
    aloneAfter: after,
    aloneP95: alone.p95,
    importing,
    p95Ratio: ratio,
    target: { p95Ms: SAVE_TARGET_P95_MS, errors: 0 },
    met,
    importSeconds: importPhase!.seconds,
  };
}

const fmt = (s: { saves: number; errors: number; p50: number; p95: number; max: number; seconds: number }) =>
  `${String(s.saves).padStart(6)} saves in ${s.seconds.toFixed(1).padStart(5)} s, errors ${s.errors}, p50 ${s.p50} ms, p95 ${s.p95} ms, max ${s.max} ms`;

/** measure() without blocking this process (other children run meanwhile). */
function measureAsync(name: string, args: string[], env: NodeJS.ProcessEnv): Promise<Phase> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn("/usr/bin/time", ["-f", "BENCH_MAXRSS_KB=%M", process.execPath, ...args], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-100_000)));
    child.on("exit", (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) return reject(new Error(`${name} failed (exit ${code}):\n${stderr.slice(-2000)}`));
      const kb = Number(stderr.match(/BENCH_MAXRSS_KB=(\d+)/)?.[1] ?? 0);
      resolve({ name, seconds, peakMB: Math.round(kb / 1024), detail: stdout.trim().split("\n").pop() });
    });
  });
}

async function hostileUploads(tsx: string[]): Promise<Phase[]> {
  const dir = path.join(OUT, "hostile");
  await mkdir(dir, { recursive: true });
  const junkBytes = 300 * 1024 ** 2;
  const junk = path.join(dir, "junk.body");
  await writeMultipart(junk, { format: "mobile-r1" }, "junk.jsonl", junkLines(junkBytes));
  const bombZip = path.join(dir, "bomb.zip");
  await zipBomb(bombZip, 60, 100 * 1024 ** 2);
  const bomb = path.join(dir, "bomb.body");
  await writeMultipart(bomb, { format: "mobile-r1" }, "bomb.zip", fileContent(bombZip));
  const bombMB = ((await stat(bombZip)).size / 1024 ** 2).toFixed(1);
  const run = (name: string, body: string, expect: (r: Record<string, unknown>) => boolean) => {
    const data = path.join(dir, `studio-${path.basename(body, ".body")}`);
    const env = { ...process.env, STUDIO_DATA_DIR: data, DATABASE_URL: `file:${path.join(data, "studio.db")}` };
    const p = measure(name, [...tsx, "lib/server/testing/upload-file.ts", body], env);
    const r = JSON.parse(p.detail ?? "{}") as Record<string, unknown>;
    if (!expect(r)) throw new Error(`${name}: unexpected outcome ${p.detail}`);
    return p;
  };
  return [
    run(
      "refuse a 300 MB junk upload (.jsonl)",
      junk,
      (r) => r.outcome === "problems" && r.problemCount === junkLineCount(junkBytes) && r.tmpLeft === 0,
    ),
    run(
      `refuse a zip bomb (${bombMB} MB zip, 5.9 GB expanded)`,
      bomb,
      (r) => r.outcome === "refused" && r.code === "payload_too_large" && r.tmpLeft === 0,
    ),
  ];
}

await main();
