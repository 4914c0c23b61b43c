import { describe, expect, it } from "vitest";
import { fastLaneFirstError, fastLanePlan, laneAfterHandIn } from "./lane";
import { firstError, processLabel } from "./process-label";
import type { ToolCall } from "./tool-call";
import type { Verdict } from "./trajectory";

const click: ToolCall = { action: "click", coordinate: [100, 200] };
const moved: ToolCall = { action: "click", coordinate: [300, 400] };

const step = (index: number, verdict: Verdict = "unreviewed", toolCall: ToolCall = click) => ({
  index,
  verdict,
  toolCall,
  original: { toolCall: click },
  thought: { state: "", nextAction: "", purpose: "", text: "t" },
  clearAction: "c",
});

/** The steps with the plan's verdicts written, as the server writes them. */
function applied(steps: ReturnType<typeof step>[], firstErr: number | null, after: "cut" | "queue") {
  const r = fastLanePlan(steps, firstErr, after);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const by = new Map(r.plan.verdicts.map((v) => [v.index, v.verdict]));
  return { plan: r.plan, steps: steps.map((s) => ({ ...s, verdict: by.get(s.index) ?? s.verdict })) };
}

describe("fast lane labels", () => {
  it("make the steps before the first error good, the marked one harmful, and first_error name it", () => {
    const { plan, steps } = applied([step(0), step(1), step(2), step(3)], 2, "cut");
    expect(steps.map((s) => s.verdict)).toEqual(["good", "good", "harmful", "unreviewed"]);
    expect(steps.map(processLabel)).toEqual([1, 1, -1, null]);
    expect(plan.cutAfter).toBe(2);
    expect(plan.isQueued).toBe(false);
    expect(firstError({ cutAfter: 2, isDiscarded: false, steps })).toBe(3);
  });

  it("give the marked step `corrected` when a person replaced its call on the spot (still -1)", () => {
    const { steps } = applied([step(0), step(1, "unreviewed", moved)], 1, "cut");
    expect(steps[1]!.verdict).toBe("corrected");
    expect(processLabel(steps[1]!)).toBe(-1);
  });

  it("queue the task for full correction instead of cutting when the project says so", () => {
    const { plan, steps } = applied([step(0), step(1), step(2)], 0, "queue");
    expect(plan).toMatchObject({ cutAfter: "keep", isQueued: true });
    expect(steps.map((s) => s.verdict)).toEqual(["harmful", "unreviewed", "unreviewed"]);
    // Nothing after the last step: nothing to queue.
    expect(applied([step(0), step(1)], 1, "queue").plan.isQueued).toBe(false);
  });

  it("with no error make every step good, keep the cut and leave first_error null", () => {
    const { plan, steps } = applied([step(0, "neutral"), step(1)], null, "cut");
    expect(steps.map((s) => s.verdict)).toEqual(["good", "good"]);
    expect(plan).toEqual({
      verdicts: [
        { index: 0, verdict: "good" },
        { index: 1, verdict: "good" },
      ],
      cutAfter: "keep",
      isQueued: false,
    });
    expect(firstError({ cutAfter: null, isDiscarded: false, steps })).toBeNull();
  });

  it("refuse a step before the first error whose call a person replaced, naming it, and a mark past the end", () => {
    expect(fastLanePlan([step(0), step(1, "corrected", moved), step(2)], 2, "cut")).toEqual({
      ok: false,
      problems: [{ code: "lane.correctedBeforeError", stepIndex: 1 }],
    });
    expect(fastLanePlan([step(0)], 1, "cut")).toEqual({
      ok: false,
      problems: [{ code: "lane.firstErrorPastEnd", stepIndex: 1, stepCount: 1 }],
    });
  });

  it("record fast, full and fast-then-full as work is handed in", () => {
    expect(laneAfterHandIn(null, "full")).toBe("full");
    expect(laneAfterHandIn(null, "fast")).toBe("fast");
    expect(laneAfterHandIn("fast", "full")).toBe("fast-then-full");
    expect(laneAfterHandIn("fast-then-full", "full")).toBe("fast-then-full");
    expect(laneAfterHandIn("full", "fast")).toBe("fast");
    expect(laneAfterHandIn("full", "full")).toBe("full");
  });
});

describe("fastLaneFirstError", () => {
  it("reads the first harmful or corrected step back from a hand-in's verdicts", () => {
    expect(fastLaneFirstError([step(0, "good"), step(1, "good"), step(2, "harmful"), step(3)])).toBe(2);
    expect(fastLaneFirstError([step(1, "corrected"), step(0, "good"), step(2, "harmful")])).toBe(1);
  });
  it("is null when every step was good (no error)", () => {
    expect(fastLaneFirstError([step(0, "good"), step(1, "good")])).toBeNull();
    expect(fastLaneFirstError([])).toBeNull();
  });
});
