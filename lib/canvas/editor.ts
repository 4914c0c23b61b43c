import { convertToolCall, type StepAnnotation, type TrajectoryAnnotation } from "@/lib/domain/annotation";
import { boxFromCorners, clampBox, isPointOnScreen, type Box, type Point, type Size } from "@/lib/domain/geometry";
import { composeThought } from "@/lib/domain/thought";
import type { ActionType, ToolCall } from "@/lib/domain/tool-call";
import type { Verdict } from "@/lib/domain/trajectory";
import { diffKeys, EMPTY_HISTORY, record, redo as redoOf, undo as undoOf, type History } from "./history";
import { cycleTarget, isSameBox, targetsAt } from "./snap";
import { createStore, type Store } from "./store";
import { createView, initialViewState, lens, toImage, transformOf, type Transform, type ViewState } from "./view";

/**
 * The annotation editor's engine: document, tools, per-gesture history, view (zoom/pan) and sync
 * bookkeeping, without React or Konva. The canvas and the forms read it with useSyncExternalStore
 * and call its commands; Konva nodes are never the source of truth. Every point and box is in
 * ORIGINAL screenshot pixels; display pixels appear only in the view transform.
 */

export const TOOLS = ["select", "point", "swipe", "box"] as const;
export type Tool = (typeof TOOLS)[number];

/** Key of the trajectory-level annotation in the document; step annotations are keyed by step id. */
export const TRAJECTORY_KEY = "trajectory";

export type Doc = { trajectory: TrajectoryAnnotation; steps: Record<string, StepAnnotation> };
export type DocValue = TrajectoryAnnotation | StepAnnotation;
/**
 * What the engine knows of a step besides its annotation: its screenshot's size and the boxes the box
 * tool snaps to (lib/canvas/snap.ts snapTargetsOf: the screen's elements, else the candidate boxes),
 * all in original pixels.
 */
export type StepMeta = { id: string; index: number; size: Size; targets?: Box[] };

/** What the server last acknowledged for a key: its version and value. */
export type Synced<T> = { version: number; value: T };

/** A save answered 409: my base, their current value and version. */
export type Conflict = { base: DocValue; theirs: DocValue; version: number };

export type Handle = "nw" | "n" | "ne" | "e" | "se" | "s" | "sw" | "w";
export const HANDLES: readonly Handle[] = ["nw", "n", "ne", "e", "se", "s", "sw", "w"];

/** The gesture in progress between pointerdown and pointerup. */
export type Drag =
  | { kind: "point" }
  | { kind: "swipe"; from: Point }
  /**
   * `at`: where the pointer went down, stage pixels; `isDragging` once it has gone CLICK_PX from there
   * (until then the press is a click, which snaps to an element).
   */
  | { kind: "box-draw"; anchor: Point; at: Point; isDragging: boolean }
  | { kind: "box-move"; grab: Point; start: Box; at: Point; tool: Tool }
  | { kind: "box-resize"; handle: Handle; start: Box }
  | { kind: "pan" };

export type EditorState = {
  trajectoryId: string;
  steps: StepMeta[];
  stepIndex: number;
  doc: Doc;
  /** Server-acknowledged values, keyed like the document. */
  server: Record<string, Synced<DocValue>>;
  conflicts: Record<string, Conflict>;
  history: History;
  tool: Tool;
  isBoxSelected: boolean;
  /** The last box-tool click on a snap target (original pixels): the point the cycle keys walk the enclosing targets of. Never recorded. */
  snapPoint: { stepId: string; at: Point } | null;
  drag: Drag | null;
  /** Zoom, pan, layers and stage size (lib/canvas/view): never recorded, reset on each step. */
  view: ViewState;
  isReadOnly: boolean;
  isHelpOpen: boolean;
  isImageLoaded: boolean;
};

/** Handles and the tap point are grabbed within this many display pixels. */
export const GRAB_PX = 8;
/** Smaller drags are clicks, not boxes or swipes (original pixels). */
const MIN_DRAG = 4;
/** A box-tool press that moves less than this many stage pixels is a click (it snaps to an element), not a drag. */
export const CLICK_PX = 4;

