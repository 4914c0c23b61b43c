import { describe, expect, it } from "vitest";
import { canonicalStepSchema } from "./trajectory";
import { fieldsWrittenByPeople, isUntouchedByPeople, prefillDecision, stepProvenanceSchema, type StepProvenance } from "./provenance";

const AT = "2026-11-25T10:00:00.000Z";
const typed = { source: "typed" as const, by: "ann@example.com", at: AT };
const prefilled = {
  source: "prefilled" as const,
  by: "model-job:j1",
  suggestionId: "s1",
  prompt: "suggest-thought.v1",
  model: "m",
  at: AT,
};

describe("untouched by people", () => {
  it("is decided from provenance: prefilled fields are nobody's, typed and accepted ones are a person's", () => {
    expect(isUntouchedByPeople({})).toBe(true);
    expect(isUntouchedByPeople({ "thought.state": prefilled, "thought.text": prefilled })).toBe(true);
    expect(isUntouchedByPeople({ verdict: typed })).toBe(false);
    expect(isUntouchedByPeople({ clearAction: { ...prefilled, source: "suggested-accepted" } })).toBe(false);
    expect(
      fieldsWrittenByPeople({ "thought.text": { ...prefilled, source: "suggested-edited" }, box: typed, toolCall: prefilled }),
    ).toEqual(["thought.text", "box"]);
  });
});

describe("prefillDecision", () => {
  const decide = (p: StepProvenance | null, isHandedIn: boolean, includePeoplesWork: boolean) =>
    prefillDecision(p, { isHandedIn, includePeoplesWork });

  it("leaves submitted and approved work alone unless included", () => {
    expect(decide({}, true, false)).toEqual({ write: false, reason: "handed-in" });
    expect(decide({}, true, true)).toEqual({ write: true });
  });

  it("by default writes only into a step no person wrote anything in", () => {
    expect(decide({}, false, false)).toEqual({ write: true });
    expect(decide({ "thought.state": prefilled }, false, false)).toEqual({ write: true });
    expect(decide({ clearAction: typed }, false, false)).toEqual({ write: false, reason: "person-wrote" });
  });

  it("included, never replaces a thought any part of which a person wrote, whatever else they wrote", () => {
    expect(decide({ clearAction: typed, verdict: typed }, true, true)).toEqual({ write: true });
    expect(decide({ "thought.purpose": typed }, true, true)).toEqual({ write: false, reason: "person-wrote" });
    expect(decide({ "thought.text": { ...typed, source: "suggested-accepted" } }, false, true)).toEqual({
      write: false,
      reason: "person-wrote",
    });
  });

  it("treats unreadable provenance as a person's work", () => {
    expect(decide(null, false, false)).toEqual({ write: false, reason: "provenance-unreadable" });
    expect(decide(null, true, true)).toEqual({ write: false, reason: "provenance-unreadable" });
  });
});

describe("provenance read from a file", () => {
  it("is bounded and checked field by field", () => {
    expect(stepProvenanceSchema.safeParse({ "thought.text": typed, verdict: typed }).success).toBe(true);
    const bad = (v: unknown) => stepProvenanceSchema.safeParse(v).error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(bad({ "thought.text": { ...typed, by: "x".repeat(301) } })).toEqual([["thought.text.by", "must be at most 300 characters"]]);
    expect(bad({ "thought.text": { ...typed, at: "yesterday" } })).toEqual([["thought.text.at", "must be an ISO 8601 date and time"]]);
    expect(bad({ "thought.text": { ...typed, source: "admin" } })?.[0]?.[0]).toBe("thought.text.source");
    expect(bad({ notes: typed })?.[0]?.[1]).toMatch(/notes/);
  });

  it("comes with the step's version, a positive 32-bit integer", () => {
    const step = canonicalStepSchema.shape.version;
    expect(step.safeParse(7).success).toBe(true);
    expect(step.safeParse(undefined).success).toBe(true);
    expect(step.safeParse(0).success).toBe(false);
    expect(step.safeParse(2 ** 31).success).toBe(false);
  });
});
