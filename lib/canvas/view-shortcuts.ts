import { kbdHint, type Shortcut } from "./shortcuts";
import type { View } from "./view";

/**
 * Zoom keys of any page that shows a step canvas (viewer, editor, review), for its registry. They
 * keep the point under the pointer still (its last place over the canvas). Plain keys, so the page's
 * one listener never fires them while a form control has the focus; mod+0 (the browser's own
 * "actual size") is taken over for the screenshot. They change no data, so all work read-only.
 */
export function viewShortcuts<C>(view: View, group = "shortcut.group.general"): Shortcut<C>[] {
  return [
    { id: "zoom.in", kbd: ["+", "="], label: "shortcut.zoomIn", group, readonlyOk: true, run: () => view.zoomIn() },
    { id: "zoom.out", kbd: ["-"], label: "shortcut.zoomOut", group, readonlyOk: true, run: () => view.zoomOut() },
    { id: "zoom.fit", kbd: ["f"], label: "shortcut.zoomFit", group, readonlyOk: true, run: view.fit },
    { id: "zoom.actual", kbd: ["mod+0"], label: "shortcut.zoomActual", group, readonlyOk: true, run: () => view.zoomActual() },
    // Listed for the help overlay and tooltips only: Space is held, not pressed, so the canvas handles
    // it itself (and only while the pointer is over it); the page listener never fires this entry.
    { id: "view.pan", kbd: [" "], label: "shortcut.pan", group, readonlyOk: true, when: () => false, run: () => undefined },
  ];
}

/** The zoom buttons' key hints (tooltips) from a page's registry: "+ / =", "-", "F", "Ctrl+0". */
export function zoomHints<C>(shortcuts: readonly Shortcut<C>[]): Partial<Record<"zoomIn" | "zoomOut" | "fit" | "actual", string>> {
  return {
    zoomIn: kbdHint(shortcuts, "zoom.in"),
    zoomOut: kbdHint(shortcuts, "zoom.out"),
    fit: kbdHint(shortcuts, "zoom.fit"),
    actual: kbdHint(shortcuts, "zoom.actual"),
  };
}
