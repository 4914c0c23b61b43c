"use client";

import { useSyncExternalStore } from "react";
import type { Editor, EditorState } from "@/lib/canvas/editor";

/** Read one slice of the editor store; re-renders only when that slice changes. */
export function useEditor<T>(editor: Editor, select: (s: EditorState) => T): T {
  return useSyncExternalStore(
    editor.subscribe,
    () => select(editor.get()),
    () => select(editor.get()),
  );
}

/** The current step's annotation. */
export function useCurrentAnnotation(editor: Editor) {
  return useEditor(editor, (s) => s.doc.steps[s.steps[s.stepIndex]!.id]!);
}
