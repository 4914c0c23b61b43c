import { describe, expect, it } from "vitest";
import type { StepAnnotation, TrajectoryAnnotation } from "@/lib/domain/annotation";
import { CATALOGUE } from "@/lib/i18n";
import { createEditor, TRAJECTORY_KEY, type DocValue, type Synced } from "./editor";
import { editorShortcuts, nextIncompleteStep } from "./editor-shortcuts";
import { myTasksShortcuts, reviewShortcuts } from "./review-shortcuts";
import { changesValueNatively, decideKey, kbdHint, withKbd, type KeyInput, type NativeKeyTarget } from "./shortcuts";

const SIZE = { width: 1080, height: 2400 };
const complete = (over: Partial<StepAnnotation> = {}): StepAnnotation => ({
  thought: { state: "Home screen.", nextAction: "Type the name.", purpose: "To search.", text: "Home screen. Type the name. To search." },
  clearAction: "Type the name.",
  toolCall: { action: "type", text: "hello" },
  box: null,
  verdict: "good",
  ...over,
});
const open = (over: Partial<StepAnnotation> = {}) => complete({ verdict: "unreviewed", ...over });

function setup(steps: StepAnnotation[], trajectory: TrajectoryAnnotation = { outcome: null, isDiscarded: false, cutAfter: null }) {
  const metas = steps.map((_, index) => ({ id: `s${index}`, index, size: SIZE }));
  const doc = { trajectory, steps: Object.fromEntries(metas.map((m, i) => [m.id, steps[i]!])) };
  const server: Record<string, Synced<DocValue>> = { [TRAJECTORY_KEY]: { version: 1, value: trajectory } };
  for (const m of metas) server[m.id] = { version: 1, value: doc.steps[m.id]! };
  return createEditor({ trajectoryId: "t", steps: metas, doc, server });
}

const key = (k: string, mods: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});
const SELECT: NativeKeyTarget = { kind: "choice", tag: "SELECT", type: "" };
const RADIO: NativeKeyTarget = { kind: "choice", tag: "INPUT", type: "radio" };
const CHECKBOX: NativeKeyTarget = { kind: "press", tag: "INPUT", type: "checkbox" };
const NUMBER: NativeKeyTarget = { kind: "text", tag: "INPUT", type: "number" };
const TEXT: NativeKeyTarget = { kind: "text", tag: "TEXTAREA", type: "" };
const BODY: NativeKeyTarget = { kind: "page", tag: "BODY", type: "" };
const page = { save: () => {}, submit: () => {}, focusThought: () => {} };

