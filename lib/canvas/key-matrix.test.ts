import { describe, expect, it } from "vitest";
import type { StepAnnotation, TrajectoryAnnotation } from "@/lib/domain/annotation";
import { createEditor, TRAJECTORY_KEY, type DocValue, type Editor, type Synced } from "./editor";
import { editorShortcuts } from "./editor-shortcuts";
import { decideKey, parseKbd, type KeyInput, type NativeKeyTarget } from "./shortcuts";

/**
 * The keyboard matrix: every key of the editor's registry, pressed with the focus in each kind of
 * control of the editor (and on the canvas with each tool, with and without the box selected), run
 * through the one key policy (decideKey) against a real editor engine. Data changes only where the
 * registry's entry says it does, typing stays in text fields, a press that changes nothing leaves
 * nothing to undo, and undo takes back what a press changed. e2e/keyboard.spec.ts keeps a sample of
 * the same matrix end to end in Chromium (the overlay's keys, saved through the API).
 */

const SIZE = { width: 1080, height: 2400 };
const BOX: [number, number, number, number] = [200, 500, 600, 700];
/** The step the matrix works on (the second: both neighbours exist). */
const STEP = 1;
const step = (over: Partial<StepAnnotation> = {}): StepAnnotation => ({
  thought: {
    state: "A list of results.",
    nextAction: "Tap the first result.",
    purpose: "To open it.",
    text: "A list of results. Tap the first result. To open it.",
  },
  clearAction: "Tap the first result.",
  toolCall: { action: "click", coordinate: [400, 600] },
  box: BOX,
  verdict: "unreviewed",
  ...over,
});

function editor(): Editor {
  const steps = [step({ verdict: "good" }), step(), step({ verdict: "good" })];
  const trajectory: TrajectoryAnnotation = { outcome: null, isDiscarded: false, cutAfter: null };
  const metas = steps.map((_, index) => ({ id: `s${index}`, index, size: SIZE }));
  const doc = { trajectory, steps: Object.fromEntries(metas.map((m, i) => [m.id, steps[i]!])) };
  const server: Record<string, Synced<DocValue>> = { [TRAJECTORY_KEY]: { version: 1, value: trajectory } };
  for (const m of metas) server[m.id] = { version: 1, value: doc.steps[m.id]! };
  return createEditor({ trajectoryId: "t", steps: metas, doc, server, stepIndex: STEP });
}

type Target = { name: string; target: NativeKeyTarget; tool?: "select" | "point" | "swipe" | "box" };
const TARGETS: Target[] = [
  { name: "text input (clear action)", target: { kind: "text", tag: "INPUT", type: "text" } },
  { name: "textarea (thought)", target: { kind: "text", tag: "TEXTAREA", type: "" } },
  { name: "number input (coordinate x)", target: { kind: "text", tag: "INPUT", type: "number" } },
  { name: "select (action)", target: { kind: "choice", tag: "SELECT", type: "" } },
  { name: "radio (verdict)", target: { kind: "choice", tag: "INPUT", type: "radio" } },
  { name: "checkbox (discard)", target: { kind: "press", tag: "INPUT", type: "checkbox" } },
  { name: "button (cut after this step)", target: { kind: "press", tag: "BUTTON", type: "" } },
  ...(["select", "point", "swipe", "box"] as const).map((tool) => ({
    name: `canvas (${tool} tool)`,
    target: { kind: "page" as const, tag: "DIV", type: "" },
    tool,
  })),
  { name: "page body", target: { kind: "page", tag: "BODY", type: "" } },
];

/** A registry key spec ("mod+shift+z", "?", "shift+l") as the browser reports the press. */
function pressOf(spec: string): KeyInput {
  const s = parseKbd(spec);
  const shifted = s.shift || s.key === "?" || s.key === "+";
  return {
    key: s.key.length === 1 && s.shift ? s.key.toUpperCase() : s.key,
    ctrlKey: s.mod,
    metaKey: false,
    shiftKey: shifted,
    altKey: s.alt,
  };
}

type Data = { trajectory: TrajectoryAnnotation; steps: StepAnnotation[] };
const dataOf = (e: Editor): Data => {
  const st = e.get();
  return { trajectory: st.doc.trajectory, steps: st.steps.map((m) => st.doc.steps[m.id]!) };
};

/** Paths ("trajectory.outcome", "steps.1.toolCall.action") whose values differ. */
function changedPaths(a: unknown, b: unknown, at = ""): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) === !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) =>
      changedPaths((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], at ? `${at}.${k}` : k),
    );
  }
  return [at];
}

