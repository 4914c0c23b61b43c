"use client";

import { useEffect, useRef } from "react";
import { createKeyListener, type Shortcut } from "@/lib/canvas/shortcuts";

/**
 * Install a page's one key listener over its registry. `ctx` is read on every press, so callers may
 * pass fresh values each render without re-subscribing.
 */
export function useShortcuts<C>(shortcuts: readonly Shortcut<C>[], ctx: () => C, isEnabled = true) {
  const latest = useRef({ shortcuts, ctx });
  latest.current = { shortcuts, ctx };
  useEffect(() => {
    if (!isEnabled) return;
    const onKey = createKeyListener<C>({ shortcuts: () => latest.current.shortcuts, ctx: () => latest.current.ctx() });
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [isEnabled]);
}

/** Is this a Mac (⌘ instead of Ctrl in printed keys)? */
export function isMacPlatform(): boolean {
  return typeof navigator !== "undefined" && /Mac/.test(navigator.platform);
}