describe("key policy by focused control", () => {
  it("on a closed select, arrows and letters never reach the browser (they would pick another option)", () => {
    for (const k of ["ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown", "Home", "End", "PageDown", "l", "3"])
      expect(changesValueNatively(key(k), SELECT), k).toBe(true);
    // Opening the list is a person's explicit choice.
    expect(changesValueNatively(key(" "), SELECT)).toBe(false);
    expect(changesValueNatively(key("ArrowDown", { altKey: true }), SELECT)).toBe(false);
    expect(changesValueNatively(key("z", { ctrlKey: true }), SELECT)).toBe(false);
  });

  it("radio arrows and number-field arrows are stopped; a checkbox keeps Space", () => {
    expect(changesValueNatively(key("ArrowRight"), RADIO)).toBe(true);
    expect(changesValueNatively(key(" "), RADIO)).toBe(false);
    expect(changesValueNatively(key("ArrowUp"), NUMBER)).toBe(true);
    expect(changesValueNatively(key("ArrowLeft"), NUMBER)).toBe(false); // moves the caret
    expect(changesValueNatively(key(" "), CHECKBOX)).toBe(false);
  });

  it("→ on the action select moves to the next step and leaves the action alone", () => {
    const e = setup([complete({ toolCall: { action: "click", coordinate: [10, 10] }, box: [0, 0, 20, 20] }), complete()]);
    const list = editorShortcuts(e, page);
    const d = decideKey(key("ArrowRight"), SELECT, list, e.get());
    expect(d).toMatchObject({ isPrevented: true, hit: { id: "step.next" } });
    d.hit!.run(e.get());
    expect(e.get().stepIndex).toBe(1);
    expect(e.get().doc.steps.s0!.toolCall).toEqual({ action: "click", coordinate: [10, 10] });
  });

  it("↑ on a select with no shortcut for it is stopped and does nothing", () => {
    const e = setup([complete()]);
    expect(decideKey(key("ArrowUp"), SELECT, editorShortcuts(e, page), e.get())).toEqual({ hit: undefined, isPrevented: true });
  });

  it("in a text field only global shortcuts fire; typed characters stay the field's", () => {
    const e = setup([complete()]);
    const list = editorShortcuts(e, page);
    expect(decideKey(key("j"), TEXT, list, e.get())).toEqual({ hit: undefined, isPrevented: false });
    expect(decideKey(key("ArrowRight"), TEXT, list, e.get())).toEqual({ hit: undefined, isPrevented: false });
    expect(decideKey(key("Enter", { ctrlKey: true }), TEXT, list, e.get()).hit?.id).toBe("submit");
    expect(decideKey(key("j"), BODY, list, e.get()).hit?.id).toBe("step.next");
  });
});

