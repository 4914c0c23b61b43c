"use client";

import { createContext, useContext, useMemo, type ReactNode } from "react";
import type { Editor, EditorState } from "@/lib/canvas/editor";
import type { Shortcut } from "@/lib/canvas/shortcuts";
import { zoomHints } from "@/lib/canvas/view-shortcuts";
import type { ZoomHints } from "@/components/step-canvas/step-canvas";
import { useEditor } from "./use-editor";

/**
 * What every part of an editor page reads: the engine (its view is `editor.view`), the page's one
 * shortcut registry and the zoom buttons' key hints from it. One provider per page, whatever the mode
 * (read-only viewer, annotation, review fix), so no part needs them passed down through its parents.
 */
export type EditorContextValue = { editor: Editor; shortcuts: Shortcut<EditorState>[]; hints: ZoomHints };

const EditorContext = createContext<EditorContextValue | null>(null);

export function EditorProvider({
  editor,
  shortcuts,
  children,
}: {
  editor: Editor;
  shortcuts: Shortcut<EditorState>[];
  children: ReactNode;
}) {
  const value = useMemo(() => ({ editor, shortcuts, hints: zoomHints(shortcuts) }), [editor, shortcuts]);
  return <EditorContext.Provider value={value}>{children}</EditorContext.Provider>;
}

/** The page's editor, registry and hints; throws outside an EditorProvider (a wiring mistake, not a state). */
export function useEditorContext(): EditorContextValue {
  const value = useContext(EditorContext);
  if (!value) throw new Error("useEditorContext outside an EditorProvider");
  return value;
}

/** One slice of the page's editor state; re-renders only when that slice changes. */
export function useEditorState<T>(select: (s: EditorState) => T): T {
  return useEditor(useEditorContext().editor, select);
}
