import { describe, expect, it } from "vitest";
import {
  agreementReport,
  boxIou,
  cohensKappaOf,
  krippendorffAlphaNominal,
  normalizeTypedText,
  pointsAgree,
  stepAgreement,
  thoughtSimilarity,
  type AnnotationCopy,
} from "./agreement";
import type { StepAnnotation } from "./annotation";
import type { Box } from "./geometry";
import type { StepToolCall } from "./tool-call";
import type { Verdict } from "./trajectory";

function step(toolCall: StepToolCall, opts: { box?: Box | null; verdict?: Verdict; thought?: string } = {}): StepAnnotation {
  const thought = opts.thought ?? "";
  return {
    thought: { state: "", nextAction: "", purpose: "", text: thought },
    clearAction: "",
    toolCall,
    box: opts.box ?? null,
    verdict: opts.verdict ?? "good",
  };
}

describe("the statistics, against published worked examples", () => {
  it("Cohen's kappa: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no gives 0.4 (p_o 0.7, p_e 0.5)", () => {
    const pairs: [string, string][] = [
      ...Array.from({ length: 20 }, (): [string, string] => ["yes", "yes"]),
      ...Array.from({ length: 5 }, (): [string, string] => ["yes", "no"]),
      ...Array.from({ length: 10 }, (): [string, string] => ["no", "yes"]),
      ...Array.from({ length: 15 }, (): [string, string] => ["no", "no"]),
    ];
    expect(cohensKappaOf(pairs)).toBeCloseTo(0.4, 10);
    expect(cohensKappaOf([])).toBeNull();
    expect(cohensKappaOf([["a", "a"]])).toBeNull();
  });

  it("Krippendorff's alpha, nominal: his 4 observers x 12 units example with missing values gives 0.743", () => {
    // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: observers A-D, units 1-12.
    const A = ["1", "2", "3", "3", "2", "1", "4", "1", "2", null, null, null];
    const B = ["1", "2", "3", "3", "2", "2", "4", "1", "2", "5", null, "3"];
    const C = [null, "3", "3", "3", "2", "3", "4", "2", "2", "5", "1", null];
    const D = ["1", "2", "3", "3", "2", "4", "4", "1", "2", "5", "1", null];
    const units = A.map((_, u) => [A[u]!, B[u]!, C[u]!, D[u]!]);
    expect(krippendorffAlphaNominal(units)).toBeCloseTo(0.743, 3);
  });

  it("alpha is 1 for perfect agreement over two categories, null when nothing is pairable or all is one category", () => {
    expect(
      krippendorffAlphaNominal([
        ["a", "a"],
        ["b", "b"],
      ]),
    ).toBe(1);
    expect(
      krippendorffAlphaNominal([
        ["a", null],
        [null, "b"],
      ]),
    ).toBeNull();
    expect(
      krippendorffAlphaNominal([
        ["a", "a"],
        ["a", "a"],
      ]),
    ).toBeNull();
  });
});

describe("the GUI-step comparisons", () => {
  it("box IoU: half-overlapping squares give 1/3; disjoint 0; equal 1", () => {
    expect(boxIou([0, 0, 10, 10], [5, 0, 15, 10])).toBeCloseTo(1 / 3, 10);
    expect(boxIou([0, 0, 10, 10], [20, 20, 30, 30])).toBe(0);
    expect(boxIou([0, 0, 10, 10], [0, 0, 10, 10])).toBe(1);
  });

  it("points far apart inside one drawn box agree; close points on either side of its edge do not", () => {
    const box: Box = [50, 50, 400, 150];
    expect(pointsAgree([60, 60], [390, 140], { boxA: box, boxB: null })).toBe(true);
    expect(pointsAgree([395, 100], [405, 100], { boxA: box, boxB: null })).toBe(false);
    expect(pointsAgree([395, 100], [405, 100], { boxA: null, boxB: null })).toBe(true);
    expect(pointsAgree([0, 0], [100, 0], { boxA: null, boxB: null })).toBe(false);
  });

  it("without a box, the screen's smallest element decides: one element agrees at 200 px, two elements disagree at 4 px", () => {
    const elements = [
      { bbox: [0, 0, 1080, 2400] as Box, class: "FrameLayout" },
      { bbox: [100, 500, 500, 600] as Box, text: "搜索" },
      { bbox: [500, 500, 900, 600] as Box, text: "设置" },
    ];
    expect(pointsAgree([110, 550], [310, 550], { boxA: null, boxB: null, elements })).toBe(true);
    expect(pointsAgree([498, 550], [502, 550], { boxA: null, boxB: null, elements })).toBe(false);
  });

  it("typed text is compared after NFKC, case and white space; thoughts by character bigrams in any script", () => {
    expect(normalizeTypedText("  Hello\u00a0 WORLD ")).toBe("hello world");
    expect(normalizeTypedText("ＡＢＣ")).toBe("abc");
    expect(thoughtSimilarity("Tap the Search box.", "tap the search box")).toBe(1);
    // abcd vs abce: bigrams {ab, bc, cd} and {ab, bc, ce} share 2 of 3 + 3 -> 4/6
    expect(thoughtSimilarity("abcd", "abce")).toBeCloseTo(4 / 6, 10);
    // 点击搜索框 (4 bigrams) vs 点击搜索按钮 (5): 点击, 击搜, 搜索 shared -> 6/9
    expect(thoughtSimilarity("点击搜索框", "点击搜索按钮")).toBeCloseTo(6 / 9, 10);
    expect(thoughtSimilarity("", "")).toBe(1);
    expect(thoughtSimilarity("a", "")).toBe(0);
  });

  it("a step: a swipe's point agrees only with the same direction; a text compares only between actions with text", () => {
    const up = step({ action: "swipe", coordinate: [500, 1500], coordinate2: [500, 500] });
    const down = step({ action: "swipe", coordinate: [505, 1500], coordinate2: [505, 2000] });
    expect(stepAgreement(up, down)).toEqual({ actionType: true, verdict: true, thought: true, point: false });
    const typed = stepAgreement(step({ action: "type", text: "Hi" }), step({ action: "type", text: "hi " }));
    expect(typed).toEqual({ actionType: true, verdict: true, thought: true, text: true });
  });
});

