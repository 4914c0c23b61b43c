import { isKept, isStepComplete } from "@/lib/domain/annotation";
import { ACTION_TYPES } from "@/lib/domain/tool-call";
import type { Verdict } from "@/lib/domain/trajectory";
import type { Editor, EditorState } from "./editor";
import type { Shortcut } from "./shortcuts";
import { viewShortcuts } from "./view-shortcuts";

/**
 * What the page adds to the engine's commands: saving and submitting talk to the server, focusing
 * talks to the DOM, and whether a verdict key moves on is the person's setting.
 */
export type PageActions = {
  save: () => void;
  submit: () => void;
  focusThought: () => void;
  isVerdictAdvancing?: () => boolean;
  acceptSuggestion?: () => void;
  /** Show or hide the next step's screenshot beside the current one (the person's setting). */
  toggleNextScreen?: () => void;
  /** Hand the task in through the first-error fast lane (lib/domain/lane.ts). */
  submitFastLane?: () => void;
};

/**
 * The next step (after the current one, wrapping round) that still blocks a submit: inside the cut
 * and not complete. Null when every kept step is complete.
 */
export function nextIncompleteStep(s: Pick<EditorState, "steps" | "stepIndex" | "doc">): number | null {
  const n = s.steps.length;
  for (let k = 1; k <= n; k++) {
    const i = (s.stepIndex + k) % n;
    const meta = s.steps[i]!;
    const a = s.doc.steps[meta.id];
    if (a && isKept(s.doc.trajectory, meta.index) && !isStepComplete(a, meta.size)) return i;
  }
  return null;
}

/** The verdict keys (also printed next to the verdict buttons). */
export const VERDICT_KEYS = { good: "g", corrected: "c", harmful: "h", neutral: "n" } as const;

/** Digits 1..9, 0 pick the action type, in ACTION_TYPES order. */
export const ACTION_TYPE_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"] as const;

/**
 * The editor's one shortcut registry. Labels are message-catalogue keys; the help overlay groups
 * by `group` and prints `kbd` with formatKbd.
 */
export function editorShortcuts(editor: Editor, page: PageActions): Shortcut<EditorState>[] {
  return allShortcuts(editor, page).map((s) => ({ ...s, when: (st: EditorState) => isAllowed(s, st) && (!s.when || s.when(st)) }));
}

/**
 * The two rules every entry obeys, declared once here instead of in each entry's `when`: a read-only
 * editor (the viewer, a submitted task) refuses every entry not marked `readonlyOk`; and the help
 * overlay is a modal dialog, so while it is open only ? and Esc (close it) act.
 */
function isAllowed(s: Shortcut<EditorState>, st: EditorState): boolean {
  if (st.isReadOnly && !s.readonlyOk) return false;
  return s.id === "help" || s.id === "cancel" || !st.isHelpOpen;
}

/** The registry's entries that edit something: refused while the editor is read-only. */
export function editingShortcuts<C>(shortcuts: readonly Shortcut<C>[]): Shortcut<C>[] {
  return shortcuts.filter((s) => !s.readonlyOk);
}

