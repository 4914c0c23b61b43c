"use client";

import { useEffect, useRef } from "react";
import { isTypingTarget, matchShortcut, type Shortcut } from "@/lib/canvas/shortcuts";

/** One key listener for a page, reading its registry entries (plain keys never fire while typing in a field). */
export function useShortcuts<C>(shortcuts: Shortcut<C>[], ctx: C, isEnabled = true) {
  const latest = useRef({ shortcuts, ctx });
  latest.current = { shortcuts, ctx };
  useEffect(() => {
    if (!isEnabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.isComposing || document.querySelector("[data-modal-open]")) return;
      const isTyping = isTypingTarget(e.target);
      const { shortcuts: list, ctx: c } = latest.current;
      const hit = matchShortcut(e, list, c, isTyping);
      if (!hit) return;
      e.preventDefault();
      hit.run(c);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [isEnabled]);
}
