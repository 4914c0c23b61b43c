import type { Shortcut } from "./shortcuts";

/**
 * The shortcuts of the pages around the editor, in the same registry shape: My tasks and the review
 * page. Labels and groups are message-catalogue keys. A page passes its commands and renders the
 * list with `useShortcuts` and `ShortcutHelp` (components/shortcuts), so keys, tooltips and help
 * come from one place.
 */
export type MyTasksActions = { startNext: () => void };

export function myTasksShortcuts(page: MyTasksActions): Shortcut[] {
  return [
    { id: "tasks.startNext", kbd: ["n"], label: "tasks.startNext", group: "shortcut.group.general", run: page.startNext },
  ];
}

/** The review page's commands; `canDecide` holds while the trajectory waits for a decision. */
export type ReviewActions = {
  next: () => void;
  prev: () => void;
  approve: () => void;
  focusReason: () => void;
  canDecide: () => boolean;
};

export function reviewShortcuts(page: ReviewActions): Shortcut[] {
  const canDecide = () => page.canDecide();
  return [
    { id: "step.next", kbd: ["j", "ArrowRight"], label: "shortcut.stepNext", group: "shortcut.group.steps", run: page.next },
    { id: "step.prev", kbd: ["k", "ArrowLeft"], label: "shortcut.stepPrev", group: "shortcut.group.steps", run: page.prev },
    { id: "review.approve", kbd: ["a"], label: "review.approve", group: "shortcut.group.general", when: canDecide, run: page.approve },
    { id: "review.reason", kbd: ["r"], label: "review.reject", group: "shortcut.group.general", when: canDecide, run: page.focusReason },
  ];
}
