// The shape of every figure `npm run bench` prints and writes to bench/out/results.json. A bench part
// (import/export here, API load in bench/load.ts) returns Figure[]; run.ts prints them in one table and
// writes them all, with the machine's load, to the JSON file.
//
//   name        what was measured, e.g. "import 24,521 steps" or "trajectory read p95 (32 connections)"
//   value       the figure itself (best of the runs for timings)
//   unit        "s" | "ms" | "MB" | "req/s" | "count" | "x" (a ratio that is itself the figure)
//   lowerBound  the same quantity for the least work that could do the job, measured in the same run on
//               the same machine (e.g. read+hash+copy every screenshot and insert the rows through the raw
//               driver; or /api/health's p95 for a request figure); null when there is none
//   ratio       value / lowerBound (null without a bound); machines differ, ratios travel better
//   target      what the issue asks: { max } for the value, { maxRatio } for the ratio, either or both
//   met         whether every part of the target is met (null without a target)
//   runs        every repetition's value (timings are best of 3: runs.length === 3)
//   note        anything a reader needs to read the figure (heap cap, errors, counts)
//
// Example: { name: "import 24,521 steps", value: 5.1, unit: "s", lowerBound: 1.6, ratio: 3.19,
//            target: { max: 8, maxRatio: 4 }, met: true, runs: [5.3, 5.1, 5.2], note: "heap capped at 128 MB" }
export type Unit = "s" | "ms" | "MB" | "req/s" | "count" | "x";

export type Target = { max?: number; maxRatio?: number; min?: number };

export type Figure = {
  name: string;
  value: number;
  unit: Unit;
  lowerBound: number | null;
  ratio: number | null;
  target: Target | null;
  met: boolean | null;
  runs?: number[];
  note?: string;
};

/** Machine load as os.loadavg() reports it (1, 5 and 15 minute averages) with the core count. */
export type Load = { at: string; loadavg: [number, number, number]; cpus: number };

/** bench/out/results.json */
export type BenchResults = {
  format: "trajectory-studio-bench/v1";
  startedAt: string;
  finishedAt: string;
  steps: number;
  trajectories: number;
  machine: { cpus: number; cpuModel: string; memoryMB: number; node: string; platform: string };
  /** STUDIO_WORKERS of the server the API load ran against. */
  serverWorkers: number;
  /** Load when the run started, before each part, and when it finished. */
  load: Load[];
  figures: Figure[];
};

const round = (x: number, digits = 3) => Number(x.toFixed(digits));

/** A figure, with its ratio and whether its target is met worked out. */
export function figure(f: {
  name: string;
  value: number;
  unit: Unit;
  lowerBound?: number | null;
  target?: Target | null;
  runs?: number[];
  note?: string;
}): Figure {
  const lowerBound = f.lowerBound ?? null;
  const ratio = lowerBound !== null && lowerBound > 0 ? round(f.value / lowerBound, 2) : null;
  const t = f.target ?? null;
  let met: boolean | null = null;
  if (t) {
    met = true;
    if (t.max !== undefined && !(f.value <= t.max)) met = false;
    if (t.min !== undefined && !(f.value >= t.min)) met = false;
    if (t.maxRatio !== undefined && !(ratio !== null && ratio <= t.maxRatio)) met = false;
  }
  return {
    name: f.name,
    value: round(f.value),
    unit: f.unit,
    lowerBound: lowerBound === null ? null : round(lowerBound),
    ratio,
    target: t,
    met,
    ...(f.runs ? { runs: f.runs.map((r) => round(r)) } : {}),
    ...(f.note ? { note: f.note } : {}),
  };
}

export function targetText(t: Target | null): string {
  if (!t) return "";
  const parts: string[] = [];
  if (t.max !== undefined) parts.push(`≤ ${t.max}`);
  if (t.min !== undefined) parts.push(`≥ ${t.min}`);
  if (t.maxRatio !== undefined) parts.push(`≤ ${t.maxRatio}×`);
  return parts.join(", ");
}

/** The figures as a plain-text table (what the bench prints). */
export function table(figures: Figure[]): string {
  const rows = [
    ["figure", "value", "lower bound", "ratio", "target", "met", "note"],
    ...figures.map((f) => [
      f.name,
      `${f.value} ${f.unit}`,
      f.lowerBound === null ? "" : `${f.lowerBound} ${f.unit}`,
      f.ratio === null ? "" : `${f.ratio}×`,
      targetText(f.target),
      f.met === null ? "" : f.met ? "yes" : "NO",
      f.note ?? "",
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")).join("\n");
}
