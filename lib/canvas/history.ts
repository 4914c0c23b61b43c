/**
 * Undo history: one entry per gesture (a drag from pointerdown to pointerup, one keyboard command,
 * or a run of typing in one field). Entries hold the before/after values of the document keys the
 * gesture changed, so undo and redo are exact and cheap. Pure functions over plain data.
 */
export type HistoryEntry = {
  label: string;
  /** Value of each changed key before and after the gesture. */
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  /** Consecutive entries with the same key inside MERGE_WINDOW_MS become one (typing, nudging). */
  mergeKey?: string;
  at: number;
  /** Step the gesture happened on; undo brings the annotator back to it. */
  stepIndex: number;
};

export type History = { past: HistoryEntry[]; future: HistoryEntry[] };

export const EMPTY_HISTORY: History = { past: [], future: [] };
export const MERGE_WINDOW_MS = 1000;
export const HISTORY_LIMIT = 500;

/** The keys whose values differ between two snapshots (by reference: documents are immutable). */
export function diffKeys(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k]);
}

/**
 * Add a gesture to the history. No change, no entry. A new entry clears the redo stack; an entry
 * with the previous one's mergeKey, soon after it, extends it instead.
 */
export function record(h: History, e: HistoryEntry): History {
  const keys = Object.keys(e.after);
  if (keys.length === 0) return h;
  const last = h.past[h.past.length - 1];
  if (last && e.mergeKey && last.mergeKey === e.mergeKey && e.at - last.at <= MERGE_WINDOW_MS && h.future.length === 0) {
    const merged: HistoryEntry = { ...last, before: { ...e.before, ...last.before }, after: { ...last.after, ...e.after }, at: e.at };
    return { past: [...h.past.slice(0, -1), merged], future: [] };
  }
  return { past: [...h.past, e].slice(-HISTORY_LIMIT), future: [] };
}

/** Step back: the entry to revert (apply its `before`), and the history after. */
export function undo(h: History): { entry: HistoryEntry; history: History } | null {
  const entry = h.past[h.past.length - 1];
  if (!entry) return null;
  return { entry, history: { past: h.past.slice(0, -1), future: [entry, ...h.future] } };
}

/** Step forward: the entry to re-apply (its `after`), and the history after. */
export function redo(h: History): { entry: HistoryEntry; history: History } | null {
  const entry = h.future[0];
  if (!entry) return null;
  return { entry, history: { past: [...h.past, entry], future: h.future.slice(1) } };
}
