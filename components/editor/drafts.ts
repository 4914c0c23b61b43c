"use client";

import { z } from "zod";
import type { Draft, DraftStore } from "@/lib/canvas/autosave";

const PREFIX = "studio.draft.v2.";
const draftSchema = z.object({ baseVersion: z.number().int(), base: z.unknown(), value: z.unknown(), at: z.number() });

/**
 * Unsaved edits in localStorage, one entry per step (or trajectory) holding the base version it was
 * edited from. They outlive a reload, a closed tab and a dropped connection; autosave removes each
 * once the server has acknowledged it. Storage errors (quota, private mode) never break editing.
 * `scope` (person and trajectory) keeps one trajectory's drafts from ever landing on another.
 */
export function localDrafts(scope: string): DraftStore {
  const prefix = `${PREFIX}${scope}.`;
  return {
    get(key) {
      try {
        const raw = window.localStorage.getItem(prefix + key);
        const parsed = raw ? draftSchema.safeParse(JSON.parse(raw)) : null;
        return parsed?.success ? (parsed.data as Draft) : undefined;
      } catch {
        return undefined;
      }
    },
    set(key, d) {
      try {
        window.localStorage.setItem(prefix + key, JSON.stringify(d));
      } catch {
        // Full or unavailable storage: the server save still runs.
      }
    },
    remove(key) {
      try {
        window.localStorage.removeItem(prefix + key);
      } catch {
        // ignore
      }
    },
  };
}
