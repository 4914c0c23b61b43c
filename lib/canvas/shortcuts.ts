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
  /**
   * Works in a read-only editor (tldraw's `readonlyOk`): moving between steps, zooming, help. Every
   * entry without it edits something and is refused while the editor is read-only (editorShortcuts).
   */
  readonlyOk?: boolean;
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

/** The printed keys of a registry entry, for tooltips and buttons: "J / →"; "" when there is no such entry. */
export function kbdHint<C>(shortcuts: readonly Shortcut<C>[], id: string, isMac = false): string {
  const s = shortcuts.find((x) => x.id === id);
  return s ? s.kbd.map((k) => formatKbd(k, isMac)).join(" / ") : "";
}

/** "Label (keys)" for a title attribute; the label alone when the entry has no keys. */
export function withKbd<C>(label: string, shortcuts: readonly Shortcut<C>[], id: string, isMac = false): string {
  const keys = kbdHint(shortcuts, id, isMac);
  return keys ? `${label} (${keys})` : label;
}

/**
 * What kind of control has the focus, as the key listener sees it:
 * - "text": typing edits it (text inputs, number inputs, textareas, contenteditable). Only global
 *   shortcuts (Ctrl/⌘ ones) fire; every other key belongs to the field.
 * - "choice": a control whose value the browser changes with plain keys (select, radio, range).
 *   Shortcuts fire as on the page, and the browser's own value-changing keys are stopped, so a
 *   navigation key never silently picks another option.
 * - "press": buttons, checkboxes, links, summaries. Shortcuts fire as on the page; Space and Enter
 *   keep their usual meaning (press the button, tick the checkbox).
 * - "page": the body, the canvas and anything else.
 */
export type FocusKind = "text" | "choice" | "press" | "page";

const TEXT_INPUT_TYPES = new Set([
  "",
  "text",
  "search",
  "email",
  "url",
  "tel",
  "password",
  "number",
  "date",
  "datetime-local",
  "month",
  "time",
  "week",
]);
const PRESS_INPUT_TYPES = new Set(["checkbox", "button", "submit", "reset", "file", "color", "image"]);

export function focusKind(target: EventTarget | null): FocusKind {
  if (typeof HTMLElement === "undefined" || !(target instanceof HTMLElement)) return "page";
  if (target.isContentEditable || target.tagName === "TEXTAREA") return "text";
  if (target.tagName === "SELECT") return "choice";
  if (target instanceof HTMLInputElement) {
    const type = target.type.toLowerCase();
    if (type === "radio" || type === "range") return "choice";
    if (PRESS_INPUT_TYPES.has(type)) return "press";
    return TEXT_INPUT_TYPES.has(type) ? "text" : "press";
  }
  if (target.tagName === "BUTTON" || target.tagName === "SUMMARY" || (target.tagName === "A" && target.hasAttribute("href")))
    return "press";
  return "page";
}

/** Typing in a field must never trigger plain-key shortcuts. */
export function isTypingTarget(target: EventTarget | null): boolean {
  return focusKind(target) === "text";
}

/** The browser's own key handling that changes a control's value, by the control. */
export type NativeKeyTarget = { kind: FocusKind; tag: string; type: string };

function describeTarget(target: EventTarget | null): NativeKeyTarget {
  const kind = focusKind(target);
  if (typeof HTMLElement === "undefined" || !(target instanceof HTMLElement)) return { kind, tag: "", type: "" };
  return { kind, tag: target.tagName, type: target instanceof HTMLInputElement ? target.type.toLowerCase() : "" };
}

const STEP_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "PageUp", "PageDown", "Home", "End"]);

/**
 * Would the browser change the focused control's value for this key on its own? A closed select
 * steps through its options with arrows, Home/End, Page keys and picks one by its first letter; a
 * radio group checks its neighbour on an arrow; a number input counts up and down on ↑ ↓. Space and
 * Enter (open the list, press, tick) are a person's explicit choice and stay.
 */
export function changesValueNatively(e: KeyInput, t: NativeKeyTarget): boolean {
  if (e.ctrlKey || e.metaKey) return false;
  if (t.tag === "SELECT") {
    if (e.altKey && (e.key === "ArrowDown" || e.key === "ArrowUp")) return false; // opens the list
    return STEP_KEYS.has(e.key) || (e.key.length === 1 && e.key !== " " && !e.altKey);
  }
  if (t.type === "radio" || t.type === "range") return STEP_KEYS.has(e.key);
  if (t.type === "number") return ["ArrowUp", "ArrowDown", "PageUp", "PageDown"].includes(e.key);
  return false;
}

/** What the one key listener does with a press: run `hit` (if any) and stop the browser's own handling when `isPrevented`. */
export type KeyDecision<C> = { hit: Shortcut<C> | undefined; isPrevented: boolean };

/**
 * The key policy shared by every page with shortcuts. In a text field only global shortcuts fire;
 * anywhere else every shortcut fires. A shortcut that fires always stops the browser's default, and
 * a key that would change a select, radio or number input on its own is stopped even when no
 * shortcut matches (the key then does nothing there).
 */
export function decideKey<C>(e: KeyInput, t: NativeKeyTarget, shortcuts: readonly Shortcut<C>[], ctx: C): KeyDecision<C> {
  const hit = matchShortcut(e, shortcuts, ctx, t.kind === "text");
  return { hit, isPrevented: !!hit || changesValueNatively(e, t) };
}

export type KeyListenerOptions<C> = {
  /** The shortcuts in force now (read on every press). */
  shortcuts: () => readonly Shortcut<C>[];
  ctx: () => C;
  /** Escape in a text field leaves the field (so plain keys work again). Default true. */
  isEscapeBlur?: boolean;
};

/**
 * The one keydown listener of a page, reading the registry. Returns the listener to add to
 * `window`. Keys are ignored while an input method composes, and while a modal dialog other than
 * the shortcut help is open (it owns the keyboard then).
 */
export function createKeyListener<C>(opts: KeyListenerOptions<C>): (e: KeyboardEvent) => void {
  return (e) => {
    if (e.isComposing || e.defaultPrevented || document.querySelector("[data-modal-open]")) return;
    const target = describeTarget(e.target);
    if (target.kind === "text" && e.key === "Escape" && opts.isEscapeBlur !== false) {
      (e.target as HTMLElement).blur();
      return;
    }
    const { hit, isPrevented } = decideKey(e, target, opts.shortcuts(), opts.ctx());
    if (isPrevented) e.preventDefault();
    hit?.run(opts.ctx());
  };
}
