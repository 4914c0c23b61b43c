import { describe, expect, it } from "vitest";
import { adjudicationBody, disagreementsOf, unchosen, type Alternative } from "./adjudication";

const thought = (text: string) => ({ state: "The list is open.", nextAction: "Tap new.", purpose: "To write.", text });

function copy(
  id: string,
  at: [number, number],
  opts: { text?: string; outcome?: "success" | "failure"; box?: [number, number, number, number] } = {},
): Alternative {
  return {
    copyId: id,
    annotator: `${id}@studio.local`,
    status: "submitted",
    outcome: opts.outcome ?? "success",
    isDiscarded: false,
    cutAfter: null,
    steps: [
      {
        index: 0,
        thought: thought(opts.text ?? "I tap new."),
        clearAction: "Tap new.",
        toolCall: { action: "click", coordinate: at },
        box: opts.box ?? [0, 0, 100, 100],
        verdict: "corrected",
      },
      {
        index: 1,
        thought: thought("Done."),
        clearAction: "Finish.",
        toolCall: { action: "terminate", status: "success" },
        box: null,
        verdict: "good",
      },
    ],
  };
}

describe("disagreementsOf", () => {
  it("offers only the fields where copies differ, and names how an action differs", () => {
    const { disagreements, agreed } = disagreementsOf([copy("a", [10, 10]), copy("b", [50, 60], { text: "I tap the button." })], 2);
    expect(disagreements.map((d) => [d.key, d.aspects])).toEqual([
      ["0:action", ["arguments"]],
      ["0:thought", []],
    ]);
    expect(agreed).toEqual([
      ["clearAction", "verdict"],
      ["action", "thought", "clearAction", "verdict"],
    ]);
  });

  it("tells another action and another box apart, and the outcome", () => {
    const b = copy("b", [10, 10], { outcome: "failure", box: [5, 5, 50, 50] });
    b.steps[0]!.toolCall = { action: "long_press", coordinate: [10, 10], time: 2 };
    const { disagreements } = disagreementsOf([copy("a", [10, 10]), b], 2);
    expect(disagreements.map((d) => [d.key, d.aspects])).toEqual([
      ["0:action", ["type", "box"]],
      ["outcome", []],
    ]);
  });

  it("finds nothing when every copy agrees", () => {
    expect(disagreementsOf([copy("a", [1, 2]), copy("b", [1, 2]), copy("c", [1, 2])], 2).disagreements).toEqual([]);
  });
});

describe("adjudicationBody", () => {
  const copies = [copy("a", [10, 10]), copy("b", [50, 60], { text: "I tap the button.", outcome: "failure" })];
  const { disagreements } = disagreementsOf(copies, 2);

  it("refuses to compose while a disagreement has no choice: nothing is pre-chosen", () => {
    expect(unchosen(disagreements, {}).map((d) => d.key)).toEqual(["0:action", "0:thought", "outcome"]);
    expect(() => adjudicationBody({ version: 3, stepCount: 2, copies, choices: { "0:action": 1 }, edits: {} })).toThrow(/2 disagreements/);
  });

  it("takes each disagreement from the chosen copy, the agreed fields as they are, and an edited text", () => {
    const body = adjudicationBody({
      version: 3,
      stepCount: 2,
      copies,
      choices: { "0:action": 1, "0:thought": "edited", outcome: 0 },
      edits: { "0:thought": "My own words." },
    });
    expect(body.version).toBe(3);
    expect(body.trajectory).toEqual({ outcome: "success", isDiscarded: false, cutAfter: null });
    expect(body.steps[0]!.toolCall).toEqual({ action: "click", coordinate: [50, 60] });
    expect(body.steps[0]!.thought).toEqual(thought("My own words."));
    expect(body.steps[1]!.toolCall).toEqual({ action: "terminate", status: "success" });
    expect(body.sources).toEqual([
      { action: "b", thought: "edited", clearAction: "agreed", verdict: "agreed" },
      { action: "agreed", thought: "agreed", clearAction: "agreed", verdict: "agreed" },
    ]);
  });
});
