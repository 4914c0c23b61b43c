import { useMemo, useState } from "react";
import type { StepView, TrajectoryView } from "@/lib/domain/views";
import { useShortcuts } from "@/components/shortcuts/use-shortcuts";
import { buildEditor } from "@/components/editor/build-editor";
import { useExposeForTests } from "@/components/editor/test-hooks";
import { useEditor } from "@/components/editor/use-editor";
import type { Editor } from "@/lib/canvas/editor";
import { editorShortcuts } from "@/lib/canvas/editor-shortcuts";
import { collectFixes, invalidFixes } from "@/lib/canvas/review-fix";

/**
 * The editor's keys a review fix adds to the review page's own while a fix is open: tools, box keys,
 * undo and redo. None of them is a review key (j k o c f a r n ? + - 0 are), so the two never compete;
 * verdict and action-type keys stay off (c, n and 0 mean something on this page).
 */
const FIX_KEYS = /^(tool\.|box\.|history\.|cancel$)/;
const NOTHING = { save: () => undefined, submit: () => undefined, focusThought: () => undefined };
const fixShortcuts = (editor: Editor) => editorShortcuts(editor, NOTHING).filter((s) => FIX_KEYS.test(s.id));

/**
 * The reviewer's fixes of a trajectory's steps. They run on the editor engine in its review-fix mode: what
 * they change waits here and goes with the decision (lib/canvas/review-fix.ts), one fix per changed step.
 * The open fix is the engine's step.
 */
export function useReviewFix(trajectory: TrajectoryView) {
  const [editor] = useState(() => buildEditor(trajectory, { stepIndex: 0, mode: "review-fix", isReadOnly: false }));
  const [fixKeys] = useState(() => fixShortcuts(editor));
  const [isFixOpen, setFixOpen] = useState(false);
  const fixStep = useEditor(editor, (s) => s.stepIndex);
  const fixDoc = useEditor(editor, (s) => s.doc);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- recollected when the document changes (the engine's own state)
  const fixList = useMemo(() => collectFixes(editor.get()), [editor, fixDoc]);
  const fixed = new Set(fixList.map((f) => f.stepId));
  useExposeForTests(editor, null, fixKeys);
  useShortcuts(fixKeys, editor.get, isFixOpen);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- as fixList
  const incomplete = useMemo(() => invalidFixes(editor.get()), [editor, fixDoc]);
  const hasFixError = incomplete.length > 0;

  /**
   * Open the editor on the step as it is: nothing changes until the reviewer edits (the engine then makes a
   * good or unjudged step "corrected", lib/canvas/document.ts).
   */
  const startFix = (step: StepView) => {
    editor.goTo(step.index);
    setFixOpen(true);
  };
  const discardFix = (step: StepView) => {
    editor.revert(step.id);
    setFixOpen(false);
  };
  return { editor, fixKeys, isFixOpen, setFixOpen, fixStep, fixList, fixed, incomplete, hasFixError, startFix, discardFix };
}

export type ReviewFix = ReturnType<typeof useReviewFix>;
