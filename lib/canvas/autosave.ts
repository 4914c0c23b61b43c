import { isSameValue } from "@/lib/domain/annotation";
import { createStore } from "./store";
import { dirtyKeys, TRAJECTORY_KEY, type Conflict, type Doc, type DocValue, type Editor, type Synced } from "./editor";
import { stepAnnotationSchema, trajectoryAnnotationSchema } from "@/lib/domain/annotation";

/**
 * Nothing typed is lost: every unsaved value is written to a local draft at once (it survives a
 * reload, a closed tab, a dropped connection), saved to the server shortly after the last change
 * with the version it was edited from, and its draft removed only once the server acknowledged it.
 * A stale save comes back as a conflict for the merge dialog; a network failure is retried.
 * No DOM: the server calls, the draft storage and the timers are passed in.
 */

export type SaveOutcome =
  | { kind: "saved"; synced: Synced<DocValue> }
  | { kind: "conflict"; theirs: Synced<DocValue> }
  | { kind: "offline" }
  | { kind: "rejected"; message: string };

export type SyncApi = { save: (key: string, value: DocValue, version: number) => Promise<SaveOutcome> };

/** An unsaved value and the server version (and value) it was edited from. */
export type Draft = { baseVersion: number; base: DocValue; value: DocValue; at: number };
export type DraftStore = { get: (key: string) => Draft | undefined; set: (key: string, d: Draft) => void; remove: (key: string) => void };

export type SyncStatus = "saved" | "pending" | "saving" | "offline" | "conflict" | "invalid" | "error";
export type SyncState = { status: SyncStatus; message: string | null; inFlight: string[] };

export type AutosaveOptions = {
  api: SyncApi;
  drafts: DraftStore;
  /** Can this value be sent? (an unfinished tool call stays a local draft until it is valid) */
  isValid: (key: string, value: DocValue) => boolean;
  debounceMs?: number;
  retryMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (t: unknown) => void;
  now?: () => number;
};

export const AUTOSAVE_DEBOUNCE_MS = 800;

