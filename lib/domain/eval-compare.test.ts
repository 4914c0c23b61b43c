// Comparing two runs: SOP success is in percent and every other figure a ratio in [0, 1]; the comparison must weigh
// them in one unit (percentage points), the largest regression first, in the API's order and in the command line's.
import { describe, expect, it } from "vitest";
import { formatCompare } from "@/lib/cli/eval";
import { compareFigures, type EvalCompare, type EvalFigures, type EvalRunView } from "./eval";

const rates = (stepAccuracy: number | null) => ({
  steps: 6,
  typeAccuracy: stepAccuracy,
  stepAccuracy,
  groundingSteps: 0,
  groundingAccuracy: null,
});
const sop = (successRate: number | null, progress: number | null) => ({
  definition: "studio" as const,
  trajectories: 8,
  successRate,
  progress,
  incomplete: 0,
});

function figures(f: { step: number; type: number; sop: number; progress: number; clock: number; mail: number }): EvalFigures {
  return {
    rule: "studio-lenient",
    coords: "qwen25-abs",
    maxPixels: 1_000_000,
    scoredSteps: 6,
    unpredictedSteps: 0,
    problems: 0,
    rewards: {},
    accuracy: { ...rates(f.step), typeAccuracy: f.type },
    perAction: {},
    perApp: { Clock: { ...rates(f.clock), sop: sop(null, null) }, Mail: { ...rates(f.mail), sop: sop(null, null) } },
    harmful: { steps: 0, repeated: 0 },
    sop: sop(f.sop, f.progress),
    failures: {},
    confusion: {},
  };
}

// b against a: SOP success -12.5 points (50% -> 37.5%), step accuracy -33.3 points (1 -> 2/3), type accuracy -5 points,
// Mail +20 points, Clock +50 points, SOP progress unchanged.
const A = figures({ step: 1, type: 0.9, sop: 50, progress: 0.5, clock: 0.5, mail: 0.6 });
const B = figures({ step: 2 / 3, type: 0.85, sop: 37.5, progress: 0.5, clock: 1, mail: 0.8 });

describe("compareFigures", () => {
  it("orders by the change in percentage points, regressions first: step accuracy -33.3 before SOP success -12.5", () => {
    const rows = compareFigures(A, B);
    expect(rows.map((r) => r.figure)).toEqual([
      "stepAccuracy",
      "sopSuccessRate",
      "typeAccuracy",
      "stepAccuracy@Clock",
      "stepAccuracy@Mail",
      "sopProgress",
      "groundingAccuracy",
    ]);
    expect(rows.map((r) => (r.points === null ? null : Math.round(r.points * 10) / 10))).toEqual([-33.3, -12.5, -5, 50, 20, 0, null]);
    // delta stays in the figure's own unit.
    expect(rows.find((r) => r.figure === "sopSuccessRate")).toMatchObject({ a: 50, b: 37.5, delta: -12.5, points: -12.5 });
  });

  it("the command line lists the figures in that order, each change in points", () => {
    const run = (id: string): EvalRunView =>
      ({ id, endpoint: { name: `ckpt-${id}` }, set: { name: "smoke", version: 1 } }) as unknown as EvalRunView;
    const c: EvalCompare = { a: run("a"), b: run("b"), figures: compareFigures(A, B), steps: [] };
    const lines = formatCompare(c).split("\n").slice(1, 4);
    expect(lines.map((l) => l.trim().split(/\s+/)[0])).toEqual(["stepAccuracy", "sopSuccessRate", "typeAccuracy"]);
    expect(lines[0]).toContain("100.0% -> 66.7% (-33.3 points)");
    expect(lines[1]).toContain("50.0% -> 37.5% (-12.5 points)");
  });
});
