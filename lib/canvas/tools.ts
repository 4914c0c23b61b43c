import { boxFromCorners, clampBox, isPointOnScreen, type Box, type Point } from "@/lib/domain/geometry";
import type { ToolCall } from "@/lib/domain/tool-call";
import type { DocumentPart } from "./document";
import {
  CLICK_PX,
  GRAB_PX,
  HANDLES,
  MIN_DRAG,
  viewScale,
  type EngineCore,
  type Handle,
  type PointerInput,
  type Tool,
} from "./editor-state";
import { cycleTarget, isSameBox, targetsAt } from "./snap";

/**
 * The editor's tools: a small state machine over pointer events (down, move, up) in original
 * screenshot pixels, `display` in stage pixels. Each gesture is one undo entry in the document part;
 * a read-only editor, or a press beside the screenshot, only pans.
 */
export function createTools({ store, view, meta, current }: EngineCore, doc: DocumentPart) {
  const get = store.get;
  const { changeStep, setBox, beginGesture, commitGesture, cancelGesture } = doc;

  // ── Tools: a small state machine over pointer events in original pixels ──────────────────────

  /** Read-only, only Select (it pans): the drawing tools would suggest an edit that is then refused. */
  function setTool(tool: Tool) {
    if (get().isReadOnly && tool !== "select") return;
    if (get().drag) cancel();
    store.set({ tool });
  }

  const { hitBox, clampPoint, setPoint, grabBox } = createGrip({ store, meta, current }, doc);
  const { snapAt, cycleSnap } = createSnap({ store, meta, current }, doc);

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

  /** Escape: abandon the gesture in progress (nothing recorded), else drop the selection, else close help. */
  function cancel() {
    if (get().drag) return cancelGesture();
    if (get().isHelpOpen) return store.set({ isHelpOpen: false });
    store.set({ isBoxSelected: false });
  }

  return { setTool, pointerDown, pointerMove, pointerUp, cancel, cycleSnap };
}

/** Where a press lands on the current step: a box's handle or body, a point kept on the screen, the tap itself. */
function createGrip({ store, meta, current }: Pick<EngineCore, "store" | "meta" | "current">, doc: DocumentPart) {
  const get = store.get;
  const { changeStep, beginGesture } = doc;

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

  return { hitBox, clampPoint, setPoint, grabBox };
}

/** The box tool's snapping to the screen's elements: a click takes the innermost, the cycle keys walk out and in. */
function createSnap({ store, meta, current }: Pick<EngineCore, "store" | "meta" | "current">, doc: DocumentPart) {
  const get = store.get;
  const { setBox, commitGesture, cancelGesture } = doc;

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

  return { snapAt, cycleSnap };
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