export function createAutosave(editor: Editor, opts: AutosaveOptions) {
  const debounceMs = opts.debounceMs ?? AUTOSAVE_DEBOUNCE_MS;
  const retryMs = opts.retryMs ?? 3000;
  const setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = opts.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>));
  const now = opts.now ?? (() => Date.now());
  const state = createStore<SyncState>({ status: "saved", message: null, inFlight: [] });
  const inFlight = new Set<string>();
  const drafted = new Set<string>();
  let timer: unknown = null;
  let isOffline = false;
  let rejected: string | null = null;
  let running: Promise<void> | null = null;

  function valueOf(doc: Doc, key: string): DocValue | undefined {
    return key === TRAJECTORY_KEY ? doc.trajectory : doc.steps[key];
  }

  function refreshStatus() {
    const s = editor.get();
    const dirty = dirtyKeys(s);
    let status: SyncStatus = "saved";
    if (Object.keys(s.conflicts).length > 0) status = "conflict";
    else if (inFlight.size > 0) status = "saving";
    else if (dirty.length > 0 && isOffline) status = "offline";
    else if (rejected && dirty.length > 0) status = "error";
    else if (dirty.some((k) => !opts.isValid(k, valueOf(s.doc, k)!))) status = "invalid";
    else if (dirty.length > 0) status = "pending";
    state.set({ status, message: status === "error" ? rejected : null, inFlight: [...inFlight] });
  }

  /** Keep the drafts in step with the document: unsaved values are written, acknowledged ones removed. */
  function syncDrafts() {
    const s = editor.get();
    const dirty = new Set(dirtyKeys(s));
    for (const key of dirty) {
      // The base stays the version this edit started from until a merge settles a conflict.
      const synced = s.server[key];
      if (!synced) continue;
      opts.drafts.set(key, { baseVersion: synced.version, base: synced.value, value: valueOf(s.doc, key)!, at: now() });
      drafted.add(key);
    }
    for (const key of [...drafted]) {
      if (dirty.has(key)) continue;
      opts.drafts.remove(key);
      drafted.delete(key);
    }
  }

  function schedule(ms = debounceMs) {
    if (timer !== null) clearTimer(timer);
    timer = setTimer(() => {
      timer = null;
      void flush();
    }, ms);
  }

  async function saveOne(key: string) {
    const s = editor.get();
    const value = valueOf(s.doc, key)!;
    const version = s.server[key]!.version;
    inFlight.add(key);
    refreshStatus();
    let outcome: SaveOutcome;
    try {
      outcome = await opts.api.save(key, value, version);
    } catch {
      outcome = { kind: "offline" };
    }
    inFlight.delete(key);
    switch (outcome.kind) {
      case "saved":
        isOffline = false;
        rejected = null;
        editor.markSaved(key, outcome.synced);
        break;
      case "conflict":
        isOffline = false;
        editor.markConflict(key, outcome.theirs);
        break;
      case "offline":
        isOffline = true;
        break;
      case "rejected":
        rejected = outcome.message;
        break;
    }
  }

  /** Send every unsaved, valid, unconflicted value now; resolves when the round is over. */
  async function flush(): Promise<void> {
    if (running) {
      await running;
    }
    running = (async () => {
      const s = editor.get();
      const keys = dirtyKeys(s).filter((k) => !inFlight.has(k) && !s.conflicts[k] && opts.isValid(k, valueOf(s.doc, k)!));
      await Promise.all(keys.map(saveOne));
    })();
    try {
      await running;
    } finally {
      running = null;
    }
    syncDrafts();
    refreshStatus();
    const s = editor.get();
    const pending = dirtyKeys(s).filter((k) => !s.conflicts[k] && opts.isValid(k, valueOf(s.doc, k)!));
    if (pending.length > 0 && !rejected) schedule(isOffline ? retryMs : debounceMs);
  }

  let lastDoc = editor.get().doc;
  let lastServer = editor.get().server;
  const unsubscribe = editor.subscribe(() => {
    const s = editor.get();
    if (s.doc === lastDoc && s.server === lastServer) return refreshStatus();
    const isEdit = s.doc !== lastDoc;
    lastDoc = s.doc;
    lastServer = s.server;
    if (isEdit) rejected = null;
    syncDrafts();
    refreshStatus();
    if (isEdit) schedule();
  });
  syncDrafts();
  refreshStatus();
  if (dirtyKeys(editor.get()).length > 0) schedule();

  return {
    state,
    flush,
    /** The connection is back: try again at once. */
    retry: () => void flush(),
    dispose() {
      unsubscribe();
      if (timer !== null) clearTimer(timer);
    },
  };
}

export type Autosave = ReturnType<typeof createAutosave>;

/**
 * Lay local drafts over the server's values at load. A draft edited from the server's current
 * version is simply restored (and saved again); one edited from an older version becomes a
 * conflict to merge, so neither side's edit is lost. A draft equal to the server's value is dropped.
 */
export function restoreDrafts(
  doc: Doc,
  server: Record<string, Synced<DocValue>>,
  drafts: DraftStore,
): { doc: Doc; server: Record<string, Synced<DocValue>>; conflicts: Record<string, Conflict> } {
  let out = doc;
  const base = { ...server };
  const conflicts: Record<string, Conflict> = {};
  for (const [key, synced] of Object.entries(server)) {
    const d = drafts.get(key);
    if (!d) continue;
    // A draft written by an older studio (or damaged) must not break the editor: drop what does not parse.
    const schema = key === TRAJECTORY_KEY ? trajectoryAnnotationSchema : stepAnnotationSchema;
    if (!schema.safeParse(d.value).success || !schema.safeParse(d.base).success) {
      drafts.remove(key);
      continue;
    }
    if (isSameValue(d.value, synced.value)) {
      drafts.remove(key);
      continue;
    }
    out =
      key === TRAJECTORY_KEY
        ? { ...out, trajectory: d.value as Doc["trajectory"] }
        : { ...out, steps: { ...out.steps, [key]: d.value as Doc["steps"][string] } };
    if (d.baseVersion !== synced.version) {
      // As after a 409: the edit's own base stays the base until the merge; theirs waits in the conflict.
      conflicts[key] = { base: d.base, theirs: synced.value, version: synced.version };
      base[key] = { version: d.baseVersion, value: d.base };
    }
  }
  return { doc: out, server: base, conflicts };
}