describe("editor registry", () => {
  it("the key of the action type the step already has records nothing (undo must not undo nothing)", () => {
    const e = setup([complete({ toolCall: { action: "click", coordinate: [10, 10] }, box: [0, 0, 20, 20] })]);
    decideKey(key("1"), BODY, editorShortcuts(e, page), e.get()).hit!.run(e.get());
    expect(e.get().history.past).toHaveLength(0);
  });

  it("outcome, discard and next-incomplete-step have keys; outcome keys rest while discarded", () => {
    const e = setup([complete(), open(), complete(), open()]);
    const list = editorShortcuts(e, page);
    const press = (k: KeyInput) => decideKey(k, BODY, list, e.get()).hit?.run(e.get());
    press(key("S", { shiftKey: true }));
    expect(e.get().doc.trajectory.outcome).toBe("success");
    press(key("F", { shiftKey: true }));
    expect(e.get().doc.trajectory.outcome).toBe("failure");
    press(key("i"));
    expect(e.get().stepIndex).toBe(1);
    press(key("i"));
    expect(e.get().stepIndex).toBe(3);
    press(key("i")); // wraps round
    expect(e.get().stepIndex).toBe(1);
    press(key("D", { shiftKey: true }));
    expect(e.get().doc.trajectory.isDiscarded).toBe(true);
    press(key("S", { shiftKey: true }));
    expect(e.get().doc.trajectory.outcome).toBe("failure");
  });

  it("the fast lane is a mode of the same editor: Shift+L enters it, → plays, E marks the first error, Shift+E says none, Ctrl+Enter hands in", () => {
    const e = setup([open(), open(), open()]);
    const calls: string[] = [];
    const list = editorShortcuts(e, {
      ...page,
      focusThought: () => calls.push("focus"),
      submit: () => calls.push("submit"),
      submitFastLane: () => calls.push("fast"),
    });
    const press = (k: KeyInput) => decideKey(k, BODY, list, e.get()).hit?.run(e.get());
    // Full correction: E edits the thought and Ctrl+Enter submits, as before.
    press(key("e"));
    press(key("Enter", { ctrlKey: true }));
    expect(calls).toEqual(["focus", "submit"]);
    press(key("L", { shiftKey: true }));
    expect(e.get().mode).toBe("fast");
    press(key("ArrowRight"));
    press(key("e"));
    expect(e.get()).toMatchObject({ stepIndex: 1, firstError: 1 });
    // The mark is an answer, not an edit: nothing in the document, nothing to undo.
    expect(e.get().history.past).toHaveLength(0);
    press(key("E", { shiftKey: true }));
    expect(e.get().firstError).toBe("none");
    press(key("S", { shiftKey: true }));
    expect(e.get().doc.trajectory.outcome).toBe("success");
    press(key("Enter", { ctrlKey: true }));
    expect(calls).toEqual(["focus", "submit", "fast"]);
    press(key("L", { shiftKey: true }));
    expect(e.get().mode).toBe("full");
  });

  it("while the help overlay is open only ? and Esc act", () => {
    const e = setup([open(), open()]);
    const list = editorShortcuts(e, page);
    const press = (k: KeyInput) => decideKey(k, BODY, list, e.get()).hit?.run(e.get());
    press(key("?", { shiftKey: true }));
    expect(e.get().isHelpOpen).toBe(true);
    press(key("g"));
    press(key("j"));
    expect(e.get().doc.steps.s0!.verdict).toBe("unreviewed");
    expect(e.get().stepIndex).toBe(0);
    press(key("Escape"));
    expect(e.get().isHelpOpen).toBe(false);
  });

  it("steps after the cut are not incomplete; with every kept step complete there is none", () => {
    const e = setup([complete(), complete(), open()], { outcome: null, isDiscarded: false, cutAfter: 1 });
    expect(nextIncompleteStep(e.get())).toBeNull();
  });

  it("a verdict key moves on only when the person chose so", () => {
    let isAdvancing = false;
    const e = setup([open(), open(), open()]);
    const list = editorShortcuts(e, { ...page, isVerdictAdvancing: () => isAdvancing });
    const press = (k: string) => decideKey(key(k), BODY, list, e.get()).hit?.run(e.get());
    press("g");
    expect(e.get().stepIndex).toBe(0);
    isAdvancing = true;
    press("h");
    expect(e.get().doc.steps.s0!.verdict).toBe("harmful");
    expect(e.get().stepIndex).toBe(1);
  });

  it("no key does two things at once, and every label is in the catalogue", () => {
    const e = setup([complete()]);
    const lists: { name: string; list: { id: string; kbd: string[]; label: string; group: string; when?: unknown }[] }[] = [
      { name: "editor", list: editorShortcuts(e, page) },
      {
        name: "review",
        list: reviewShortcuts({
          next() {},
          prev() {},
          toggleOpen() {},
          comment() {},
          fix() {},
          approve() {},
          focusReason() {},
          decide() {},
          startNext() {},
          help() {},
        }),
      },
      { name: "tasks", list: myTasksShortcuts({ startNext() {}, help() {} }) },
    ];
    const en: Record<string, string> = CATALOGUE.en;
    for (const { name, list } of lists) {
      expect(new Set(list.map((s) => s.id)).size, name).toBe(list.length);
      for (const s of list) {
        expect(en[s.label], `${name} ${s.id} label`).toBeTruthy();
        expect(en[s.group], `${name} ${s.id} group`).toBeTruthy();
      }
      // Keys shared by two entries must be told apart by `when` (arrows: step vs nudge).
      const byKey = new Map<string, string[]>();
      for (const s of list) for (const k of s.kbd) byKey.set(k.toLowerCase(), [...(byKey.get(k.toLowerCase()) ?? []), s.id]);
      for (const [k, ids] of byKey)
        if (ids.length > 1)
          expect(
            ids.every((id) => list.find((s) => s.id === id)!.when),
            `${name} ${k}: ${ids.join(", ")}`,
          ).toBe(true);
    }
  });

  it("tooltips print the registry's keys", () => {
    const list = editorShortcuts(setup([complete()]), page);
    expect(kbdHint(list, "step.next")).toBe("J / →");
    expect(withKbd("Submit", list, "submit")).toBe("Submit (Ctrl+Enter)");
    expect(withKbd("Submit", list, "nope")).toBe("Submit");
  });
});