/** The saved paths an entry may change, and a check of the new value; throws for an entry with no documented effect. */
function documented(id: string, before: Data): { paths: RegExp | null; check?: (after: Data) => void } {
  const ok = (paths: RegExp | null, check?: (after: Data) => void) => ({ paths, check });
  if (id === "box.parent" || id === "box.child") return ok(/^steps\.1\.box(\.\d)?$/);
  if (id === "box.delete") return ok(/^steps\.1\.box$/, (a) => expect(a.steps[STEP]!.box).toBeNull());
  if (id.startsWith("box."))
    return ok(/^steps\.1\.box\.\d$/, (a) => {
      const [x1, y1, x2, y2] = a.steps[STEP]!.box!;
      expect(x2 - x1, "a nudge keeps the size").toBe(BOX[2] - BOX[0]);
      expect(y2 - y1).toBe(BOX[3] - BOX[1]);
    });
  if (/^(step|tool|zoom|view)\./.test(id) || ["help", "cancel", "save", "submit", "thought.focus"].includes(id)) return ok(null);
  // The fast lane's keys change the mode and the mark, never the data until a hand-in.
  if (id.startsWith("lane.")) return ok(null);
  // Accepts a model suggestion only while one is shown; none is here.
  if (id === "suggest.accept") return ok(null);
  if (id.startsWith("action.")) {
    const action = id.slice("action.".length);
    if (before.steps[STEP]!.toolCall.action === action) return ok(null);
    return ok(/^steps\.1\.toolCall(\..*)?$|^steps\.1\.box$/, (a) => expect(a.steps[STEP]!.toolCall.action).toBe(action));
  }
  if (id.startsWith("verdict.")) return ok(/^steps\.1\.verdict$/, (a) => expect(a.steps[STEP]!.verdict).toBe(id.slice("verdict.".length)));
  if (id === "trajectory.cut") return ok(/^trajectory\.cutAfter$/, (a) => expect(a.trajectory.cutAfter).toBe(STEP));
  if (id === "trajectory.discard")
    return ok(/^trajectory\.isDiscarded$/, (a) => expect(a.trajectory.isDiscarded).toBe(!before.trajectory.isDiscarded));
  if (id.startsWith("outcome.")) return ok(/^trajectory\.outcome$/, (a) => expect(a.trajectory.outcome).toBe(id.slice("outcome.".length)));
  // Nothing was done before the press, so undo and redo have nothing to act on.
  if (id === "history.undo" || id === "history.redo") return ok(null);
  throw new Error(`the matrix documents no effect for shortcut ${id}: add it to documented()`);
}

const page = { save: () => {}, submit: () => {}, focusThought: () => {} };
const KEYS = (() => {
  const e = editor();
  return editorShortcuts(e, page).flatMap((s) => s.kbd.map((spec) => ({ spec, id: s.id })));
})();

describe("the keyboard matrix over the editor's registry and the key policy", () => {
  it("covers the registry (every entry has at least one key)", () => {
    expect(KEYS.length).toBeGreaterThan(40);
  });

  for (const t of TARGETS)
    for (const isBoxSelected of [false, true])
      it(`with the focus in a ${t.name}${isBoxSelected ? ", the box selected" : ""}, every key changes only what its entry says`, () => {
        let fired = 0;
        for (const { spec, id: listedId } of KEYS) {
          const e = editor();
          if (t.tool) e.setTool(t.tool);
          e.selectBox(isBoxSelected);
          const label = `${t.name}: ${spec} (${listedId})${isBoxSelected ? " with the box selected" : ""}`;
          expect(e.get().isBoxSelected, label).toBe(isBoxSelected);
          const before = dataOf(e);
          const press = pressOf(spec);
          const { hit, isPrevented } = decideKey(press, t.target, editorShortcuts(e, page), e.get());

          if (t.target.kind === "text") {
            // In a text field only global shortcuts fire, and a typed character stays the field's.
            if (hit) expect(hit.id, label).toMatch(/^(history\.undo|history\.redo|save|submit|lane\.submit)$/);
            if (!press.ctrlKey && press.key.length === 1) expect(isPrevented, `${label}: the character is typed`).toBe(false);
          }
          // A key that would change a select, radio or number value on its own is stopped there.
          if (t.target.tag === "SELECT" && /^Arrow|^[a-z0-9]$/i.test(press.key) && !press.ctrlKey) expect(isPrevented, label).toBe(true);
          if (hit) expect(isPrevented, `${label}: a shortcut that fires stops the browser's own handling`).toBe(true);
          if (!hit) continue;
          fired++;

          const pastBefore = e.get().history.past.length;
          hit.run(e.get());
          const after = dataOf(e);
          const changed = changedPaths(before, after);
          const doc = documented(hit.id, before);
          expect(
            changed.filter((p) => !doc.paths?.test(p)),
            `${label}: changed beyond what is documented`,
          ).toEqual([]);
          if (doc.check) {
            expect(changed.length, `${label}: the documented change happened`).toBeGreaterThan(0);
            doc.check(after);
          }
          // The navigation and tool keys do what the help says, whatever the tool and the selection.
          const st = e.get();
          if (hit.id === "step.next") expect(st.stepIndex, label).toBe(STEP + 1);
          if (hit.id === "step.prev") expect(st.stepIndex, label).toBe(STEP - 1);
          if (hit.id === "step.first") expect(st.stepIndex, label).toBe(0);
          if (hit.id === "step.last") expect(st.stepIndex, label).toBe(st.steps.length - 1);
          if (hit.id.startsWith("tool.")) expect(st.tool, label).toBe(hit.id.slice("tool.".length));
          if (changed.length === 0) {
            // A press that changes nothing leaves nothing to undo.
            expect(st.history.past.length, `${label}: no undo step for no change`).toBe(pastBefore);
          } else {
            e.undo();
            expect(dataOf(e), `${label}: undo restores the data`).toEqual(before);
          }
        }
        // Outside text fields the registry's keys act (the matrix judged real presses, not a list of misses).
        if (t.target.kind !== "text") expect(fired).toBeGreaterThan(30);
      });
});
