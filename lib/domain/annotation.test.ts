import { describe, expect, it } from "vitest";
import {
  actionsNamedIn,
  groundTruthContradictions,
  isOneSentence,
  stepProblems,
  submitProblems,
  thoughtNamesOtherAction,
  type StepAnnotation,
} from "./annotation";

const SIZE = { width: 1080, height: 2400 };
const complete: StepAnnotation = {
  thought: { state: "The home screen is open.", nextAction: "Tap the Settings icon.", purpose: "To change the language.", text: "x" },
  clearAction: "Tap the Settings icon.",
  toolCall: { action: "click", coordinate: [540, 1200] },
  box: [500, 1150, 600, 1250],
  verdict: "corrected",
};
const codes = (a: StepAnnotation) => stepProblems(a, SIZE).map((p) => p.code);

describe("step checks", () => {
  it("a complete step has no problems", () => {
    expect(codes(complete)).toEqual([]);
  });
  it("names each empty thought part, a missing box for a tap, and an unset verdict", () => {
    const a = { ...complete, thought: { state: "", nextAction: " ", purpose: "", text: "" }, box: null, verdict: "unreviewed" as const };
    expect(codes(a)).toEqual([
      "thought.state.empty",
      "thought.nextAction.empty",
      "thought.purpose.empty",
      "thought.text.empty",
      "box.missing",
      "verdict.unset",
    ]);
  });
  it("a swipe needs no box", () => {
    expect(
      codes({
        ...complete,
        box: null,
        toolCall: { action: "swipe", coordinate: [5, 5], coordinate2: [5, 900] },
        thought: { ...complete.thought, nextAction: "Swipe up." },
      }),
    ).toEqual([]);
  });
  it("ground truth that contradicts itself blocks the step, with a reason naming the numbers", () => {
    expect(stepProblems({ ...complete, box: [0, 0, 10, 10] }, SIZE)).toEqual([
      { code: "box.missesPoint", field: "box", isBlocking: true, detail: "(540, 1200) ∉ [0, 0, 10, 10]" },
    ]);
    const longPress = { ...complete, toolCall: { action: "long_press" as const, coordinate: [540, 1300] as [number, number], time: 2 } };
    expect(stepProblems(longPress, SIZE)).toContainEqual({
      code: "box.missesPoint",
      field: "box",
      isBlocking: true,
      detail: "(540, 1300) ∉ [500, 1150, 600, 1250]",
    });
    const swipe = {
      ...complete,
      thought: { ...complete.thought, nextAction: "Swipe up." },
      toolCall: { action: "swipe" as const, coordinate: [540, 2000] as [number, number], coordinate2: [540, 1200] as [number, number] },
    };
    expect(codes(swipe)).toEqual(["box.missesPoint"]);
    // The swipe's end may leave the box; only its start is the target.
    expect(codes({ ...swipe, toolCall: { ...swipe.toolCall, coordinate: [540, 1200], coordinate2: [540, 200] } })).toEqual([]);
    // A point on the box's border is inside.
    expect(codes({ ...complete, box: [540, 1200, 600, 1250] })).toEqual([]);
    const typing = {
      ...complete,
      box: null,
      thought: { ...complete.thought, nextAction: "Type the name." },
      toolCall: { action: "type" as const, text: "  " },
    };
    expect(stepProblems(typing, SIZE)).toEqual([{ code: "toolCall.emptyText", field: "toolCall.text", isBlocking: true }]);
    expect(
      submitProblems({ outcome: "success", isDiscarded: false, cutAfter: null }, [{ index: 3, annotation: typing, size: SIZE }]),
    ).toEqual([{ code: "step.incomplete", stepIndex: 3, problems: ["toolCall.emptyText"] }]);
  });
  it("groundTruthContradictions gives an English reason for command-line reports", () => {
    expect(
      groundTruthContradictions({ action: "click", coordinate: [10, 10] }, [-300, -300, -200, -200], SIZE).map((c) => c.message),
    ).toEqual([
      "the click at (10, 10) lies outside the step's own target box [-300, -300, -200, -200]",
      "the target box [-300, -300, -200, -200] lies outside the 1080x2400 screenshot",
    ]);
    expect(groundTruthContradictions({ action: "type", text: "牛奶" }, null, SIZE)).toEqual([]);
    expect(groundTruthContradictions({ action: "click", coordinate: [10, 10] }, null, SIZE)).toEqual([]);
  });
  it("clear action must be one sentence", () => {
    expect(isOneSentence("Tap the Settings icon.")).toBe(true);
    expect(isOneSentence("点击设置图标")).toBe(true);
    expect(isOneSentence("Tap Settings. Then tap Language.")).toBe(false);
    expect(isOneSentence("点击设置。然后点击语言。")).toBe(false);
    expect(isOneSentence("  ")).toBe(false);
    expect(codes({ ...complete, clearAction: "Open it. Then go." })).toEqual(["clearAction.notOneSentence"]);
  });
  it("warns when the thought names a different action than the tool call", () => {
    expect(actionsNamedIn("向上滑动页面")).toEqual(["swipe"]);
    expect(thoughtNamesOtherAction("Swipe up to see more results.", complete.toolCall)).toEqual(["swipe"]);
    expect(thoughtNamesOtherAction("Tap the search bar.", complete.toolCall)).toBeNull();
    expect(thoughtNamesOtherAction("The page is ready.", complete.toolCall)).toBeNull();
    const p = stepProblems({ ...complete, thought: { ...complete.thought, nextAction: "向上滑动页面" } }, SIZE);
    expect(p).toEqual([{ code: "thought.actionMismatch", field: "thought.nextAction", isBlocking: false, detail: "swipe" }]);
  });
  it("points off the screenshot block the step", () => {
    expect(codes({ ...complete, toolCall: { action: "click", coordinate: [2000, 10] }, box: [1990, 0, 2010, 20] })).toEqual([
      "toolCall.offScreen",
      "box.offScreen",
    ]);
  });
  it("a box drawn wholly off the screenshot blocks the step; one reaching past the edge does not", () => {
    expect(codes({ ...complete, box: [-1e9, -1e9, -1e8, -1e8] })).toContain("box.offScreen");
    expect(codes({ ...complete, box: [-20, -20, 2000, 3000] })).not.toContain("box.offScreen");
  });
});

describe("submit rules", () => {
  const steps = [0, 1, 2].map((index) => ({ index, annotation: complete, size: SIZE }));
  it("needs an outcome and every kept step complete; steps after the cut do not count", () => {
    const broken = [...steps.slice(0, 2), { index: 2, annotation: { ...complete, clearAction: "" }, size: SIZE }];
    expect(submitProblems({ outcome: null, isDiscarded: false, cutAfter: null }, broken)).toEqual([
      { code: "outcome.unset" },
      { code: "step.incomplete", stepIndex: 2, problems: ["clearAction.empty"] },
    ]);
    expect(submitProblems({ outcome: "success", isDiscarded: false, cutAfter: 1 }, broken)).toEqual([]);
  });
  it("a discarded trajectory can always be submitted", () => {
    expect(
      submitProblems({ outcome: null, isDiscarded: true, cutAfter: null }, [
        { index: 0, annotation: { ...complete, clearAction: "" }, size: SIZE },
      ]),
    ).toEqual([]);
  });
});
