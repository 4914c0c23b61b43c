"use client";

import type Konva from "konva";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { Arrow, Circle, Group, Image as KonvaImage, Layer, Line, Rect, Stage, Text } from "react-konva";
import { HANDLES, type Editor, type Tool } from "@/lib/canvas/editor";
import { isSameBox, targetsAt } from "@/lib/canvas/snap";
import { CANVAS_COLOURS, type GestureShape, type StepMarks } from "@/lib/canvas/overlay";
import { transformOf, type ImageVariant, type View } from "@/lib/canvas/view";
import { isPointOnScreen, type Box, type Point } from "@/lib/domain/geometry";
import { useViewState } from "./use-view";

declare global {
  interface Window {
    /** Last screenshot drawn: which step and when (performance.now()), for the step-switch benchmark. */
    __studioPaint?: { stepIndex: number; at: number };
  }
}

export type StageImage = { element: HTMLImageElement | undefined; variant: ImageVariant; isError: boolean };

type Props = {
  view: View;
  size: { width: number; height: number };
  image: StageImage;
  marks: StepMarks;
  /** The screen's elements (original pixels), drawn faintly with the imported boxes. */
  elementBoxes: Box[];
  /** Steps after the cut are drawn faded. */
  isDimmed?: boolean;
  /** Edit mode: pointer gestures go to the editor's tools, and the selected box shows its handles. */
  editor?: Editor;
  isBoxSelected?: boolean;
  /** Space is held: every drag pans, whatever the tool. */
  isSpaceHeld: boolean;
  /** Step index reported to window.__studioPaint once the screenshot is drawn. */
  paintIndex?: number;
  /** Only Ctrl/⌘+wheel (and pinch) zooms; a plain wheel scrolls the page (a canvas inside a long page). */
  isWheelZoomWithModifier?: boolean;
  text: { loading: string; unavailable: string };
};

/**
 * The Konva stage: the screenshot and the marks over it, drawn in ORIGINAL screenshot pixels inside
 * one transformed group per layer (the view's transform), so positions are exact at any zoom; mark
 * sizes are divided by the scale to look the same on screen. Nodes carry names (`screenshot`,
 * `model-action`, `corrected-action`, `imported-box`, `corrected-box`, `candidate-box`, `element-box`, `snap-hover`,
 * `box-handle`)
 * so browser tests read what is drawn through Konva.stages. No text is drawn over the screenshot:
 * what the marks mean is in the legend beside the stage.
 */
