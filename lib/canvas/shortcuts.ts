/** One keyboard shortcut. The help text and the single key listener read the same list. */
export type Shortcut = { id: string; keys: string[]; label: string; run: () => void };

/** Typing in a field must never move the viewer. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/** The shortcut a key event triggers, if any (modifier combinations are left to the browser). */
export function matchShortcut(e: KeyboardEvent, shortcuts: Shortcut[]): Shortcut | undefined {
  if (e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return undefined;
  return shortcuts.find((s) => s.keys.includes(e.key));
}
