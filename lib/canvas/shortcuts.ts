/**
 * One shortcut registry: `{ id, kbd, label, when?, run }`. The single key listener, the help
 * overlay and the tooltips all read the same list. Key specs look like "j", "shift+ArrowLeft",
 * "mod+z" (mod = Ctrl, or ⌘ on a Mac), "?".
 */
export type Shortcut<C = void> = {
  id: string;
  kbd: string[];
  /** Message-catalogue key of the label (the overlay translates it). */
  label: string;
  /** Heading in the help overlay. */
  group: string;
  /** Only active when this holds (a box is selected, ...). */
  when?: (ctx: C) => boolean;
  run: (ctx: C) => void;
  /** Also fires while typing in a field (save, undo, submit); plain keys never do. */
  isGlobal?: boolean;
};

/** The parts of a KeyboardEvent a shortcut looks at, so matching runs without a DOM. */
export type KeyInput = { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean };

type Spec = { key: string; mod: boolean; shift: boolean; alt: boolean };

export function parseKbd(kbd: string): Spec {
  const parts = kbd === "+" ? ["+"] : kbd.split("+").filter(Boolean);
  const key = parts.pop() ?? "";
  return { key, mod: parts.includes("mod"), shift: parts.includes("shift"), alt: parts.includes("alt") };
}

/** Keys whose character already depends on Shift ("?", "+"): Shift is not part of the shortcut. */
const isShiftedSymbol = (key: string) => key.length === 1 && !/[a-z0-9]/i.test(key);

export function matchesKbd(e: KeyInput, kbd: string): boolean {
  const s = parseKbd(kbd);
  if ((e.ctrlKey || e.metaKey) !== s.mod || e.altKey !== s.alt) return false;
  if (!isShiftedSymbol(s.key) && e.shiftKey !== s.shift) return false;
  return e.key.length === 1 ? e.key.toLowerCase() === s.key.toLowerCase() : e.key === s.key;
}

/** The shortcut a key press triggers, if any. While typing in a field only global shortcuts fire. */
export function matchShortcut<C>(e: KeyInput, shortcuts: readonly Shortcut<C>[], ctx: C, isTyping: boolean): Shortcut<C> | undefined {
  return shortcuts.find((s) => (!isTyping || s.isGlobal) && s.kbd.some((k) => matchesKbd(e, k)) && (!s.when || s.when(ctx)));
}

const KEY_NAMES: Record<string, string> = {
  ArrowLeft: "←",
  ArrowRight: "→",
  ArrowUp: "↑",
  ArrowDown: "↓",
  Escape: "Esc",
  Delete: "Del",
  Backspace: "⌫",
  Enter: "Enter",
  " ": "Space",
};

/** How a key spec is printed: "mod+shift+z" -> "Ctrl+Shift+Z" (or "⌘⇧Z" on a Mac). */
export function formatKbd(kbd: string, isMac = false): string {
  const s = parseKbd(kbd);
  const key = KEY_NAMES[s.key] ?? (s.key.length === 1 ? s.key.toUpperCase() : s.key);
  if (isMac) return `${s.mod ? "⌘" : ""}${s.alt ? "⌥" : ""}${s.shift ? "⇧" : ""}${key}`;
  return [s.mod && "Ctrl", s.alt && "Alt", s.shift && "Shift", key].filter(Boolean).join("+");
}

/** Typing in a field must never trigger plain-key shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (typeof HTMLElement === "undefined" || !(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}