describe("the report of three people on the same trajectories, against a table computed by hand", () => {
  const click = (x: number, y: number): StepToolCall => ({ action: "click", coordinate: [x, y] });
  const typed = (text: string): StepToolCall => ({ action: "type", text });
  const copies: AnnotationCopy[] = [
    {
      trajectoryId: "T1",
      person: "p1",
      app: "A",
      trajectory: { outcome: "success", cutAfter: null, isDiscarded: false },
      steps: [
        step(click(100, 100), { box: [50, 50, 400, 150], thought: "点击搜索框" }),
        step(typed("Hello  World"), { verdict: "corrected", thought: "输入问候语" }),
      ],
    },
    {
      trajectoryId: "T1",
      person: "p2",
      app: "A",
      trajectory: { outcome: "success", cutAfter: null, isDiscarded: false },
      steps: [
        step(click(350, 120), { thought: "点击搜索框" }),
        step(typed("hello world"), { verdict: "corrected", thought: "输入问候语" }),
      ],
    },
    {
      trajectoryId: "T1",
      person: "p3",
      app: "A",
      trajectory: { outcome: "failure", cutAfter: 0, isDiscarded: false },
      steps: [
        step(click(600, 600), { verdict: "corrected", thought: "打开设置" }),
        step(typed("hello"), { verdict: "corrected", thought: "输入问候语" }),
      ],
    },
    ...[
      {
        person: "p1",
        call: { action: "swipe", coordinate: [500, 1500], coordinate2: [500, 500] } as StepToolCall,
        outcome: "success" as const,
      },
      {
        person: "p2",
        call: { action: "swipe", coordinate: [510, 1490], coordinate2: [520, 400] } as StepToolCall,
        outcome: "success" as const,
      },
      { person: "p3", call: click(500, 1500), outcome: null },
    ].map(({ person, call, outcome }): AnnotationCopy => ({
      trajectoryId: "T2",
      person,
      app: "B",
      trajectory: { outcome, cutAfter: null, isDiscarded: false },
      steps: [step(call, { thought: "向上滑动" })],
    })),
  ];
  const report = agreementReport(copies);
  const counts = (f: Record<string, { compared: number; agreed: number }>) =>
    Object.fromEntries(Object.entries(f).map(([k, v]) => [k, [v.agreed, v.compared]]));

  it("overall: agreed/compared per field, with points in one box agreeing 250 px apart", () => {
    expect(report.trajectories).toBe(2);
    expect(counts(report.overall)).toEqual({
      actionType: [7, 9],
      point: [4, 6],
      box: [0, 2],
      text: [1, 3],
      verdict: [7, 9],
      thought: [7, 9],
      outcome: [2, 4],
      cut: [4, 6],
      discard: [6, 6],
    });
  });

  it("kappa of the action type is 2/3 (p_o 7/9, p_e 1/3) and alpha across the three is 36/52", () => {
    expect(report.overall.actionType.kappa).toBeCloseTo(2 / 3, 10);
    expect(report.alpha.actionType).toBeCloseTo(36 / 52, 10);
  });

  it("per pair, per app and per action type", () => {
    const p12 = report.byPair.find((p) => p.a === "p1" && p.b === "p2")!;
    expect([p12.trajectories, p12.steps]).toEqual([2, 3]);
    expect(counts(p12.fields)).toMatchObject({ actionType: [3, 3], point: [2, 2], box: [0, 1], text: [1, 1], outcome: [2, 2] });
    expect(report.byPair.map((p) => `${p.a}-${p.b}`)).toEqual(["p1-p2", "p1-p3", "p2-p3"]);
    expect(counts(report.byApp.find((a) => a.app === "A")!.fields)).toMatchObject({ actionType: [6, 6], text: [1, 3], cut: [1, 3] });
    expect(counts(report.byActionType.find((t) => t.actionType === "click")!.fields)).toMatchObject({ actionType: [3, 5] });
    expect(counts(report.byActionType.find((t) => t.actionType === "swipe")!.fields)).toMatchObject({ actionType: [1, 3], point: [3, 3] });
  });

  it("refuses two copies of one trajectory by the same person", () => {
    expect(() => agreementReport([copies[0]!, copies[0]!])).toThrow(/one person has two copies/);
  });
});
