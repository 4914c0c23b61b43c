"use client";

import { useSyncExternalStore } from "react";
import type { View, ViewState } from "@/lib/canvas/view";

/**
 * Read one slice of a canvas view; re-renders only when that slice changes. The selector must
 * return a stable value for an unchanged state (a field, or a primitive).
 */
export function useViewState<T>(view: View, select: (s: ViewState) => T): T {
  const pick = () => select(view.get());
  return useSyncExternalStore(view.subscribe, pick, pick);
}