function allShortcuts(editor: Editor, page: PageActions): Shortcut<EditorState>[] {
  const hasBox = (s: EditorState) => s.isBoxSelected && !!s.doc.steps[s.steps[s.stepIndex]!.id]?.box;
  // Read-only is not tested here: editorShortcuts refuses every entry without `readonlyOk` then.
  const editWithBox = hasBox;
  /** The step has elements (or candidate boxes) for the box to snap to. */
  const canSnap = (s: EditorState) => (s.steps[s.stepIndex]?.targets?.length ?? 0) > 0;
  const canDecideOutcome = (s: EditorState) => !s.doc.trajectory.isDiscarded;
  /** The first-error fast lane is the editor's mode (one engine): its keys act only in it, and E is its mark there. */
  const isFast = (s: EditorState) => s.mode === "fast";
  const inFastLane = isFast;
  /** A verdict key sets the verdict and, when the person chose so, moves to the next step. */
  const verdictKey = (v: Exclude<Verdict, "unreviewed">, key = VERDICT_KEYS[v]): Shortcut<EditorState> => ({
    id: `verdict.${v}`,
    kbd: [key],
    label: `verdict.${v}`,
    group: "shortcut.group.verdict",
    run: () => {
      editor.setVerdict(v);
      if (page.isVerdictAdvancing?.()) editor.next();
    },
  });
  return [
    ...(page.toggleNextScreen
      ? [
          {
            id: "view.nextScreen",
            kbd: ["shift+n"],
            label: "shortcut.nextScreen",
            group: "shortcut.group.steps",
            readonlyOk: true,
            run: page.toggleNextScreen,
          } satisfies Shortcut<EditorState>,
        ]
      : []),
    { id: "step.first", kbd: ["Home"], label: "shortcut.stepFirst", group: "shortcut.group.steps", readonlyOk: true, run: editor.first },
    { id: "step.last", kbd: ["End"], label: "shortcut.stepLast", group: "shortcut.group.steps", readonlyOk: true, run: editor.last },
    {
      id: "step.nextIncomplete",
      kbd: ["i"],
      label: "shortcut.stepNextIncomplete",
      group: "shortcut.group.steps",
      readonlyOk: true,
      run: (s) => {
        const i = nextIncompleteStep(s);
        if (i !== null) editor.goTo(i);
      },
    },

    // Select only drags the view in a read-only editor (its toolbar button stays enabled there too).
    {
      id: "tool.select",
      kbd: ["v"],
      label: "shortcut.toolSelect",
      group: "shortcut.group.tools",
      readonlyOk: true,
      run: () => editor.setTool("select"),
    },
    { id: "tool.point", kbd: ["p"], label: "shortcut.toolPoint", group: "shortcut.group.tools", run: () => editor.setTool("point") },
    { id: "tool.swipe", kbd: ["s"], label: "shortcut.toolSwipe", group: "shortcut.group.tools", run: () => editor.setTool("swipe") },
    {
      id: "tool.box",
      kbd: ["b"],
      label: "shortcut.toolBox",
      group: "shortcut.group.tools",
      run: () => {
        editor.setTool("box");
        editor.selectBox(true);
      },
    },

    ...ACTION_TYPES.map((action, i) => ({
      id: `action.${action}`,
      kbd: [ACTION_TYPE_KEYS[i]!],
      label: `action.${action}`,
      group: "shortcut.group.actions",
      run: () => editor.setActionType(action),
    })),

    {
      id: "box.left",
      kbd: ["ArrowLeft"],
      label: "shortcut.nudge",
      group: "shortcut.group.box",
      when: editWithBox,
      run: () => editor.nudgeBox(-1, 0),
    },
    {
      id: "box.right",
      kbd: ["ArrowRight"],
      label: "shortcut.nudge",
      group: "shortcut.group.box",
      when: editWithBox,
      run: () => editor.nudgeBox(1, 0),
    },
    {
      id: "box.up",
      kbd: ["ArrowUp"],
      label: "shortcut.nudge",
      group: "shortcut.group.box",
      when: editWithBox,
      run: () => editor.nudgeBox(0, -1),
    },
    {
      id: "box.down",
      kbd: ["ArrowDown"],
      label: "shortcut.nudge",
      group: "shortcut.group.box",
      when: editWithBox,
      run: () => editor.nudgeBox(0, 1),
    },
    // J / K move between steps whatever is selected; → / ← do too unless a box is selected, where the nudges above
    // (earlier in this list, so they win) take them.
    {
      id: "step.next",
      kbd: ["j", "ArrowRight"],
      label: "shortcut.stepNext",
      group: "shortcut.group.steps",
      readonlyOk: true,
      run: editor.next,
    },
    {
      id: "step.prev",
      kbd: ["k", "ArrowLeft"],
      label: "shortcut.stepPrev",
      group: "shortcut.group.steps",
      readonlyOk: true,
      run: editor.prev,
    },
    {
      id: "box.left10",
      kbd: ["shift+ArrowLeft"],
      label: "shortcut.nudge10",
      group: "shortcut.group.box",
      when: editWithBox,
      run: () => editor.nudgeBox(-10, 0),
    },
    {
      id: "box.right10",
      kbd: ["shift+ArrowRight"],
      label: "shortcut.nudge10",
      group: "shortcut.group.box",
      when: editWithBox,
      run: () => editor.nudgeBox(10, 0),
    },
    {
      id: "box.up10",
      kbd: ["shift+ArrowUp"],
      label: "shortcut.nudge10",
      group: "shortcut.group.box",
      when: editWithBox,
      run: () => editor.nudgeBox(0, -10),
    },
    {
      id: "box.down10",
      kbd: ["shift+ArrowDown"],
      label: "shortcut.nudge10",
      group: "shortcut.group.box",
      when: editWithBox,
      run: () => editor.nudgeBox(0, 10),
    },
    {
      id: "box.delete",
      kbd: ["Delete", "Backspace"],
      label: "shortcut.boxDelete",
      group: "shortcut.group.box",
      when: editWithBox,
      run: editor.deleteBox,
    },
    {
      id: "box.parent",
      kbd: ["]"],
      label: "shortcut.boxParent",
      group: "shortcut.group.box",
      when: canSnap,
      run: () => editor.cycleSnap(1),
    },
    {
      id: "box.child",
      kbd: ["["],
      label: "shortcut.boxChild",
      group: "shortcut.group.box",
      when: canSnap,
      run: () => editor.cycleSnap(-1),
    },
    { id: "cancel", kbd: ["Escape"], label: "shortcut.cancel", group: "shortcut.group.box", readonlyOk: true, run: editor.cancel },

    ...(["good", "corrected", "harmful", "neutral"] as const).map((v) => verdictKey(v)),
    { id: "trajectory.cut", kbd: ["x"], label: "shortcut.cut", group: "shortcut.group.verdict", run: editor.toggleCutHere },
    {
      id: "thought.focus",
      kbd: ["e"],
      label: "shortcut.focusThought",
      group: "shortcut.group.verdict",
      when: (s) => !isFast(s),
      run: page.focusThought,
    },
    {
      id: "outcome.success",
      kbd: ["shift+s"],
      label: "shortcut.outcomeSuccess",
      group: "shortcut.group.verdict",
      when: canDecideOutcome,
      run: () => editor.setOutcome("success"),
    },
    {
      id: "outcome.failure",
      kbd: ["shift+f"],
      label: "shortcut.outcomeFailure",
      group: "shortcut.group.verdict",
      when: canDecideOutcome,
      run: () => editor.setOutcome("failure"),
    },
    {
      id: "trajectory.discard",
      kbd: ["shift+d"],
      label: "shortcut.discard",
      group: "shortcut.group.verdict",
      run: (s) => editor.setDiscarded(!s.doc.trajectory.isDiscarded),
    },
    {
      id: "suggest.accept",
      kbd: ["a"],
      label: "shortcut.suggestAccept",
      group: "shortcut.group.verdict",
      run: () => page.acceptSuggestion?.(),
    },

    { id: "history.undo", kbd: ["mod+z"], label: "shortcut.undo", group: "shortcut.group.general", isGlobal: true, run: editor.undo },
    {
      id: "history.redo",
      kbd: ["mod+shift+z", "mod+y"],
      label: "shortcut.redo",
      group: "shortcut.group.general",
      isGlobal: true,
      run: editor.redo,
    },
    { id: "save", kbd: ["mod+s"], label: "shortcut.save", group: "shortcut.group.general", isGlobal: true, run: page.save },
    {
      id: "submit",
      kbd: ["mod+Enter"],
      label: "shortcut.submit",
      group: "shortcut.group.general",
      isGlobal: true,
      when: (s) => !isFast(s),
      run: page.submit,
    },
    { id: "lane.toggle", kbd: ["shift+l"], label: "lane.shortcut.toggle", group: "lane.title", run: editor.toggleMode },
    { id: "lane.mark", kbd: ["e"], label: "lane.shortcut.mark", group: "lane.title", when: inFastLane, run: editor.markFirstError },
    { id: "lane.none", kbd: ["shift+e"], label: "lane.shortcut.none", group: "lane.title", when: inFastLane, run: editor.markNoError },
    {
      id: "lane.submit",
      kbd: ["mod+Enter"],
      label: "lane.shortcut.submit",
      group: "lane.title",
      isGlobal: true,
      when: inFastLane,
      run: () => page.submitFastLane?.(),
    },
    ...viewShortcuts<EditorState>(editor.view),
    { id: "help", kbd: ["?"], label: "shortcut.help", group: "shortcut.group.general", readonlyOk: true, run: editor.toggleHelp },
  ];
}
