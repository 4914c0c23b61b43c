import { ACTION_TYPES } from "@/lib/domain/tool-call";
import type { Editor, EditorState } from "./editor";
import type { Shortcut } from "./shortcuts";

/** What the page adds to the engine's commands: saving and submitting talk to the server, focusing talks to the DOM. */
export type PageActions = { save: () => void; submit: () => void; focusThought: () => void; acceptSuggestion?: () => void };

/** Digits 1..9, 0 pick the action type, in ACTION_TYPES order. */
export const ACTION_TYPE_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"] as const;

/**
 * The editor's one shortcut registry. Labels are message-catalogue keys; the help overlay groups
 * by `group` and prints `kbd` with formatKbd.
 */
export function editorShortcuts(editor: Editor, page: PageActions): Shortcut<EditorState>[] {
  const hasBox = (s: EditorState) => s.isBoxSelected && !!s.doc.steps[s.steps[s.stepIndex]!.id]?.box;
  const noBox = (s: EditorState) => !hasBox(s);
  const canEdit = (s: EditorState) => !s.isReadOnly;
  const editWithBox = (s: EditorState) => canEdit(s) && hasBox(s);
  return [
    { id: "step.next", kbd: ["j", "ArrowRight"], label: "shortcut.stepNext", group: "shortcut.group.steps", when: noBox, run: editor.next },
    { id: "step.prev", kbd: ["k", "ArrowLeft"], label: "shortcut.stepPrev", group: "shortcut.group.steps", when: noBox, run: editor.prev },
    { id: "step.first", kbd: ["Home"], label: "shortcut.stepFirst", group: "shortcut.group.steps", run: editor.first },
    { id: "step.last", kbd: ["End"], label: "shortcut.stepLast", group: "shortcut.group.steps", run: editor.last },

    { id: "tool.select", kbd: ["v"], label: "shortcut.toolSelect", group: "shortcut.group.tools", run: () => editor.setTool("select") },
    { id: "tool.point", kbd: ["p"], label: "shortcut.toolPoint", group: "shortcut.group.tools", run: () => editor.setTool("point") },
    { id: "tool.swipe", kbd: ["s"], label: "shortcut.toolSwipe", group: "shortcut.group.tools", run: () => editor.setTool("swipe") },
    { id: "tool.box", kbd: ["b"], label: "shortcut.toolBox", group: "shortcut.group.tools", run: () => {
        editor.setTool("box");
        editor.selectBox(true);
      } },

    ...ACTION_TYPES.map((action, i) => ({
      id: `action.${action}`,
      kbd: [ACTION_TYPE_KEYS[i]!],
      label: `action.${action}`,
      group: "shortcut.group.actions",
      when: canEdit,
      run: () => editor.setActionType(action),
    })),

    { id: "box.left", kbd: ["ArrowLeft"], label: "shortcut.nudge", group: "shortcut.group.box", when: editWithBox, run: () => editor.nudgeBox(-1, 0) },
    { id: "box.right", kbd: ["ArrowRight"], label: "shortcut.nudge", group: "shortcut.group.box", when: editWithBox, run: () => editor.nudgeBox(1, 0) },
    { id: "box.up", kbd: ["ArrowUp"], label: "shortcut.nudge", group: "shortcut.group.box", when: editWithBox, run: () => editor.nudgeBox(0, -1) },
    { id: "box.down", kbd: ["ArrowDown"], label: "shortcut.nudge", group: "shortcut.group.box", when: editWithBox, run: () => editor.nudgeBox(0, 1) },
    { id: "box.left10", kbd: ["shift+ArrowLeft"], label: "shortcut.nudge10", group: "shortcut.group.box", when: editWithBox, run: () => editor.nudgeBox(-10, 0) },
    { id: "box.right10", kbd: ["shift+ArrowRight"], label: "shortcut.nudge10", group: "shortcut.group.box", when: editWithBox, run: () => editor.nudgeBox(10, 0) },
    { id: "box.up10", kbd: ["shift+ArrowUp"], label: "shortcut.nudge10", group: "shortcut.group.box", when: editWithBox, run: () => editor.nudgeBox(0, -10) },
    { id: "box.down10", kbd: ["shift+ArrowDown"], label: "shortcut.nudge10", group: "shortcut.group.box", when: editWithBox, run: () => editor.nudgeBox(0, 10) },
    { id: "box.delete", kbd: ["Delete", "Backspace"], label: "shortcut.boxDelete", group: "shortcut.group.box", when: editWithBox, run: editor.deleteBox },
    { id: "cancel", kbd: ["Escape"], label: "shortcut.cancel", group: "shortcut.group.box", run: editor.cancel },

    { id: "verdict.good", kbd: ["g"], label: "verdict.good", group: "shortcut.group.verdict", when: canEdit, run: () => editor.setVerdict("good") },
    { id: "verdict.corrected", kbd: ["c"], label: "verdict.corrected", group: "shortcut.group.verdict", when: canEdit, run: () => editor.setVerdict("corrected") },
    { id: "verdict.harmful", kbd: ["h"], label: "verdict.harmful", group: "shortcut.group.verdict", when: canEdit, run: () => editor.setVerdict("harmful") },
    { id: "verdict.neutral", kbd: ["n"], label: "verdict.neutral", group: "shortcut.group.verdict", when: canEdit, run: () => editor.setVerdict("neutral") },
    { id: "trajectory.cut", kbd: ["x"], label: "shortcut.cut", group: "shortcut.group.verdict", when: canEdit, run: editor.toggleCutHere },
    { id: "thought.focus", kbd: ["e"], label: "shortcut.focusThought", group: "shortcut.group.verdict", when: canEdit, run: page.focusThought },
    { id: "suggest.accept", kbd: ["a"], label: "shortcut.suggestAccept", group: "shortcut.group.verdict", when: canEdit, run: () => page.acceptSuggestion?.() },

    { id: "history.undo", kbd: ["mod+z"], label: "shortcut.undo", group: "shortcut.group.general", isGlobal: true, run: editor.undo },
    { id: "history.redo", kbd: ["mod+shift+z", "mod+y"], label: "shortcut.redo", group: "shortcut.group.general", isGlobal: true, run: editor.redo },
    { id: "save", kbd: ["mod+s"], label: "shortcut.save", group: "shortcut.group.general", isGlobal: true, run: page.save },
    { id: "submit", kbd: ["mod+Enter"], label: "shortcut.submit", group: "shortcut.group.general", isGlobal: true, run: page.submit },
    { id: "zoom.in", kbd: ["+", "="], label: "shortcut.zoomIn", group: "shortcut.group.general", run: () => editor.zoomIn() },
    { id: "zoom.out", kbd: ["-"], label: "shortcut.zoomOut", group: "shortcut.group.general", run: () => editor.zoomOut() },
    { id: "zoom.fit", kbd: ["f"], label: "shortcut.zoomFit", group: "shortcut.group.general", run: editor.zoomReset },
    { id: "help", kbd: ["?"], label: "shortcut.help", group: "shortcut.group.general", run: editor.toggleHelp },
  ];
}
