import type { DocumentPart } from "./document";
import type { DocValue, EngineCore, Synced } from "./editor-state";

/**
 * The editor's sync bookkeeping: what the server acknowledged per key (its version and value) and the
 * conflicts a save met. Loading from or acknowledging the server is never an undo step; settling a
 * conflict or reverting a key to the server's value is (one entry, through the document part).
 * What sends the saves lives elsewhere: lib/canvas/autosave.ts (annotation) or lib/canvas/review-fix.ts
 * (a review's fixes go with the decision).
 */
export function createSync({ store }: EngineCore, { change, withValues }: DocumentPart) {
  const get = store.get;
  return {
    markSaved(key: string, synced: Synced<DocValue>) {
      store.set((s) => ({ server: { ...s.server, [key]: synced } }));
    },
    markConflict(key: string, theirs: Synced<DocValue>) {
      store.set((s) => ({
        conflicts: { ...s.conflicts, [key]: { base: s.server[key]!.value, theirs: theirs.value, version: theirs.version } },
      }));
    },
    /** Settle a conflict with a merged value: their version becomes the base, the merge is the new edit. */
    resolveConflict(key: string, merged: DocValue) {
      const c = get().conflicts[key];
      if (!c) return;
      store.set((s) => {
        const { [key]: _done, ...rest } = s.conflicts;
        return { conflicts: rest, server: { ...s.server, [key]: { version: c.version, value: c.theirs } } };
      });
      change("history.merge", (doc) => withValues(doc, { [key]: merged }));
    },
    /** Put a key back to what the server acknowledged (a reviewer dropping their fix of a step): one undo step. */
    revert(key: string) {
      const synced = get().server[key];
      if (synced) change("history.revert", (doc) => withValues(doc, { [key]: synced.value }));
    },
  };
}
