import { describe, expect, it } from "vitest";
import type { StepAnnotation, TrajectoryAnnotation } from "@/lib/domain/annotation";
import { createEditor, TRAJECTORY_KEY, viewTransform, type DocValue, type Synced } from "./editor";
import { editingShortcuts, editorShortcuts } from "./editor-shortcuts";
import { matchShortcut, parseKbd, type KeyInput } from "./shortcuts";

const SIZE = { width: 1080, height: 2400 };
const annotation = (): StepAnnotation => ({
  thought: { state: "Home.", nextAction: "Tap.", purpose: "Open.", text: "Home. Tap. Open." },
  clearAction: "Tap Settings.",
  toolCall: { action: "click", coordinate: [500, 600] },
  box: [400, 500, 600, 700],
  verdict: "unreviewed",
});
const traj: TrajectoryAnnotation = { outcome: null, isDiscarded: false, cutAfter: null };

/** A read-only engine over three steps with a box and elements to snap to, as the viewer builds it. */
function readOnlyEditor() {
  const steps = ["s0", "s1", "s2"].map((id, index) => ({
    id,
    index,
    size: SIZE,
    targets: [[0, 0, 1080, 300] as [number, number, number, number]],
  }));
  const doc = { trajectory: traj, steps: { s0: annotation(), s1: annotation(), s2: annotation() } };
  const server: Record<string, Synced<DocValue>> = { [TRAJECTORY_KEY]: { version: 1, value: traj } };
  for (const s of steps) server[s.id] = { version: 1, value: annotation() };
  const editor = createEditor({ trajectoryId: "t1", steps, doc, server, isReadOnly: true });
  editor.setViewport({ width: 556, height: 1216 });
  return editor;
}

/** The key press a registry key spec stands for ("shift+s" -> Shift and S). */
function pressOf(kbd: string): KeyInput {
  const s = parseKbd(kbd);
  const key = s.shift && s.key.length === 1 ? s.key.toUpperCase() : s.key;
  return { key, ctrlKey: s.mod, metaKey: false, shiftKey: s.shift, altKey: s.alt };
}

const page = { save: () => {}, submit: () => {}, focusThought: () => {}, acceptSuggestion: () => {}, submitFastLane: () => {} };

describe("read-only editor (the viewer)", () => {
  it("refuses every key the registry marks as editing, in every mode, and the document, history and tool stay as loaded", () => {
    const editor = readOnlyEditor();
    const registry = editorShortcuts(editor, page);
    const editing = editingShortcuts(registry);
    // Tools, verdicts, action types, box nudges, cut, outcome, discard, undo/redo, lane keys: all of them edit.
    expect(editing.map((s) => s.id)).toEqual(
      expect.arrayContaining([
        "tool.point",
        "tool.box",
        "verdict.good",
        "action.click",
        "box.left",
        "trajectory.cut",
        "history.undo",
        "lane.mark",
      ]),
    );
    const before = editor.get();
    for (const mode of ["full", "fast"] as const) {
      editor.setMode(mode);
      editor.selectBox(true);
      for (const s of editing) {
        for (const kbd of s.kbd) {
          const hit = matchShortcut(pressOf(kbd), registry, editor.get(), false);
          // The key may still mean something read-only (→ moves to the next step when no box can be nudged).
          expect(hit === undefined || hit.readonlyOk === true, `${s.id} (${kbd}) fired in a read-only editor`).toBe(true);
          hit?.run(editor.get());
          editor.first();
        }
      }
    }
    expect(editor.get().doc).toBe(before.doc);
    expect(editor.get().history).toBe(before.history);
    expect(editor.get().tool).toBe("point");
    expect(editor.get().firstError).toBeNull();
  });

  it("still moves between steps, zooms and opens the help", () => {
    const editor = readOnlyEditor();
    const registry = editorShortcuts(editor, page);
    const fire = (k: KeyInput) => matchShortcut(k, registry, editor.get(), false)?.run(editor.get());
    fire(pressOf("ArrowRight"));
    fire(pressOf("j"));
    expect(editor.get().stepIndex).toBe(2);
    fire(pressOf("Home"));
    expect(editor.get().stepIndex).toBe(0);
    const scale = viewTransform(editor.get()).scale;
    fire(pressOf("+"));
    expect(viewTransform(editor.get()).scale).toBeGreaterThan(scale);
    fire(pressOf("?"));
    expect(editor.get().isHelpOpen).toBe(true);
  });

  it("commands called directly change nothing either: undo, redo and the drawing tools are refused", () => {
    const editor = readOnlyEditor();
    editor.setReadOnly(false);
    editor.setVerdict("good");
    editor.setReadOnly(true);
    const doc = editor.get().doc;
    editor.undo();
    editor.setTool("box");
    expect(editor.get().doc).toBe(doc);
    expect(editor.get().tool).toBe("point");
    editor.setTool("select");
    expect(editor.get().tool).toBe("select");
  });
});