export function KonvaStage({
  view,
  size,
  image,
  marks,
  elementBoxes,
  isDimmed,
  editor,
  isBoxSelected,
  isSpaceHeld,
  paintIndex,
  isWheelZoomWithModifier,
  text,
}: Props) {
  const viewport = useViewState(view, (s) => s.viewport);
  const layers = useViewState(view, (s) => s.layers);
  const dpr = useViewState(view, (s) => s.dpr);
  const camera = useViewState(view, (s) => s.camera);
  const imageSize = useViewState(view, (s) => s.image);
  const t = transformOf({ camera, image: imageSize, viewport });
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
  const s = t.scale || 1;

  useEffect(() => {
    // Test and benchmark builds only (NEXT_PUBLIC_STUDIO_TEST_HOOKS=1): `npm run build` leaves this out.
    if (process.env.NEXT_PUBLIC_STUDIO_TEST_HOOKS !== "1") return;
    if (!image.element || paintIndex === undefined) return;
    // Konva draws in the next animation frame; mark the frame after that as painted.
    let raf = requestAnimationFrame(() => {
      raf = requestAnimationFrame(() => {
        window.__studioPaint = { stepIndex: paintIndex, at: performance.now() };
      });
    });
    return () => cancelAnimationFrame(raf);
  }, [image.element, paintIndex]);

  if (viewport.width === 0 || viewport.height === 0 || t.scale === 0) return null;

  const pointer = (): Point | null => {
    const pos = stageRef.current?.getPointerPosition();
    return pos ? [pos.x, pos.y] : null;
  };
  const input = (p: Point, e: PointerEvent) => ({ image: view.toImagePoint(p), display: p, shiftKey: e.shiftKey });
  // The cursor says where input is accepted: the tool's cursor over the screenshot, the pan hand
  // beside it (a press there pans and never edits, lib/canvas/editor.ts pointerDown).
  const cursor = !editor || isSpaceHeld ? undefined : isOnPicture && tool ? TOOL_CURSOR[tool] : "grab";

  return (
    <Stage
      ref={stageRef}
      width={viewport.width}
      height={viewport.height}
      className="konva-stage"
      style={cursor ? { cursor } : undefined}
      onPointerDown={(e) => {
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
      }}
      onPointerMove={(e) => {
        const p = pointer();
        if (!p) return;
        view.setPointer(p);
        const isOn = isPointOnScreen(view.toImagePoint(p), size);
        if (isOn !== isOnPicture) setOnPicture(isOn);
        if (isPanning.current) view.movePan(p);
        else editor?.pointerMove(input(p, e.evt));
        const next = editor ? snapHover(editor, view.toImagePoint(p)) : null;
        if (next !== hover && !(next && hover && isSameBox(next, hover))) setHover(next);
      }}
      onPointerLeave={() => {
        setHover(null);
        setOnPicture(false);
      }}
      onPointerUp={(e) => {
        const p = pointer();
        if (isPanning.current) {
          isPanning.current = false;
          view.endPan();
          return;
        }
        if (p) editor?.pointerUp(input(p, e.evt));
      }}
      onWheel={(e) => {
        if (isWheelZoomWithModifier && !e.evt.ctrlKey && !e.evt.metaKey) return;
        e.evt.preventDefault();
        const p = pointer();
        // Lines (Firefox) and pages become pixels, so every wheel zooms by the same amount per notch.
        const unit = e.evt.deltaMode === 1 ? 16 : e.evt.deltaMode === 2 ? viewport.height : 1;
        if (p) view.wheel(e.evt.deltaY * unit, p);
      }}
    >
      {/* Past 2 device pixels per screenshot pixel, pixels are drawn as crisp squares for precise work. */}
      <Layer listening={false} imageSmoothingEnabled={t.scale * dpr < 2}>
        <Group name="world" x={t.x} y={t.y} scaleX={s} scaleY={s}>
          {image.element ? (
            <KonvaImage
              name="screenshot"
              variant={image.variant}
              image={image.element}
              width={size.width}
              height={size.height}
              opacity={isDimmed ? 0.45 : 1}
            />
          ) : (
            <>
              <Rect name="placeholder" width={size.width} height={size.height} fill="#dfe3e8" />
              <Text
                width={size.width}
                y={size.height / 2}
                align="center"
                fontSize={14 / s}
                text={image.isError ? text.unavailable : text.loading}
                fill="#5f6b7a"
              />
            </>
          )}
        </Group>
      </Layer>
      <Layer listening={false}>
        <Group name="marks" x={t.x} y={t.y} scaleX={s} scaleY={s}>
          {layers.importedBox &&
            elementBoxes.map(([x1, y1, x2, y2], i) => (
              <Rect
                key={`e${i}`}
                name="element-box"
                x={x1}
                y={y1}
                width={x2 - x1}
                height={y2 - y1}
                stroke={CANVAS_COLOURS.candidate}
                strokeWidth={1}
                strokeScaleEnabled={false}
                opacity={0.45}
              />
            ))}
          {layers.importedBox &&
            marks.importedBoxes.map((b, i) => (
              <BoxShape
                key={`i${i}`}
                name={i === 0 ? "imported-box" : "candidate-box"}
                box={b}
                color={i === 0 ? CANVAS_COLOURS.model : CANVAS_COLOURS.candidate}
                dash={i === 0 ? [7, 4] : [2, 3]}
              />
            ))}
          {hover && <BoxShape name="snap-hover" box={hover} color={CANVAS_COLOURS.corrected} dash={[4, 4]} />}
          {layers.correctedBox && marks.correctedBox && (
            <BoxShape name="corrected-box" box={marks.correctedBox} color={CANVAS_COLOURS.corrected} fill="rgba(230,32,106,0.08)" />
          )}
          {layers.model && marks.model && <Gesture who="model" shape={marks.model} s={s} />}
          {layers.corrected && marks.corrected && <Gesture who="corrected" shape={marks.corrected} s={s} />}
          {/* On top: the suggestion is what the person is deciding about right now. */}
          {marks.suggested && <Gesture who="suggested" shape={marks.suggested} s={s} />}
          {editor && isBoxSelected && layers.correctedBox && marks.correctedBox && <Handles box={marks.correctedBox} s={s} />}
        </Group>
      </Layer>
    </Stage>
  );
}

/** The snap target under the pointer while the box tool is idle (no drag), else null. */
const noSubscription = () => () => undefined;

/** Each tool's cursor over the screenshot: a crosshair where a press places something, the arrow to select. */
const TOOL_CURSOR: Record<Tool, string> = {
  point: "crosshair",
  swipe: "crosshair",
  box: "crosshair",
  select: "default",
};

function snapHover(editor: Editor, p: Point): Box | null {
  const st = editor.get();
  if (st.tool !== "box" || st.drag || st.isReadOnly) return null;
  return targetsAt(st.steps[st.stepIndex]?.targets ?? [], p)[0] ?? null;
}

