import { describe, expect, it } from "vitest";
import { getField, saveStepInput, saveTrajectoryInput, type StepAnnotation, type TrajectoryAnnotation } from "./annotation";
import {
  openConflicts,
  planStepMerge,
  planTrajectoryMerge,
  resolveStepMerge,
  resolveTrajectoryMerge,
  STEP_MERGE_FIELDS,
  TRAJECTORY_MERGE_FIELDS,
  TYPED_MERGE_FIELDS,
  type MergePick,
  type StepMergeField,
} from "./merge";
import { composeThought } from "./thought";

/**
 * Every combination, enumerated rather than sampled: for each field, who changed it (nobody, mine,
 * theirs, both the same way, both differently) and, where both changed it differently, the person's
 * answer (mine, theirs, a typed value, or none yet). The oracle is the table below, not the merge.
 */
type Case = "unchanged" | "onlyMine" | "onlyTheirs" | "bothSame" | "conflict:mine" | "conflict:theirs" | "conflict:typed" | "conflict:none";
const CASES: readonly Case[] = [
  "unchanged",
  "onlyMine",
  "onlyTheirs",
  "bothSame",
  "conflict:mine",
  "conflict:theirs",
  "conflict:typed",
  "conflict:none",
];
const casesOf = (field: string) => CASES.filter((c) => c !== "conflict:typed" || TYPED_MERGE_FIELDS.includes(field));

/** Each field's values: the base, mine, theirs, and what a person types. The purpose is Chinese, as in the issue. */
const VALUES: Record<StepMergeField, { base: unknown; mine: unknown; theirs: unknown; typed?: string }> = {
  "thought.state": {
    base: "The list is open.",
    mine: "The settings list is open",
    theirs: "The home screen is open.",
    typed: "Home, then settings.",
  },
  "thought.nextAction": { base: "Tap Wi-Fi.", mine: "Tap Bluetooth.", theirs: "Tap the back arrow", typed: "Go back, then tap Wi-Fi." },
  "thought.purpose": { base: "目的。", mine: "目的A", theirs: "目的B。", typed: "目的C" },
  clearAction: { base: "Tap Wi-Fi.", mine: "Tap Bluetooth.", theirs: "Go back.", typed: "Tap the Wi-Fi row." },
  toolCall: {
    base: { action: "click", coordinate: [100, 200] },
    mine: { action: "click", coordinate: [300, 400] },
    theirs: { action: "system_button", button: "Back" },
  },
  box: { base: null, mine: [250, 350, 350, 450], theirs: [0, 0, 50, 50] },
  verdict: { base: "unreviewed", mine: "corrected", theirs: "good" },
};

type Side = "base" | "mine" | "theirs";
/** The value a side holds for a field in a case. */
function sideValue(field: StepMergeField, c: Case, side: Side): unknown {
  const v = VALUES[field];
  if (side === "base" || c === "unchanged") return v.base;
  if (c === "onlyMine") return side === "mine" ? v.mine : v.base;
  if (c === "onlyTheirs") return side === "theirs" ? v.theirs : v.base;
  if (c === "bothSame") return v.mine;
  return v[side];
}

/** What the merge must save for a field, straight from the table; undefined while unanswered. */
function expected(field: StepMergeField, c: Case): unknown {
  const v = VALUES[field];
  switch (c) {
    case "unchanged":
      return v.base;
    case "onlyMine":
    case "bothSame":
    case "conflict:mine":
      return v.mine;
    case "onlyTheirs":
    case "conflict:theirs":
      return v.theirs;
    case "conflict:typed":
      return v.typed;
    case "conflict:none":
      return undefined;
  }
}

function pickOf(field: StepMergeField, c: Case): MergePick | undefined {
  if (c === "conflict:mine") return { pick: "mine" };
  if (c === "conflict:theirs") return { pick: "theirs" };
  if (c === "conflict:typed") return { pick: "typed", value: VALUES[field].typed! };
  return undefined;
}

/** A side's step for one combination. `handText` leaves its thought text as someone wrote it by hand. */
function stepFor(cases: Record<StepMergeField, Case>, side: Side, handText: boolean): StepAnnotation {
  const get = (f: StepMergeField) => sideValue(f, cases[f], side);
  const parts = {
    state: String(get("thought.state")),
    nextAction: String(get("thought.nextAction")),
    purpose: String(get("thought.purpose")),
  };
  return {
    thought: { ...parts, text: handText ? `Written by hand (${side}).` : composeThought(parts) },
    clearAction: String(get("clearAction")),
    toolCall: get("toolCall") as StepAnnotation["toolCall"],
    box: get("box") as StepAnnotation["box"],
    verdict: get("verdict") as StepAnnotation["verdict"],
  };
}

