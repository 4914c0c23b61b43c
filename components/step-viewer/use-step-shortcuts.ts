"use client";

import { useEffect, useMemo } from "react";
import { matchShortcut, type Shortcut } from "@/lib/canvas/shortcuts";
import type { ViewerStore } from "@/lib/canvas/viewer";

export function viewerShortcuts(store: ViewerStore): Shortcut[] {
  return [
    { id: "step.next", keys: ["ArrowRight", "j"], label: "Next step", run: store.next },
    { id: "step.prev", keys: ["ArrowLeft", "k"], label: "Previous step", run: store.prev },
    { id: "step.first", keys: ["Home"], label: "First step", run: store.first },
    { id: "step.last", keys: ["End"], label: "Last step", run: store.last },
  ];
}

/** The viewer's one key listener. */
export function useStepShortcuts(store: ViewerStore) {
  const shortcuts = useMemo(() => viewerShortcuts(store), [store]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const hit = matchShortcut(e, shortcuts);
      if (!hit) return;
      e.preventDefault();
      hit.run();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [shortcuts]);
}