/** A box with a white halo under its coloured line, so it reads on light and dark screens alike. */
function BoxShape({
  name,
  box: [x1, y1, x2, y2],
  color,
  dash,
  fill,
}: {
  name: string;
  box: Box;
  color: string;
  dash?: number[];
  fill?: string;
}) {
  return (
    <>
      <Rect
        x={x1}
        y={y1}
        width={x2 - x1}
        height={y2 - y1}
        stroke={CANVAS_COLOURS.halo}
        strokeWidth={4}
        strokeScaleEnabled={false}
        opacity={0.7}
      />
      <Rect
        name={name}
        x={x1}
        y={y1}
        width={x2 - x1}
        height={y2 - y1}
        stroke={color}
        strokeWidth={2}
        strokeScaleEnabled={false}
        dash={dash}
        fill={fill}
      />
    </>
  );
}

function Handles({ box: [x1, y1, x2, y2], s }: { box: Box; s: number }) {
  const mx = (x1 + x2) / 2;
  const my = (y1 + y2) / 2;
  const at: Record<(typeof HANDLES)[number], Point> = {
    nw: [x1, y1],
    n: [mx, y1],
    ne: [x2, y1],
    e: [x2, my],
    se: [x2, y2],
    s: [mx, y2],
    sw: [x1, y2],
    w: [x1, my],
  };
  const size = 8 / s;
  return (
    <>
      {HANDLES.map((h) => (
        <Rect
          key={h}
          name="box-handle"
          x={at[h][0] - size / 2}
          y={at[h][1] - size / 2}
          width={size}
          height={size}
          fill="#fff"
          stroke={CANVAS_COLOURS.corrected}
          strokeWidth={1.5}
          strokeScaleEnabled={false}
        />
      ))}
    </>
  );
}

/**
 * One action: the model's as a larger dashed violet ring, the correction as a smaller solid pink
 * ring with a crosshair, so both stay visible when they coincide; a suggestion not yet accepted as
 * the largest dotted cyan ring. Sizes are stage pixels / scale.
 */
function Gesture({ who, shape, s }: { who: "model" | "corrected" | "suggested"; shape: GestureShape; s: number }) {
  const isSuggested = who === "suggested";
  // The suggestion is drawn as an outline like the model's (it is the model's, not yet the person's).
  const isModel = who === "model" || isSuggested;
  const color = isSuggested ? CANVAS_COLOURS.suggested : isModel ? CANVAS_COLOURS.model : CANVAS_COLOURS.corrected;
  const dash = isSuggested ? [2, 3] : isModel ? [5, 4] : undefined;
  const r = (px: number) => px / s;
  const name = `${who}-action`;
  switch (shape.kind) {
    case "tap":
    case "long_press": {
      const [x, y] = shape.at;
      const radius = isSuggested ? 27 : isModel ? 20 : 13;
      return (
        <Group name={name} gesture={shape.kind} x={x} y={y}>
          <Circle radius={r(radius)} stroke={CANVAS_COLOURS.halo} strokeWidth={5} strokeScaleEnabled={false} opacity={0.8} />
          <Circle
            name="ring"
            radius={r(radius)}
            stroke={color}
            strokeWidth={isModel ? 2.5 : 3}
            strokeScaleEnabled={false}
            dash={dash}
            fill={isModel ? undefined : "rgba(230,32,106,0.16)"}
          />
          {shape.kind === "long_press" && (
            <Circle radius={r(radius + 7)} stroke={color} strokeWidth={2} strokeScaleEnabled={false} dash={dash} />
          )}
          {!isModel && (
            <>
              <Line points={[r(-22), 0, r(-6), 0]} stroke={color} strokeWidth={2} strokeScaleEnabled={false} />
              <Line points={[r(6), 0, r(22), 0]} stroke={color} strokeWidth={2} strokeScaleEnabled={false} />
              <Line points={[0, r(-22), 0, r(-6)]} stroke={color} strokeWidth={2} strokeScaleEnabled={false} />
              <Line points={[0, r(6), 0, r(22)]} stroke={color} strokeWidth={2} strokeScaleEnabled={false} />
            </>
          )}
          <Circle radius={r(2.5)} fill={color} />
        </Group>
      );
    }
    case "swipe": {
      const [x1, y1] = shape.from;
      const [x2, y2] = shape.to;
      return (
        <Group name={name} gesture="swipe">
          <Arrow
            points={[x1, y1, x2, y2]}
            stroke={CANVAS_COLOURS.halo}
            strokeWidth={isModel ? 5 : 7}
            strokeScaleEnabled={false}
            pointerLength={r(14)}
            pointerWidth={r(16)}
            fill={CANVAS_COLOURS.halo}
            opacity={0.8}
          />
          <Arrow
            name="ring"
            points={[x1, y1, x2, y2]}
            stroke={color}
            strokeWidth={isModel ? 2.5 : 4}
            strokeScaleEnabled={false}
            dash={dash}
            pointerLength={r(12)}
            pointerWidth={r(13)}
            fill={color}
          />
          <Circle x={x1} y={y1} radius={r(6)} fill={color} stroke={CANVAS_COLOURS.halo} strokeWidth={2} strokeScaleEnabled={false} />
        </Group>
      );
    }
  }
}
