"use client";

import type Konva from "konva";
import { useRef, useState, useSyncExternalStore } from "react";
import type { Editor, Tool } from "@/lib/canvas/editor";
import { isSameBox, targetsAt } from "@/lib/canvas/snap";
import type { View } from "@/lib/canvas/view";
import { isPointOnScreen, type Box, type Point } from "@/lib/domain/geometry";

type KonvaPointer = Konva.KonvaEventObject<PointerEvent>;

/**
 * The stage's pointer and wheel input: a drag pans (space held, middle button, no editor) or goes to
 * the editor's tools; the box tool's snap target under the pointer; the cursor that says where input
 * is accepted. Returns the stage's ref, the hover box and the Stage's handlers.
 */
export function useStagePointer({
  view,
  size,
  editor,
  isSpaceHeld,
  isWheelZoomWithModifier,
  viewportHeight,
}: {
  view: View;
  size: { width: number; height: number };
  editor: Editor | undefined;
  isSpaceHeld: boolean;
  isWheelZoomWithModifier: boolean | undefined;
  viewportHeight: number;
}) {
  const stageRef = useRef<Konva.Stage>(null);
  /** The drag in progress is a pan the stage handles itself (space, middle button, read-only view). */
  const isPanning = useRef(false);
  /** With the box tool, the snap target a click would take (the innermost under the pointer), original pixels. */
  const [hover, setHover] = useState<Box | null>(null);
  /** The pointer is over the screenshot itself, where a tool's press edits (beside it, a press pans). */
  const [isOnPicture, setOnPicture] = useState(false);
  const tool = useSyncExternalStore(
    editor?.subscribe ?? noSubscription,
    () => editor?.get().tool ?? null,
    () => null,
  );

  const pointer = (): Point | null => {
    const pos = stageRef.current?.getPointerPosition();
    return pos ? [pos.x, pos.y] : null;
  };
  const input = (p: Point, e: PointerEvent) => ({ image: view.toImagePoint(p), display: p, shiftKey: e.shiftKey });
  // The cursor says where input is accepted: the tool's cursor over the screenshot, the pan hand
  // beside it (a press there pans and never edits, lib/canvas/editor.ts pointerDown).
  const cursor = !editor || isSpaceHeld ? undefined : isOnPicture && tool ? TOOL_CURSOR[tool] : "grab";

  const handlers = {
    onPointerDown: (e: KonvaPointer) => {
      const p = pointer();
      if (!p || (e.evt.button !== 0 && e.evt.button !== 1)) return;
      (e.evt.target as Element).setPointerCapture?.(e.evt.pointerId);
      if (!editor || isSpaceHeld || e.evt.button === 1) {
        e.evt.preventDefault();
        isPanning.current = true;
        view.beginPan(p);
        return;
      }
      editor.pointerDown(input(p, e.evt));
    },
    onPointerMove: (e: KonvaPointer) => {
      const p = pointer();
      if (!p) return;
      view.setPointer(p);
      const isOn = isPointOnScreen(view.toImagePoint(p), size);
      if (isOn !== isOnPicture) setOnPicture(isOn);
      if (isPanning.current) view.movePan(p);
      else editor?.pointerMove(input(p, e.evt));
      const next = editor ? snapHover(editor, view.toImagePoint(p)) : null;
      if (next !== hover && !(next && hover && isSameBox(next, hover))) setHover(next);
    },
    onPointerLeave: () => {
      setHover(null);
      setOnPicture(false);
    },
    onPointerUp: (e: KonvaPointer) => {
      const p = pointer();
      if (isPanning.current) {
        isPanning.current = false;
        view.endPan();
        return;
      }
      if (p) editor?.pointerUp(input(p, e.evt));
    },
    onWheel: (e: Konva.KonvaEventObject<WheelEvent>) => {
      if (isWheelZoomWithModifier && !e.evt.ctrlKey && !e.evt.metaKey) return;
      e.evt.preventDefault();
      const p = pointer();
      // Lines (Firefox) and pages become pixels, so every wheel zooms by the same amount per notch.
      const unit = e.evt.deltaMode === 1 ? 16 : e.evt.deltaMode === 2 ? viewportHeight : 1;
      if (p) view.wheel(e.evt.deltaY * unit, p);
    },
  };
  return { stageRef, hover, cursor, handlers };
}

const noSubscription = () => () => undefined;

/** Each tool's cursor over the screenshot: a crosshair where a press places something, the arrow to select. */
const TOOL_CURSOR: Record<Tool, string> = {
  point: "crosshair",
  swipe: "crosshair",
  box: "crosshair",
  select: "default",
};

/** The snap target under the pointer while the box tool is idle (no drag), else null. */
function snapHover(editor: Editor, p: Point): Box | null {
  const st = editor.get();
  if (st.tool !== "box" || st.drag || st.isReadOnly) return null;
  return targetsAt(st.steps[st.stepIndex]?.targets ?? [], p)[0] ?? null;
}