/** Every assignment of a case to each field, each field over its own list (an odometer); the other fields stay unchanged. */
function* combinations(lists: Partial<Record<StepMergeField, readonly Case[]>>): Generator<Record<StepMergeField, Case>> {
  const fields = Object.keys(lists) as StepMergeField[];
  const at = fields.map(() => 0);
  const fixed = Object.fromEntries(STEP_MERGE_FIELDS.map((f) => [f, "unchanged"])) as Record<StepMergeField, Case>;
  for (;;) {
    yield { ...fixed, ...Object.fromEntries(fields.map((f, i) => [f, lists[f]![at[i]!]!])) };
    let i = 0;
    while (i < fields.length && ++at[i]! === lists[fields[i]!]!.length) at[i++] = 0;
    if (i === fields.length) return;
  }
}

const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
/** expect, but only built when the cheap comparison fails (a million combinations make expect's own cost count). */
function agree(actual: unknown, want: unknown, what: () => string) {
  if (!same(actual, want)) expect(actual, what()).toEqual(want);
}

/** The checks on one combination; returns how it ended so the caller can count both endings. */
function check(cases: Record<StepMergeField, Case>, hand = { base: false, mine: false, theirs: false }): "saved" | "waiting" {
  const what = () => JSON.stringify({ cases, hand });
  const base = stepFor(cases, "base", hand.base);
  const mine = stepFor(cases, "mine", hand.mine);
  const theirs = stepFor(cases, "theirs", hand.theirs);
  const picks = Object.fromEntries(STEP_MERGE_FIELDS.map((f) => [f, pickOf(f, cases[f])]));
  const rows = planStepMerge(base, mine, theirs);
  const unanswered = STEP_MERGE_FIELDS.filter((f) => cases[f] === "conflict:none");
  // Only rows both sides changed differently are questions; the rest settle on their own.
  agree(
    rows.filter((r) => r.settled === null).map((r) => r.field),
    STEP_MERGE_FIELDS.filter((f) => cases[f].startsWith("conflict")),
    what,
  );
  agree(openConflicts(rows, picks), unanswered, what);
  const merged = resolveStepMerge(base, mine, theirs, picks);
  if (unanswered.length > 0) {
    agree(merged, null, what);
    return "waiting";
  }
  if (!merged) throw new Error(`nothing merged: ${what()}`);
  // The server's own schema takes it unchanged.
  agree(saveStepInput.parse({ ...merged, version: 1 }), { ...merged, version: 1 }, what);
  // Every value saved is one a person chose or typed (or the base nobody changed).
  for (const f of STEP_MERGE_FIELDS) agree(getField(merged, f), expected(f, cases[f]), () => `${f}: ${what()}`);
  // Both sides changed the thought differently: its text is composed from the saved parts, whatever either side's
  // text said; otherwise the thought is, whole, that of the one side that changed it.
  const t = merged.thought;
  if (!same(mine.thought, base.thought) && !same(theirs.thought, base.thought) && !same(mine.thought, theirs.thought))
    agree(t.text, composeThought(t), what);
  else agree(t, same(mine.thought, base.thought) ? theirs.thought : mine.thought, what);
  // With every text composed, the saved text is always the composition of the saved parts.
  if (!hand.base && !hand.mine && !hand.theirs) agree(t.text, composeThought(t), what);
  return "saved";
}

const ANSWERS: readonly Case[] = ["conflict:mine", "conflict:theirs", "conflict:typed", "conflict:none"];
const WHO_CHANGED: readonly Case[] = ["unchanged", "onlyMine", "onlyTheirs", "bothSame"];
const each = (list: readonly Case[]) =>
  Object.fromEntries(STEP_MERGE_FIELDS.map((f) => [f, list.filter((c) => casesOf(f).includes(c))])) as Record<StepMergeField, Case[]>;

