"use client";

import { useEffect } from "react";
import type { Autosave } from "@/lib/canvas/autosave";
import { viewTransform, type Editor, type EditorState } from "@/lib/canvas/editor";
import type { Shortcut } from "@/lib/canvas/shortcuts";

declare global {
  interface Window {
    __studioEditor?: {
      state: () => ReturnType<Editor["get"]>;
      /** The autosave's state; null where the mode does not save on its own (viewer, review fix). */
      sync: () => ReturnType<Autosave["state"]["get"]> | null;
      /** Stage transform: display pixels per original pixel and the image's top-left, in stage pixels. */
      view: () => ReturnType<typeof viewTransform>;
      /** Save what waits now (instead of after the debounce); resolves when the server answered. */
      flush: () => Promise<void>;
      /** The page's editor registry as its key listener reads it: which keys, and whether they work read-only. */
      shortcuts: () => { id: string; kbd: string[]; readonlyOk: boolean }[];
    };
  }
}

/** The engine's state for browser tests (test builds only), in every mode: read the store, never pixels. */
export function useExposeForTests(editor: Editor, autosave: Autosave | null, shortcuts: readonly Shortcut<EditorState>[]) {
  useEffect(() => {
    // Test builds only: the browser tests' build sets NEXT_PUBLIC_STUDIO_TEST_HOOKS=1 (scripts/test-all.mjs,
    // playwright.config.ts). Written out here, not imported, so a production build inlines it and drops the hook.
    if (process.env.NEXT_PUBLIC_STUDIO_TEST_HOOKS !== "1") return;
    window.__studioEditor = {
      state: editor.get,
      sync: () => autosave?.state.get() ?? null,
      view: () => viewTransform(editor.get()),
      flush: async () => autosave?.flush(),
      shortcuts: () => shortcuts.map((x) => ({ id: x.id, kbd: [...x.kbd], readonlyOk: x.readonlyOk === true })),
    };
    return () => {
      window.__studioEditor = undefined;
    };
  }, [editor, autosave, shortcuts]);
}
