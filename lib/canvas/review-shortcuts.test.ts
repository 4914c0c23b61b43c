import { describe, expect, it } from "vitest";
import { CATALOGUE } from "@/lib/i18n";
import { matchShortcut } from "./shortcuts";
import { createView } from "./view";
import {
  adjudicationShortcuts,
  myTasksShortcuts,
  reviewQueueShortcuts,
  reviewShortcuts,
  type AdjudicationContextState,
  type ReviewContextState,
} from "./review-shortcuts";
import { viewShortcuts } from "./view-shortcuts";

const calls: string[] = [];
const record = (name: string) => () => void calls.push(name);
const review = reviewShortcuts({
  next: record("next"),
  prev: record("prev"),
  toggleOpen: record("open"),
  comment: record("comment"),
  fix: record("fix"),
  approve: record("approve"),
  focusReason: record("reason"),
  decide: record("decide"),
  startNext: record("startNext"),
  help: record("help"),
});
const key = (k: string, mods: Partial<{ ctrlKey: boolean; shiftKey: boolean }> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});
const press = (k: string, ctx: ReviewContextState, isTyping = false, mods = {}) => {
  const hit = matchShortcut(key(k, mods), review, ctx, isTyping);
  hit?.run(ctx);
  return hit?.id ?? null;
};

describe("review and My tasks shortcuts", () => {
  it("every label and group is in both catalogues, and no key is listed twice in one list", () => {
    for (const list of [
      review,
      myTasksShortcuts({ startNext: () => {}, help: () => {} }),
      reviewQueueShortcuts({ startNext: () => {}, help: () => {} }),
    ]) {
      for (const s of list) {
        expect(CATALOGUE.en, s.label).toHaveProperty([s.label]);
        expect(CATALOGUE.zh, s.group).toHaveProperty([s.group]);
      }
      const keys = list.flatMap((s) => s.kbd);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });

  it("decides only when a decision is possible; plain keys never fire while typing, Ctrl+Enter does", () => {
    const open = { canDecide: true, hasFixes: false };
    expect(press("a", open)).toBe("review.approve");
    expect(press("a", { canDecide: false, hasFixes: false })).toBeNull();
    // With a fix pending a bare "a" does nothing: approving with fixes is Ctrl+Enter or the button.
    expect(press("a", { canDecide: true, hasFixes: true })).toBeNull();
    expect(press("a", open, true)).toBeNull();
    expect(press("j", open, true)).toBeNull();
    expect(press("Enter", open, true, { ctrlKey: true })).toBe("review.decide");
    expect(press("Enter", { canDecide: false, hasFixes: false }, true, { ctrlKey: true })).toBeNull();
    expect(calls).toEqual(["approve", "decide"]);
  });
});

describe("review zoom keys", () => {
  it("zoom the current step's picture: + and - zoom at the centre, 0 fits, Ctrl+0 is one screenshot pixel per screen pixel", () => {
    const views = [createView(), createView()];
    for (const v of views) {
      v.setViewport({ width: 400, height: 800 });
      v.setImage("shot", { width: 1080, height: 2400 });
    }
    let current = 1;
    const list = reviewShortcuts(
      {
        next: () => {},
        prev: () => {},
        toggleOpen: () => {},
        comment: () => {},
        fix: () => {},
        approve: () => {},
        focusReason: () => {},
        decide: () => {},
        startNext: () => {},
        help: () => {},
      },
      () => views[current],
    );
    const open = { canDecide: true, hasFixes: false };
    const hit = (k: string, mods = {}) => {
      const s = matchShortcut(key(k, mods), list, open, false);
      s?.run(open);
      return s?.id ?? null;
    };
    const fitted = views[1]!.transform().scale;
    expect(hit("+")).toBe("zoom.in");
    expect(views[1]!.transform().scale).toBeGreaterThan(fitted);
    expect(views[0]!.get().camera).toBeNull();
    expect(hit("0")).toBe("zoom.fit");
    expect(views[1]!.get().camera).toBeNull();
    expect(hit("-")).toBe("zoom.out");
    expect(views[1]!.transform().scale).toBeLessThan(fitted);
    current = 0;
    expect(hit("0", { ctrlKey: true })).toBe("zoom.actual");
    expect(views[0]!.transform().scale).toBeCloseTo(1, 6);
    // "f" stays the review's "fix this step", not zoom to fit.
    expect(hit("f")).toBe("review.fix");
  });
});

describe("adjudication shortcuts", () => {
  const done: string[] = [];
  const list = adjudicationShortcuts(
    {
      next: () => void done.push("next"),
      prev: () => void done.push("prev"),
      choose: (n) => void done.push(`copy ${n + 1}`),
      edit: () => void done.push("edit"),
      save: () => void done.push("save"),
      help: () => void done.push("help"),
    },
    viewShortcuts(createView()),
  );
  const hit = (k: string, ctx: AdjudicationContextState, isTyping = false, mods = {}) => {
    const s = matchShortcut(key(k, mods), list, ctx, isTyping);
    s?.run(ctx);
    return s?.id ?? null;
  };

  it("are in both catalogues with no key listed twice", () => {
    for (const s of list) {
      expect(CATALOGUE.en, s.label).toHaveProperty([s.label]);
      expect(CATALOGUE.zh, s.group).toHaveProperty([s.group]);
    }
    const keys = list.flatMap((s) => s.kbd);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("number keys take only the copies there are; e edits only a text; Ctrl+Enter saves only once everything is chosen", () => {
    const two = { copyCount: 2, canEdit: false, canSave: false };
    expect(hit("1", two)).toBe("adjudicate.copy1");
    expect(hit("2", two)).toBe("adjudicate.copy2");
    expect(hit("3", two)).toBeNull();
    expect(hit("3", { ...two, copyCount: 3 })).toBe("adjudicate.copy3");
    expect(hit("e", two)).toBeNull();
    expect(hit("e", { ...two, canEdit: true })).toBe("adjudicate.edit");
    expect(hit("j", two)).toBe("adjudicate.next");
    expect(hit("ArrowUp", two)).toBe("adjudicate.prev");
    expect(hit("1", two, true)).toBeNull();
    expect(hit("Enter", two, true, { ctrlKey: true })).toBeNull();
    expect(hit("Enter", { ...two, canSave: true }, true, { ctrlKey: true })).toBe("adjudicate.save");
    expect(done).toEqual(["copy 1", "copy 2", "copy 3", "edit", "next", "prev", "save"]);
  });
});