describe("step merge, every combination", () => {
  it("every field in conflict, every combination of answers: nothing saves until each is answered, then exactly the answers", () => {
    let saved = 0;
    let n = 0;
    for (const cases of combinations(each(ANSWERS))) {
      n++;
      if (check(cases) === "saved") saved++;
    }
    // Mine, theirs, typed or none for the four text fields; mine, theirs or none for the three others.
    expect(n).toBe(4 ** 4 * 3 ** 3);
    expect(saved).toBe(3 ** 4 * 2 ** 3);
  }, 60_000);

  it("every field changed by nobody, one side or both alike: all of it merges without a question", () => {
    let n = 0;
    for (const cases of combinations(each(WHO_CHANGED))) {
      n++;
      expect(check(cases)).toBe("saved");
    }
    expect(n).toBe(4 ** 7);
  }, 60_000);

  it("every case of the thought's parts, with any side's text written by hand: the text is one person's whole thought or composed", () => {
    let n = 0;
    const parts = { "thought.state": CASES, "thought.nextAction": CASES, "thought.purpose": CASES };
    for (const cases of combinations(parts))
      for (const mask of [0, 1, 2, 3, 4, 5, 6, 7]) {
        check(cases, { base: (mask & 1) > 0, mine: (mask & 2) > 0, theirs: (mask & 4) > 0 });
        n++;
      }
    expect(n).toBe(8 ** 3 * 8);
  }, 60_000);

  it("the issue's case: both changed the purpose; nothing saves until it is chosen and nothing is kept twice", () => {
    const base: StepAnnotation = {
      thought: { state: "列表已打开。", nextAction: "点击设置。", purpose: "目的。", text: "列表已打开。点击设置。目的。" },
      clearAction: "点击设置。",
      toolCall: { action: "click", coordinate: [10, 10] },
      box: null,
      verdict: "unreviewed",
    };
    const withPurpose = (p: string): StepAnnotation => ({
      ...base,
      thought: { ...base.thought, purpose: p, text: composeThought({ ...base.thought, purpose: p }) },
    });
    const [mine, theirs] = [withPurpose("目的A"), withPurpose("目的B")];
    expect(resolveStepMerge(base, mine, theirs, {})).toBeNull();
    const merged = resolveStepMerge(base, mine, theirs, { "thought.purpose": { pick: "theirs" } })!;
    expect(merged.thought).toEqual({ ...base.thought, purpose: "目的B", text: "列表已打开。点击设置。目的B。" });
    // A typed answer must say something; an empty one is no answer.
    expect(resolveStepMerge(base, mine, theirs, { "thought.purpose": { pick: "typed", value: "  " } })).toBeNull();
    // A typed answer is for text only.
    const verdicts = planStepMerge(base, { ...base, verdict: "good" }, { ...base, verdict: "harmful" });
    expect(openConflicts(verdicts, { verdict: { pick: "typed", value: "good" } })).toEqual(["verdict"]);
  });
});

describe("trajectory merge, every combination", () => {
  const V: Record<(typeof TRAJECTORY_MERGE_FIELDS)[number], { base: unknown; mine: unknown; theirs: unknown }> = {
    outcome: { base: null, mine: "success", theirs: "failure" },
    isDiscarded: { base: false, mine: true, theirs: true },
    cutAfter: { base: null, mine: 2, theirs: 4 },
  };
  it("saves what was chosen or settled, and nothing while a conflict is open", () => {
    const cases: Case[] = ["unchanged", "onlyMine", "onlyTheirs", "conflict:mine", "conflict:theirs", "conflict:none"];
    let n = 0;
    for (const a of cases)
      for (const b of cases)
        for (const c of cases) {
          n++;
          const by = { outcome: a, isDiscarded: b, cutAfter: c };
          const side = (s: Side) =>
            Object.fromEntries(
              TRAJECTORY_MERGE_FIELDS.map((f) => {
                const k = by[f];
                const v = V[f];
                // isDiscarded has two values: "both changed differently" cannot happen, so its conflict cases are "both the same".
                if (f === "isDiscarded" && k.startsWith("conflict")) return [f, s === "base" ? v.base : v.mine];
                if (s === "base" || k === "unchanged") return [f, v.base];
                if (k === "onlyMine") return [f, s === "mine" ? v.mine : v.base];
                if (k === "onlyTheirs") return [f, s === "theirs" ? v.theirs : v.base];
                return [f, v[s]];
              }),
            ) as TrajectoryAnnotation;
          const [base, mine, theirs] = [side("base"), side("mine"), side("theirs")];
          const picks = Object.fromEntries(
            TRAJECTORY_MERGE_FIELDS.map((f) => [
              f,
              by[f] === "conflict:mine" ? { pick: "mine" } : by[f] === "conflict:theirs" ? { pick: "theirs" } : undefined,
            ]),
          ) as Record<string, MergePick | undefined>;
          const open = TRAJECTORY_MERGE_FIELDS.filter((f) => f !== "isDiscarded" && by[f] === "conflict:none");
          expect(openConflicts(planTrajectoryMerge(base, mine, theirs), picks)).toEqual(open);
          const merged = resolveTrajectoryMerge(base, mine, theirs, picks);
          if (open.length > 0) {
            expect(merged).toBeNull();
            continue;
          }
          expect(saveTrajectoryInput.parse({ ...merged!, version: 1 })).toEqual({ ...merged!, version: 1 });
          for (const f of TRAJECTORY_MERGE_FIELDS) {
            const k = by[f];
            const want = k === "unchanged" ? V[f].base : k === "onlyTheirs" || k === "conflict:theirs" ? V[f].theirs : V[f].mine;
            expect(merged![f], `${f} ${JSON.stringify(by)}`).toEqual(want);
          }
        }
    expect(n).toBe(6 ** 3);
  });
});
