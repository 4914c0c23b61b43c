"use client";

import { useSyncExternalStore } from "react";
import type { ViewerState, ViewerStore } from "@/lib/canvas/viewer";

/** Read one slice of the viewer store; re-renders only when that slice changes. */
export function useViewer<T>(store: ViewerStore, select: (s: ViewerState) => T): T {
  return useSyncExternalStore(
    store.subscribe,
    () => select(store.get()),
    () => select(store.get()),
  );
}
