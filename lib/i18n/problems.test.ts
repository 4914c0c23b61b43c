import { describe, expect, it } from "vitest";
import { localize } from "./index";
import { problemRef, submitProblemRef } from "./problems";

describe("what blocks a submit, in words", () => {
  it("names the step from 1 and every blocking problem of it, in either language", () => {
    const p = { code: "step.incomplete" as const, stepIndex: 2, problems: ["toolCall.offScreen", "verdict.unset"] as const };
    expect(localize(submitProblemRef({ ...p, problems: [...p.problems] }), "en")).toBe(
      "Step 3: A point lies outside the screenshot. Choose a verdict.",
    );
    expect(localize(submitProblemRef({ ...p, problems: [...p.problems] }), "zh")).toBe("第 3 步：有坐标点在截图之外。请选择判定。");
    expect(localize(submitProblemRef({ code: "outcome.unset" }), "zh")).toBe("请先设置任务结果再提交。");
  });

  it("a problem code the catalogue does not know yet still reads as a sentence", () => {
    expect(localize(problemRef("box.selfContradiction"), "en")).toBe("something needs fixing (box.selfContradiction).");
  });
});