export type EditorInit = {
  trajectoryId: string;
  steps: StepMeta[];
  stepIndex?: number;
  doc: Doc;
  server: Record<string, Synced<DocValue>>;
  conflicts?: Record<string, Conflict>;
  isReadOnly?: boolean;
  now?: () => number;
};

/** A pointer event: `image` in original pixels, `display` in stage pixels. */
export type PointerInput = { image: Point; display: Point; shiftKey?: boolean };

export function createEditor(init: EditorInit) {
  const now = init.now ?? (() => Date.now());
  const first = init.steps[clampIndex(init.stepIndex ?? 0, init.steps.length)];
  const store: Store<EditorState> = createStore<EditorState>({
    trajectoryId: init.trajectoryId,
    steps: init.steps,
    stepIndex: clampIndex(init.stepIndex ?? 0, init.steps.length),
    doc: init.doc,
    server: init.server,
    conflicts: init.conflicts ?? {},
    history: EMPTY_HISTORY,
    tool: "point",
    isBoxSelected: false,
    snapPoint: null,
    drag: null,
    view: initialViewState(first ? { image: first.size, imageKey: first.id } : {}),
    isReadOnly: init.isReadOnly ?? false,
    isHelpOpen: false,
    isImageLoaded: false,
  });
  const view = createView(lens(store, "view"));
  /** Document before the gesture in progress; null when none. */
  let gestureStart: Doc | null = null;

  const get = store.get;
  const meta = () => get().steps[get().stepIndex]!;
  const current = () => get().doc.steps[meta().id]!;

  // ── Document changes and history ─────────────────────────────────────────────────────────────

  function flat(doc: Doc): Record<string, unknown> {
    return { [TRAJECTORY_KEY]: doc.trajectory, ...doc.steps };
  }

  function withValues(doc: Doc, values: Record<string, unknown>): Doc {
    let next = doc;
    for (const [k, v] of Object.entries(values)) {
      next =
        k === TRAJECTORY_KEY
          ? { ...next, trajectory: v as TrajectoryAnnotation }
          : { ...next, steps: { ...next.steps, [k]: v as StepAnnotation } };
    }
    return next;
  }

  function pushHistory(before: Doc, after: Doc, label: string, mergeKey?: string) {
    const b = flat(before);
    const a = flat(after);
    const keys = diffKeys(b, a);
    if (keys.length === 0) return;
    const pick = (src: Record<string, unknown>) => Object.fromEntries(keys.map((k) => [k, src[k]]));
    store.set((s) => ({
      history: record(s.history, { label, before: pick(b), after: pick(a), mergeKey, at: now(), stepIndex: s.stepIndex }),
    }));
  }

  /** One change outside a drag: its own history entry (or merged into the previous one by mergeKey). */
  function change(label: string, recipe: (doc: Doc) => Doc, mergeKey?: string) {
    if (get().isReadOnly) return;
    const before = get().doc;
    const after = recipe(before);
    if (after === before) return;
    store.set({ doc: after });
    if (!gestureStart) pushHistory(before, after, label, mergeKey);
  }

  function changeStep(label: string, fn: (a: StepAnnotation) => StepAnnotation, mergeKey?: string) {
    const id = meta().id;
    change(
      label,
      (doc) => {
        const prev = doc.steps[id]!;
        const next = fn(prev);
        return next === prev ? doc : { ...doc, steps: { ...doc.steps, [id]: next } };
      },
      mergeKey && `${mergeKey}:${id}`,
    );
  }

  function changeTrajectory(label: string, patch: Partial<TrajectoryAnnotation>) {
    change(label, (doc) => ({ ...doc, trajectory: { ...doc.trajectory, ...patch } }));
  }

  function beginGesture() {
    gestureStart = get().doc;
  }

  function commitGesture(label: string) {
    const before = gestureStart;
    gestureStart = null;
    store.set({ drag: null });
    if (before) pushHistory(before, get().doc, label);
  }

  function cancelGesture() {
    const before = gestureStart;
    gestureStart = null;
    store.set(before ? { doc: before, drag: null } : { drag: null });
  }

  function applyEntry(values: Record<string, unknown>, stepIndex: number) {
    store.set((s) => ({ doc: withValues(s.doc, values), stepIndex: clampIndex(stepIndex, s.steps.length), isBoxSelected: false }));
    const m = meta();
    view.setImage(m.id, m.size);
  }

  function undo() {
    if (get().drag) return cancel();
    const r = undoOf(get().history);
    if (!r) return;
    store.set({ history: r.history });
    applyEntry(r.entry.before, r.entry.stepIndex);
  }

  function redo() {
    if (get().drag) return;
    const r = redoOf(get().history);
    if (!r) return;
    store.set({ history: r.history });
    applyEntry(r.entry.after, r.entry.stepIndex);
  }

  // ── Step fields ──────────────────────────────────────────────────────────────────────────────

  type ThoughtPart = "state" | "nextAction" | "purpose";

  /** Editing a part recomposes the thought text, unless the text was edited by hand since. */
  function setThoughtPart(part: ThoughtPart, value: string) {
    changeStep(
      "history.thought",
      (a) => {
        const parts = { ...a.thought, [part]: value };
        const isComposed = a.thought.text === composeThought(a.thought);
        return { ...a, thought: { ...parts, text: isComposed ? composeThought(parts) : a.thought.text } };
      },
      `thought.${part}`,
    );
  }

  function setThoughtText(text: string) {
    changeStep("history.thought", (a) => ({ ...a, thought: { ...a.thought, text } }), "thought.text");
  }

  function recomposeThought() {
    changeStep("history.thought", (a) => ({ ...a, thought: { ...a.thought, text: composeThought(a.thought) } }));
  }

  function setClearAction(clearAction: string) {
    changeStep("history.clearAction", (a) => ({ ...a, clearAction }), "clearAction");
  }

  function setToolCall(toolCall: ToolCall, mergeKey?: string) {
    changeStep("history.toolCall", (a) => ({ ...a, toolCall }), mergeKey);
  }

  function setActionType(action: ActionType) {
    // The same type again is no change (and no undo step that undoes nothing).
    changeStep("history.actionType", (a) =>
      a.toolCall.action === action ? a : { ...a, toolCall: convertToolCall(a.toolCall, action, { box: a.box, size: meta().size }) },
    );
  }

  function setVerdict(verdict: Verdict) {
    changeStep("history.verdict", (a) => (a.verdict === verdict ? a : { ...a, verdict }));
  }

  function setBox(box: Box | null) {
    changeStep("history.box", (a) => ({ ...a, box }));
  }

  function deleteBox() {
    if (!current().box) return;
    setBox(null);
    store.set({ isBoxSelected: false });
  }

  /** Move the selected box by (dx, dy) original pixels, kept on the screen. Presses in a row are one undo step. */
  function nudgeBox(dx: number, dy: number) {
    const box = current().box;
    if (!box) return;
    const { width, height } = meta().size;
    const cx = Math.max(-box[0], Math.min(dx, width - box[2]));
    const cy = Math.max(-box[1], Math.min(dy, height - box[3]));
    if (cx === 0 && cy === 0) return;
    changeStep("history.nudge", (a) => ({ ...a, box: [box[0] + cx, box[1] + cy, box[2] + cx, box[3] + cy] }), "nudge");
  }

  // ── Trajectory fields ────────────────────────────────────────────────────────────────────────

  const setOutcome = (outcome: TrajectoryAnnotation["outcome"]) => changeTrajectory("history.outcome", { outcome });
  const setDiscarded = (isDiscarded: boolean) => changeTrajectory("history.discard", { isDiscarded });
  /** Cut after the current step, or remove the cut when it is already here. */
  function toggleCutHere() {
    const i = get().stepIndex;
    const isLast = i === get().steps.length - 1;
    const cut = get().doc.trajectory.cutAfter;
    changeTrajectory("history.cut", { cutAfter: cut === i || isLast ? null : i });
  }

  // ── Tools: a small state machine over pointer events in original pixels ──────────────────────

  function setTool(tool: Tool) {
    if (get().drag) cancel();
    store.set({ tool });
  }

  /** Handle or body of the current box under the point, within GRAB_PX display pixels. */
  function hitBox(p: Point): Handle | "body" | null {
    const box = current().box;
    if (!box) return null;
    const r = GRAB_PX / viewScale(get());
    const [x1, y1, x2, y2] = box;
    const mx = (x1 + x2) / 2;
    const my = (y1 + y2) / 2;
    const spots: Record<Handle, Point> = {
      nw: [x1, y1],
      n: [mx, y1],
      ne: [x2, y1],
      e: [x2, my],
      se: [x2, y2],
      s: [mx, y2],
      sw: [x1, y2],
      w: [x1, my],
    };
    if (get().isBoxSelected) {
      for (const h of HANDLES) if (Math.abs(p[0] - spots[h][0]) <= r && Math.abs(p[1] - spots[h][1]) <= r) return h;
    }
    return p[0] >= x1 && p[0] <= x2 && p[1] >= y1 && p[1] <= y2 ? "body" : null;
  }

  function clampPoint([x, y]: Point): Point {
    const { width, height } = meta().size;
    return [Math.round(Math.min(Math.max(x, 0), width)), Math.round(Math.min(Math.max(y, 0), height))];
  }

  function setPoint(p: Point) {
    const at = clampPoint(p);
    changeStep("history.point", (a) => {
      const call: ToolCall = a.toolCall.action === "long_press" ? { ...a.toolCall, coordinate: at } : { action: "click", coordinate: at };
      return { ...a, toolCall: call };
    });
  }

  /** Press on a box's handle or body (`hitBox`): resize or move it, Select and Box tools alike. */
  function grabBox(e: PointerInput, hit: Handle | "body" | null): boolean {
    const box = current().box;
    if (!hit || !box) return false;
    const p = e.image;
    beginGesture();
    store.set({
      isBoxSelected: true,
      drag:
        hit === "body"
          ? { kind: "box-move", grab: p, start: box, at: e.display, tool: get().tool }
          : { kind: "box-resize", handle: hit, start: box },
    });
    return true;
  }

  function pointerDown(e: PointerInput) {
    const s = get();
    if (s.drag) return;
    const p = e.image;
    // Read-only, or a press in the margin beside the screenshot: pan (and drop the selection), never an edit.
    // A selected box's handle may sit just past the edge, so it is tried first.
    const grabsBoxEdge = (s.tool === "box" || s.tool === "select") && s.isBoxSelected && hitBox(p) !== null;
    // Input that starts off the screenshot never edits the step.
    if (s.isReadOnly || (!isPointOnScreen(p, meta().size) && !grabsBoxEdge)) {
      view.beginPan(e.display);
      store.set({ drag: { kind: "pan" }, ...(s.isReadOnly ? {} : { isBoxSelected: false }) });
      return;
    }
    switch (s.tool) {
      case "point":
        beginGesture();
        store.set({ drag: { kind: "point" } });
        setPoint(p);
        return;
      case "swipe": {
        const from = clampPoint(p);
        beginGesture();
        store.set({ drag: { kind: "swipe", from } });
        changeStep("history.swipe", (a) => ({ ...a, toolCall: { action: "swipe", coordinate: from, coordinate2: from } }));
        return;
      }
      case "box":
        // As the help says: a selected box's handles resize it and its body moves it (a click on it still snaps);
        // elsewhere a press draws a box, or snaps to the element under a click.
        if (s.isBoxSelected && grabBox(e, hitBox(p))) return;
        beginGesture();
        store.set({ drag: { kind: "box-draw", anchor: clampPoint(p), at: e.display, isDragging: false }, isBoxSelected: false });
        return;
      case "select": {
        if (!grabBox(e, hitBox(p))) {
          view.beginPan(e.display);
          store.set({ isBoxSelected: false, drag: { kind: "pan" } });
        }
        return;
      }
    }
  }

  function pointerMove(e: PointerInput) {
    const d = get().drag;
    if (!d) return;
    const p = e.image;
    const size = meta().size;
    switch (d.kind) {
      case "point":
        return setPoint(p);
      case "swipe": {
        const to = clampPoint(p);
        return changeStep("history.swipe", (a) => ({ ...a, toolCall: { action: "swipe", coordinate: d.from, coordinate2: to } }));
      }
      case "box-draw":
        // A press still within the click distance draws nothing yet: it may be a click that snaps.
        if (!d.isDragging) {
          if (isClick(d, e)) return;
          store.set({ drag: { ...d, isDragging: true } });
        }
        return setBox(roundBox(clampBox(boxFromCorners(d.anchor, clampPoint(p)), size)));
      case "box-move": {
        const [x1, y1, x2, y2] = d.start;
        const dx = Math.max(-x1, Math.min(p[0] - d.grab[0], size.width - x2));
        const dy = Math.max(-y1, Math.min(p[1] - d.grab[1], size.height - y2));
        return setBox(roundBox([x1 + dx, y1 + dy, x2 + dx, y2 + dy]));
      }
      case "box-resize":
        return setBox(roundBox(clampBox(resizeBox(d.start, d.handle, p), size)));
      case "pan":
        return view.movePan(e.display);
    }
  }

  function pointerUp(e: PointerInput) {
    pointerMove(e);
    const d = get().drag;
    if (!d) return;
    switch (d.kind) {
      case "point":
        return commitGesture("history.point");
      case "swipe": {
        const call = current().toolCall;
        const isTiny =
          call.action === "swipe" &&
          Math.hypot(call.coordinate2[0] - call.coordinate[0], call.coordinate2[1] - call.coordinate[1]) < MIN_DRAG;
        return isTiny ? cancelGesture() : commitGesture("history.swipe");
      }
      case "box-draw": {
        if (!d.isDragging) return snapAt(d.anchor);
        const box = current().box;
        const isTiny = !box || box[2] - box[0] < MIN_DRAG || box[3] - box[1] < MIN_DRAG;
        if (isTiny) return cancelGesture();
        store.set({ isBoxSelected: true });
        return commitGesture("history.box");
      }
      case "box-move":
        // A Box-tool click on the selected box (no drag) snaps to the element under it, as a click anywhere does.
        if (d.tool === "box" && isClick(d, e)) return snapAt(e.image);
        return commitGesture("history.box");
      case "box-resize":
        return commitGesture("history.box");
      case "pan":
        view.endPan();
        return store.set({ drag: null });
    }
  }

  /**
   * A box-tool click: the innermost snap target under the point becomes the box, as one undo entry
   * (the gesture begun on pointerdown); the point is kept for the cycle keys. A click on no target
   * changes nothing.
   */
  function snapAt(p: Point) {
    const [target] = targetsAt(meta().targets ?? [], p);
    if (!target) return cancelGesture();
    setBox(target);
    store.set({ isBoxSelected: true, snapPoint: { stepId: meta().id, at: p } });
    commitGesture("history.box");
  }

  /**
   * The cycle keys: the box becomes the next snap target enclosing the last click point (`dir` 1: the
   * parent, -1: back inside), one undo entry each. Without a click on this step, the point is the
   * box's centre. Nothing happens with no box and no click, or no target there.
   */
  function cycleSnap(dir: 1 | -1) {
    if (get().drag || get().isReadOnly) return;
    const box = current().box;
    const snap = get().snapPoint;
    const at: Point | null = snap && snap.stepId === meta().id ? snap.at : box ? [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2] : null;
    if (!at) return;
    const next = cycleTarget(targetsAt(meta().targets ?? [], at), box, dir);
    if (!next) return;
    // The only target there is already the box: nothing to record.
    if (!box || !isSameBox(box, next)) setBox(next);
    store.set({ isBoxSelected: true, snapPoint: { stepId: meta().id, at } });
  }

  /** Escape: abandon the gesture in progress (nothing recorded), else drop the selection, else close help. */
  function cancel() {
    if (get().drag) return cancelGesture();
    if (get().isHelpOpen) return store.set({ isHelpOpen: false });
    store.set({ isBoxSelected: false });
  }

  // ── Navigation and view (never recorded) ─────────────────────────────────────────────────────

  function goTo(index: number) {
    if (get().drag) cancel();
    const stepIndex = clampIndex(index, get().steps.length);
    if (stepIndex === get().stepIndex) return;
    store.set({ stepIndex, isBoxSelected: false, isImageLoaded: false });
    const m = meta();
    view.setImage(m.id, m.size);
  }

  return {
    ...store,
    // document
    setThoughtPart,
    setThoughtText,
    recomposeThought,
    setClearAction,
    setToolCall,
    setActionType,
    setVerdict,
    setBox,
    deleteBox,
    nudgeBox,
    setOutcome,
    setDiscarded,
    toggleCutHere,
    undo,
    redo,
    // tools
    setTool,
    pointerDown,
    pointerMove,
    pointerUp,
    cancel,
    cycleSnap,
    selectBox: (isBoxSelected: boolean) => store.set({ isBoxSelected: isBoxSelected && !!current().box }),
    // navigation and view
    goTo,
    next: () => goTo(get().stepIndex + 1),
    prev: () => goTo(get().stepIndex - 1),
    first: () => goTo(0),
    last: () => goTo(get().steps.length - 1),
    /** Zoom, pan and layers of the canvas (the same engine the viewer and review use). */
    view,
    zoomIn: view.zoomIn,
    zoomOut: view.zoomOut,
    zoomBy: view.zoomBy,
    zoomActual: view.zoomActual,
    zoomFit: view.fit,
    setViewport: view.setViewport,
    toggleHelp: () => store.set((s) => ({ isHelpOpen: !s.isHelpOpen })),
    // sync (loading from or acknowledging the server is never an undo step)
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
    setReadOnly: (isReadOnly: boolean) => store.set({ isReadOnly }),
    /** Several fields of the current step at once (an accepted suggestion): one undo step. */
    patchStep: (label: string, patch: Partial<StepAnnotation>) => changeStep(label, (a) => ({ ...a, ...patch })),
  };
}

