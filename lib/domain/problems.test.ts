import { describe, expect, it } from "vitest";
import { problemKinds, type ImportProblem } from "./problems";

const p = (line: number, field: string | undefined, message: string): ImportProblem => ({ file: "data.jsonl", line, field, message });

describe("problemKinds", () => {
  it("groups problems by field and message kind, most frequent first, the per-record detail left out", () => {
    const problems = [
      p(1, "screenshot", "screenshot file not found: /x/a_0.png"),
      p(2, "action", 'unknown action "teleport"'),
      p(3, "screenshot", "screenshot file not found: /x/b_0.png"),
      p(4, "candidate_bbox.3", "is not a box [x1, y1, x2, y2]: too short"),
      p(5, "candidate_bbox.12", "is not a box [x1, y1, x2, y2]: too short"),
      p(6, "screenshot", "screenshot file not found: /x/c_0.png"),
      p(7, undefined, "broken JSON at position 12"),
    ];
    expect(problemKinds(problems)).toEqual([
      { field: "screenshot", message: "screenshot file not found", count: 3 },
      { field: "candidate_bbox.#", message: "is not a box", count: 2 },
      { field: "action", message: "unknown action", count: 1 },
      { field: "", message: "broken JSON at position #", count: 1 },
    ]);
    expect(problemKinds([])).toEqual([]);
  });
});
