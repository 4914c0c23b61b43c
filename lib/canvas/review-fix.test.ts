import { describe, expect, it } from "vitest";
import type { StepAnnotation, TrajectoryAnnotation } from "@/lib/domain/annotation";
import { reviewDecisionInput } from "@/lib/domain/review";
import { createEditor, TRAJECTORY_KEY, viewTransform, type DocValue, type Synced } from "./editor";
import { collectFixes, invalidFixes } from "./review-fix";

const SIZE = { width: 1080, height: 2400 };
const annotation = (): StepAnnotation => ({
  thought: { state: "Home.", nextAction: "Tap.", purpose: "Open.", text: "Home. Tap. Open." },
  clearAction: "Tap Settings.",
  toolCall: { action: "click", coordinate: [540, 1200] },
  box: [200, 500, 700, 1300],
  verdict: "good",
});
const traj: TrajectoryAnnotation = { outcome: "success", isDiscarded: false, cutAfter: null };

/** The engine as the review page builds it: the submitted annotation, steps at versions 3, 4, 5. */
function reviewFix() {
  const steps = ["s0", "s1", "s2"].map((id, index) => ({ id, index, size: SIZE }));
  const doc = { trajectory: traj, steps: { s0: annotation(), s1: annotation(), s2: annotation() } };
  const server: Record<string, Synced<DocValue>> = { [TRAJECTORY_KEY]: { version: 7, value: traj } };
  steps.forEach((s, i) => (server[s.id] = { version: 3 + i, value: annotation() }));
  const editor = createEditor({ trajectoryId: "t1", steps, doc, server, mode: "review-fix" });
  editor.setViewport({ width: 556, height: 1216 });
  return editor;
}
const tap = (e: ReturnType<typeof reviewFix>, x: number, y: number) => {
  const t = viewTransform(e.get());
  const p = { image: [x, y] as [number, number], display: [t.x + x * t.scale, t.y + y * t.scale] as [number, number] };
  e.pointerDown(p);
  e.pointerUp(p);
};

describe("review-fix mode", () => {
  it("a point set on the canvas is one fix of that step, at the version the reviewer started from, accepted by the decision", () => {
    const e = reviewFix();
    expect(collectFixes(e.get())).toEqual([]);
    e.goTo(1);
    tap(e, 300, 600);
    const fixes = collectFixes(e.get());
    // The edit made the step "corrected" (it was good): opening the fix alone changed nothing.
    expect(fixes).toEqual([
      { ...annotation(), toolCall: { action: "click", coordinate: [300, 600] }, verdict: "corrected", stepId: "s1", version: 4 },
    ]);
    expect(invalidFixes(e.get())).toEqual([]);
    expect(reviewDecisionInput.safeParse({ decision: "approve", version: 7, fixes }).success).toBe(true);
  });

  it("fixes come in step order, only changed steps count, and trajectory fields are never a fix", () => {
    const e = reviewFix();
    e.goTo(2);
    e.setClearAction("Open Settings.");
    e.goTo(0);
    e.setVerdict("corrected");
    e.setOutcome("failure");
    expect(collectFixes(e.get()).map((f) => [f.stepId, f.version])).toEqual([
      ["s0", 3],
      ["s2", 5],
    ]);
    // Changing a step back to what was submitted is no fix any more.
    e.setVerdict("good");
    expect(collectFixes(e.get()).map((f) => f.stepId)).toEqual(["s2"]);
  });

  it("opening a fix changes no verdict; the first edit makes a good step corrected, in the same undo step", () => {
    const e = reviewFix();
    e.goTo(1);
    expect(collectFixes(e.get())).toEqual([]);
    expect(e.get().doc.steps.s1!.verdict).toBe("good");
    e.setClearAction("Tap the Settings icon.");
    expect(e.get().doc.steps.s1!.verdict).toBe("corrected");
    e.undo();
    expect(e.get().doc.steps.s1).toEqual(annotation());
    expect(collectFixes(e.get())).toEqual([]);
    // A verdict the reviewer chose stays theirs: a later edit does not overwrite it.
    e.setVerdict("harmful");
    e.setClearAction("Tap the gear.");
    expect(e.get().doc.steps.s1!.verdict).toBe("harmful");
  });

  it("dropping a fix puts the step back (one undo step) and the mode never switches to the annotator's lanes", () => {
    const e = reviewFix();
    e.setClearAction("Something else.");
    e.revert("s0");
    expect(collectFixes(e.get())).toEqual([]);
    e.undo();
    expect(collectFixes(e.get()).map((f) => f.clearAction)).toEqual(["Something else."]);
    e.toggleMode();
    expect(e.get().mode).toBe("review-fix");
  });

  it("a fix the decision would refuse is named by its step: a field over its limit, a point outside the target box", () => {
    const e = reviewFix();
    e.setClearAction("x".repeat(100_000));
    expect(invalidFixes(e.get())).toEqual(["s0"]);
    e.revert("s0");
    e.goTo(1);
    e.setBox([500, 1100, 600, 1300]);
    expect(invalidFixes(e.get())).toEqual([]);
    tap(e, 300, 600);
    expect(invalidFixes(e.get())).toEqual(["s1"]);
    // A harmful step is not trained on: its point may lie anywhere.
    e.setVerdict("harmful");
    expect(invalidFixes(e.get())).toEqual([]);
  });
});
