import type { Shortcut } from "./shortcuts";
import type { View } from "./view";

/**
 * The review page's and My tasks' entries in the shortcut registry. Same shape as the editor's
 * (lib/canvas/editor-shortcuts.ts): the page's one key listener and its help overlay read these lists.
 */
export type ReviewActions = {
  next: () => void;
  prev: () => void;
  toggleOpen: () => void;
  comment: () => void;
  fix: () => void;
  approve: () => void;
  focusReason: () => void;
  decide: () => void;
  startNext: () => void;
  help: () => void;
};
/** What the review shortcuts look at: may a decision be made now. */
export type ReviewContextState = { canDecide: boolean; hasFixes: boolean };

/**
 * `view` is the current step's canvas: + / - zoom it, 0 fits it (F is "fix" here), Ctrl+0 shows 100 %.
 */
export function reviewShortcuts(a: ReviewActions, view?: () => View | undefined): Shortcut<ReviewContextState>[] {
  const canDecide = (s: ReviewContextState) => s.canDecide;
  const g = "shortcut.group.review";
  const z = "shortcut.group.general";
  return [
    { id: "review.next", kbd: ["j"], label: "shortcut.review.next", group: g, run: a.next },
    { id: "review.prev", kbd: ["k"], label: "shortcut.review.prev", group: g, run: a.prev },
    { id: "review.open", kbd: ["o"], label: "shortcut.review.open", group: g, run: a.toggleOpen },
    { id: "review.comment", kbd: ["c"], label: "shortcut.review.comment", group: g, run: a.comment },
    { id: "review.fix", kbd: ["f"], label: "shortcut.review.fix", group: g, when: canDecide, run: a.fix },
    // A plain "a" approves only when no fix is pending: approving with fixes is Ctrl+Enter or the button, so it is never a slip.
    {
      id: "review.approve",
      kbd: ["a"],
      label: "shortcut.review.approve",
      group: g,
      when: (s) => s.canDecide && !s.hasFixes,
      run: a.approve,
    },
    { id: "review.reason", kbd: ["r"], label: "shortcut.review.reason", group: g, when: canDecide, run: a.focusReason },
    { id: "review.decide", kbd: ["mod+Enter"], label: "shortcut.review.decide", group: g, when: canDecide, run: a.decide, isGlobal: true },
    { id: "review.startNext", kbd: ["n"], label: "shortcut.review.startNext", group: g, run: a.startNext },
    { id: "review.help", kbd: ["?"], label: "shortcut.review.help", group: g, run: a.help },
    ...(view
      ? [
          { id: "zoom.in", kbd: ["+", "="], label: "shortcut.zoomIn", group: z, run: () => view()?.zoomIn() },
          { id: "zoom.out", kbd: ["-"], label: "shortcut.zoomOut", group: z, run: () => view()?.zoomOut() },
          { id: "zoom.fit", kbd: ["0"], label: "shortcut.zoomFit", group: z, run: () => view()?.fit() },
          { id: "zoom.actual", kbd: ["mod+0"], label: "shortcut.zoomActual", group: z, run: () => view()?.zoomActual() },
        ]
      : []),
  ];
}

/** The adjudication page (issue 36): move between the disagreements and choose a copy for each. */
export type AdjudicationActions = {
  next: () => void;
  prev: () => void;
  /** Take copy `n` (0-based) for the current disagreement. */
  choose: (n: number) => void;
  edit: () => void;
  save: () => void;
  help: () => void;
};
/** What the adjudication shortcuts look at: how many copies there are, whether the current one may be edited, whether it may be saved. */
export type AdjudicationContextState = { copyCount: number; canEdit: boolean; canSave: boolean };

/** The most copies of one trajectory (lib/domain/overlap.ts): keys 1 to 3 take copy 1 to 3. */
const COPY_KEYS = ["1", "2", "3"] as const;

/** `view` is the canvas of the current disagreement's step (its zoom keys come from viewShortcuts). */
export function adjudicationShortcuts(
  a: AdjudicationActions,
  view: Shortcut<AdjudicationContextState>[] = [],
): Shortcut<AdjudicationContextState>[] {
  const g = "shortcut.group.adjudicate";
  return [
    { id: "adjudicate.next", kbd: ["j", "ArrowDown"], label: "shortcut.adjudicate.next", group: g, run: a.next },
    { id: "adjudicate.prev", kbd: ["k", "ArrowUp"], label: "shortcut.adjudicate.prev", group: g, run: a.prev },
    ...COPY_KEYS.map((key, n): Shortcut<AdjudicationContextState> => ({
      id: `adjudicate.copy${n + 1}`,
      kbd: [key],
      label: `shortcut.adjudicate.copy${n + 1}`,
      group: g,
      when: (s) => n < s.copyCount,
      run: () => a.choose(n),
    })),
    { id: "adjudicate.edit", kbd: ["e"], label: "shortcut.adjudicate.edit", group: g, when: (s) => s.canEdit, run: a.edit },
    {
      id: "adjudicate.save",
      kbd: ["mod+Enter"],
      label: "shortcut.adjudicate.save",
      group: g,
      when: (s) => s.canSave,
      run: a.save,
      isGlobal: true,
    },
    { id: "adjudicate.help", kbd: ["?"], label: "shortcut.review.help", group: g, run: a.help },
    ...view,
  ];
}

export type TasksActions = { startNext: () => void; help: () => void };

export function myTasksShortcuts(a: TasksActions): Shortcut<void>[] {
  return [
    { id: "tasks.startNext", kbd: ["n"], label: "shortcut.tasks.startNext", group: "shortcut.group.tasks", run: a.startNext },
    { id: "tasks.help", kbd: ["?"], label: "shortcut.review.help", group: "shortcut.group.tasks", run: a.help },
  ];
}

/** The review queue: start the next review, and the overlay. */
export function reviewQueueShortcuts(a: TasksActions): Shortcut<void>[] {
  return [
    { id: "queue.startNext", kbd: ["n"], label: "shortcut.review.startNext", group: "shortcut.group.review", run: a.startNext },
    { id: "queue.help", kbd: ["?"], label: "shortcut.review.help", group: "shortcut.group.review", run: a.help },
  ];
}
