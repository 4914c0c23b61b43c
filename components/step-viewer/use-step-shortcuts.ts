"use client";

import { useEffect, useMemo } from "react";
import { isTypingTarget, matchShortcut, type Shortcut } from "@/lib/canvas/shortcuts";
import type { View } from "@/lib/canvas/view";
import { viewShortcuts } from "@/lib/canvas/view-shortcuts";
import type { ViewerStore } from "@/lib/canvas/viewer";

/** Labels are message-catalogue keys (shared with the editor's shortcuts). */
export function viewerShortcuts(store: ViewerStore, view: View): Shortcut[] {
  return [
    { id: "step.next", kbd: ["ArrowRight", "j"], label: "shortcut.stepNext", group: "steps", run: store.next },
    { id: "step.prev", kbd: ["ArrowLeft", "k"], label: "shortcut.stepPrev", group: "steps", run: store.prev },
    { id: "step.first", kbd: ["Home"], label: "shortcut.stepFirst", group: "steps", run: store.first },
    { id: "step.last", kbd: ["End"], label: "shortcut.stepLast", group: "steps", run: store.last },
    ...viewShortcuts<void>(view, "view"),
  ];
}

/** The viewer's one key listener; plain keys never fire while a form control has the focus. */
export function useStepShortcuts(store: ViewerStore, view: View): Shortcut[] {
  const shortcuts = useMemo(() => viewerShortcuts(store, view), [store, view]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const hit = matchShortcut(e, shortcuts, undefined, isTypingTarget(e.target));
      if (!hit) return;
      e.preventDefault();
      hit.run(undefined);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [shortcuts]);
  return shortcuts;
}
