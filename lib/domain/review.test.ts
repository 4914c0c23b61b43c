import { describe, expect, it } from "vitest";
import type { StepAnnotation } from "./annotation";
import { auditedStep, openCommentsByStep, personChanges, reviewDecisionInput, snapshotDiff, type ReviewSnapshot } from "./review";

const step = (patch: Partial<StepAnnotation> = {}): StepAnnotation => ({
  thought: { state: "s", nextAction: "n", purpose: "p", text: "s n p" },
  clearAction: "Tap OK.",
  toolCall: { action: "click", coordinate: [10, 20] },
  box: [0, 0, 50, 50],
  verdict: "good",
  ...patch,
});
const snap = (outcome: "success" | "failure" | null, steps: StepAnnotation[]): ReviewSnapshot => ({
  trajectory: { outcome, isDiscarded: false, cutAfter: null },
  steps: steps.map((annotation, index) => ({ stepId: `s${index}`, index, annotation })),
});

describe("snapshotDiff", () => {
  it("lists the outcome and each changed step field with its value then and now", () => {
    const d = snapshotDiff(snap(null, [step(), step()]), snap("failure", [step(), step({ box: [1, 1, 40, 40], verdict: "corrected" })]));
    expect(d.trajectory).toEqual([{ field: "outcome", before: null, after: "failure" }]);
    expect(d.steps).toEqual([
      {
        stepId: "s1",
        index: 1,
        fields: [
          { field: "box", before: [0, 0, 50, 50], after: [1, 1, 40, 40] },
          { field: "verdict", before: "good", after: "corrected" },
        ],
      },
    ]);
  });
  it("is empty when nothing changed", () => {
    expect(snapshotDiff(snap("success", [step()]), snap("success", [step()]))).toEqual({ trajectory: [], steps: [] });
  });
});

describe("personChanges", () => {
  it("counts nothing for an imported box nobody edited", () => {
    expect(personChanges(step(), [])).toEqual([]);
    expect(personChanges(step(), [{ verdict: "unreviewed" }])).toEqual([]); // the verdict is its own badge
  });
  it("names fields a person edited and left different, not those edited back", () => {
    const now = step({ clearAction: "Tap Cancel.", box: [0, 0, 50, 50] });
    const history = [{ clearAction: "Tap OK.", box: [0, 0, 50, 50] }, { box: [5, 5, 60, 60] }];
    expect(personChanges(now, history)).toEqual(["clearAction"]);
    expect(
      personChanges(step({ thought: { state: "x", nextAction: "n", purpose: "p", text: "x n p" } }), [
        { thoughtState: "s", thought: "s n p" },
      ]),
    ).toEqual(["thought"]);
  });
  it("reads the audited field names", () => {
    expect(Object.keys(auditedStep(step()))).toEqual([
      "thoughtState",
      "thoughtNext",
      "thoughtPurpose",
      "thought",
      "clearAction",
      "toolCall",
      "box",
      "verdict",
    ]);
  });
});

describe("decision input", () => {
  it("needs a reason to send back and refuses fixes with it, or the same step twice", () => {
    expect(reviewDecisionInput.safeParse({ decision: "reject", version: 1 }).error?.issues[0]?.message).toBe(
      "say why when sending work back",
    );
    const fix = { stepId: "a", version: 1, ...step() };
    expect(reviewDecisionInput.safeParse({ decision: "reject", comment: "x", version: 1, fixes: [fix] }).error?.issues[0]?.path).toEqual([
      "fixes",
    ]);
    expect(reviewDecisionInput.safeParse({ decision: "approve", version: 1, fixes: [fix, fix] }).error?.issues[0]?.message).toMatch(
      /once per decision/,
    );
    expect(reviewDecisionInput.parse({ decision: "approve", version: 1 }).fixes).toEqual([]);
  });
  it("counts open comments per step", () => {
    expect([
      ...openCommentsByStep([
        { stepIndex: 1, isResolved: false },
        { stepIndex: 1, isResolved: true },
        { stepIndex: null, isResolved: false },
        { stepIndex: 3, isResolved: false },
      ]),
    ]).toEqual([
      [1, 1],
      [3, 1],
    ]);
  });
});
