import { describe, expect, it } from "vitest";
import { activeDays, verdictFigures } from "./dashboard";

const day = (d: string, stepEdits = 0, submitted = 0, approved = 0, sentBack = 0) => ({ day: d, stepEdits, submitted, approved, sentBack });

describe("the dashboard's 14 days start at the first active day", () => {
  it("drops the quiet days before the first work, keeps quiet days after it", () => {
    const rows = [day("2026-11-01"), day("2026-11-02"), day("2026-11-03", 0, 0, 0, 1), day("2026-11-04"), day("2026-11-05", 7)];
    expect(activeDays(rows).map((r) => r.day)).toEqual(["2026-11-03", "2026-11-04", "2026-11-05"]);
  });

  it("counts any kind of work as activity", () => {
    expect(activeDays([day("a"), day("b", 0, 2)]).map((r) => r.day)).toEqual(["b"]);
    expect(activeDays([day("a"), day("b", 0, 0, 3)]).map((r) => r.day)).toEqual(["b"]);
  });

  it("has no days at all when nothing happened", () => {
    expect(activeDays([day("a"), day("b")])).toEqual([]);
  });
});

describe("the verdict chart shows unreviewed steps apart", () => {
  it("charts only the verdicts people gave and counts the unreviewed separately", () => {
    const f = verdictFigures({ unreviewed: 9000, good: 30, corrected: 12, harmful: 3, neutral: 1 });
    expect(f.judged.map((r) => r.verdict)).toEqual(["good", "corrected", "harmful", "neutral"]);
    expect(f.judged.map((r) => r.steps)).toEqual([30, 12, 3, 1]);
    expect(f.judgedSteps).toBe(46);
    expect(f.unreviewed).toBe(9000);
  });
});