export type Editor = ReturnType<typeof createEditor>;

/** Keys whose document value differs from what the server acknowledged. */
export function dirtyKeys(s: Pick<EditorState, "doc" | "server">): string[] {
  const out: string[] = [];
  if (JSON.stringify(s.doc.trajectory) !== JSON.stringify(s.server[TRAJECTORY_KEY]?.value)) out.push(TRAJECTORY_KEY);
  for (const [id, v] of Object.entries(s.doc.steps)) if (JSON.stringify(v) !== JSON.stringify(s.server[id]?.value)) out.push(id);
  return out;
}

/** Stage transform: stage pixels per original pixel, and where the image's top-left corner sits. */
export function viewTransform(s: Pick<EditorState, "view">): Transform {
  return transformOf(s.view);
}

export function viewScale(s: Pick<EditorState, "view">): number {
  return viewTransform(s).scale || 1;
}

/** Stage pixels -> original screenshot pixels under the current transform. */
export function toImagePoint(s: Pick<EditorState, "view">, p: Point): Point {
  return toImage(viewTransform(s), p);
}

function resizeBox([x1, y1, x2, y2]: Box, handle: Handle, [px, py]: Point): Box {
  const nx1 = handle.includes("w") ? px : x1;
  const nx2 = handle.includes("e") ? px : x2;
  const ny1 = handle.includes("n") ? py : y1;
  const ny2 = handle.includes("s") ? py : y2;
  return boxFromCorners([nx1, ny1], [nx2, ny2]);
}

/** Did the box-tool press stay within CLICK_PX stage pixels of where it went down? */
function isClick(d: { at: Point }, e: PointerInput): boolean {
  return Math.hypot(e.display[0] - d.at[0], e.display[1] - d.at[1]) < CLICK_PX;
}

function roundBox(b: Box): Box {
  return [Math.round(b[0]), Math.round(b[1]), Math.round(b[2]), Math.round(b[3])];
}

function clampIndex(i: number, count: number): number {
  if (!Number.isFinite(i)) return 0;
  return Math.max(0, Math.min(Math.trunc(i), Math.max(count - 1, 0)));
}
