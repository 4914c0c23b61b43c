import { describe, expect, it } from "vitest";
import { problemKinds, problemOf, type ImportProblem, type ImportProblemCode, type ProblemParams } from "./problems";

const p = (line: number, field: string | undefined, code: ImportProblemCode, params?: ProblemParams): ImportProblem => ({
  file: "data.jsonl",
  line,
  field,
  ...problemOf(code, params),
});

describe("problemKinds", () => {
  it("groups problems by field and message kind, most frequent first, the per-record detail left out", () => {
    const problems: ImportProblem[] = [
      p(1, "screenshot", "screenshotMissing", { file: "/x/a_0.png" }),
      p(2, "action", "unknownAction", { action: "teleport" }),
      p(3, "screenshot", "screenshotMissing", { file: "/x/b_0.png" }),
      p(4, "candidate_bbox.3", "notBox", { detail: "too short" }),
      p(5, "candidate_bbox.12", "notBox", { detail: "too short" }),
      p(6, "screenshot", "screenshotMissing", { file: "/x/c_0.png" }),
      p(7, undefined, "brokenJson", { detail: "at position 12" }),
      // Words stored before problems had codes: told apart by their words, the per-record value left out.
      { file: "old.jsonl", line: 1, code: "other", params: { detail: "broken JSON at position 3" }, message: "broken JSON at position 3" },
    ];
    expect(problemKinds(problems)).toEqual([
      { field: "screenshot", code: "screenshotMissing", message: "screenshot file not found: …", count: 3 },
      { field: "candidate_bbox.#", code: "notBox", message: "is not a box [x1, y1, x2, y2]: …", count: 2 },
      { field: "action", code: "unknownAction", message: 'unknown action "…"', count: 1 },
      { field: "", code: "brokenJson", message: "broken JSON: …", count: 1 },
      { field: "", code: "other", message: "broken JSON at position #", count: 1 },
    ]);
    expect(problemKinds([])).toEqual([]);
  });
});
