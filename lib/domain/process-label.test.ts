import { describe, expect, it } from "vitest";
import { ANNOTATIONS } from "./rewards";
import {
  annotationOfProcessLabel,
  changedFields,
  firstError,
  isModelActionWrong,
  processLabel,
  processLabelOfAnnotation,
} from "./process-label";
import type { ToolCall } from "./tool-call";
import type { CanonicalStep, Verdict } from "./trajectory";

const click: ToolCall = { action: "click", coordinate: [100, 200] };

function step(
  index: number,
  verdict: Verdict,
  person: Partial<Pick<CanonicalStep, "toolCall" | "clearAction">> & { thought?: string } = {},
) {
  return {
    index,
    verdict,
    original: { toolCall: click, thought: "t", clearAction: "c" },
    thought: { state: "", nextAction: "", purpose: "", text: person.thought ?? "t" },
    clearAction: person.clearAction ?? "c",
    toolCall: person.toolCall ?? click,
  } satisfies Pick<CanonicalStep, "index" | "verdict" | "original" | "thought" | "clearAction" | "toolCall">;
}

describe("process labels", () => {
  it("map UI-S1's GOOD / NEUTRAL / HARMFUL one to one, both ways, for steps whose call stands", () => {
    expect(ANNOTATIONS.map(processLabelOfAnnotation)).toEqual([1, -1, 0]);
    for (const a of ANNOTATIONS) expect(annotationOfProcessLabel(processLabelOfAnnotation(a))).toBe(a);
    // What `bridge traj` writes as the step's annotation for each verdict (lib/bridge/samples.ts uiS1AnnotationOf).
    const written = { good: "GOOD", neutral: "NEUTRAL", harmful: "HARMFUL" } as const;
    for (const [verdict, annotation] of Object.entries(written)) {
      expect(annotationOfProcessLabel(processLabel(step(0, verdict as Verdict))!)).toBe(annotation);
    }
  });

  it("call a replaced tool call wrong whatever the verdict, and a reworded thought or clear action right", () => {
    const moved = step(0, "corrected", { toolCall: { action: "click", coordinate: [101, 200] } });
    expect(changedFields(moved)).toEqual(["toolCall"]);
    expect([isModelActionWrong(moved), processLabel(moved)]).toEqual([true, -1]);
    expect(processLabel(step(0, "neutral", { toolCall: { action: "wait", time: 1 } }))).toBe(-1);
    const reworded = step(0, "corrected", { thought: "better", clearAction: "clearer" });
    expect(changedFields(reworded)).toEqual(["thought", "clearAction"]);
    expect([isModelActionWrong(reworded), processLabel(reworded)]).toEqual([false, 1]);
    expect(processLabel(step(0, "unreviewed"))).toBeNull();
    // Key order is not a change.
    expect(changedFields(step(0, "good", { toolCall: { coordinate: [100, 200], action: "click" } }))).toEqual([]);
  });

  it("name the first wrong step inside the cut, 1-based, or null", () => {
    const steps = [
      step(0, "good"),
      step(1, "neutral"),
      step(2, "harmful"),
      step(3, "corrected", { toolCall: { action: "wait", time: 1 } }),
    ];
    expect(firstError({ steps, cutAfter: null, isDiscarded: false })).toBe(3);
    expect(firstError({ steps, cutAfter: 1, isDiscarded: false })).toBeNull();
    expect(firstError({ steps, cutAfter: null, isDiscarded: true })).toBeNull();
    expect(firstError({ steps: [steps[0]!, steps[3]!].map((s, index) => ({ ...s, index })), cutAfter: null, isDiscarded: false })).toBe(2);
  });
});

describe("changedFields on a source without thoughts", () => {
  it("does not count a thought or clear action the model never wrote as a change", () => {
    const s = step(0, "corrected", { thought: "written by a person", clearAction: "also a person's" });
    const bare = { ...s, original: { toolCall: click } };
    expect(changedFields(bare)).toEqual([]);
    expect(changedFields({ ...bare, toolCall: { action: "wait", time: 1 } })).toEqual(["toolCall"]);
  });
});
