"use client";

import type Konva from "konva";
import { useEffect, useMemo, useRef } from "react";
import { Arrow, Circle, Group, Image as KonvaImage, Label, Layer, Line, Rect, Stage, Tag, Text } from "react-konva";
import { HANDLES, toImagePoint, viewTransform, type Editor } from "@/lib/canvas/editor";
import { overlayFor, type OverlayShape } from "@/lib/canvas/overlay";
import type { Box, Point } from "@/lib/domain/geometry";
import { screenshotUrl, type StepView } from "@/lib/queries/trajectories";
import { useImage } from "@/components/step-viewer/use-image";
import { useEditor } from "./use-editor";

const CORRECTED = "#ff3b6b";
const MODEL = "#7c5cff";
const TARGET = "#18c37e";
const CANDIDATE = "#f5a524";
const FONT = 'system-ui, "PingFang SC", "Noto Sans CJK SC", sans-serif';

declare global {
  interface Window {
    /** Last screenshot drawn: which step and when (performance.now()), for the step-switch benchmark. */
    __studioPaint?: { stepIndex: number; at: number };
  }
}

/**
 * The screenshot under the model's original action (violet, dashed) and the corrected one (red,
 * solid), with the target box and its handles. A pure view of the editor state: pointer events go
 * to the engine in original pixels, and every shape is drawn from the store.
 */
export function EditorCanvas({ editor, step }: { editor: Editor; step: StepView }) {
  const viewport = useEditor(editor, (s) => s.viewport);
  const zoom = useEditor(editor, (s) => s.zoom);
  const pan = useEditor(editor, (s) => s.pan);
  const stepIndex = useEditor(editor, (s) => s.stepIndex);
  const steps = useEditor(editor, (s) => s.steps);
  const isBoxSelected = useEditor(editor, (s) => s.isBoxSelected);
  const annotation = useEditor(editor, (s) => s.doc.steps[step.id]!);
  const cutAfter = useEditor(editor, (s) => s.doc.trajectory.cutAfter);
  const { image, isError } = useImage(screenshotUrl(step.screenshot.sha256));
  const stageRef = useRef<Konva.Stage>(null);
  const view = viewTransform({ viewport, zoom, pan, steps, stepIndex });
  const s = view.scale || 1;

  const modelShapes = useMemo(() => overlayFor({ toolCall: step.original.toolCall, box: null, candidateBoxes: [] }), [step.original.toolCall]);
  const correctedShapes = useMemo(() => overlayFor({ toolCall: annotation.toolCall, box: null, candidateBoxes: [] }), [annotation.toolCall]);
  const isAfterCut = cutAfter !== null && step.index > cutAfter;

  useEffect(() => {
    editor.set({ isImageLoaded: Boolean(image) });
    if (!image) return;
    // Konva draws in the next animation frame; mark the frame after that as painted.
    let raf = requestAnimationFrame(() => {
      raf = requestAnimationFrame(() => {
        window.__studioPaint = { stepIndex: step.index, at: performance.now() };
      });
    });
    return () => cancelAnimationFrame(raf);
  }, [editor, image, step.index]);

  if (viewport.width === 0) return null;

  const pointer = (e: Konva.KonvaEventObject<PointerEvent | WheelEvent>) => {
    const pos = stageRef.current?.getPointerPosition();
    if (!pos) return null;
    const display: Point = [pos.x, pos.y];
    return { image: toImagePoint(editor.get(), display), display, shiftKey: e.evt.shiftKey };
  };

  return (
    <Stage
      ref={stageRef}
      width={viewport.width}
      height={viewport.height}
      className="konva-stage"
      onPointerDown={(e) => {
        if (e.evt.button !== 0) return;
        const p = pointer(e);
        if (!p) return;
        (e.evt.target as Element).setPointerCapture?.(e.evt.pointerId);
        editor.pointerDown(p);
      }}
      onPointerMove={(e) => {
        const p = pointer(e);
        if (p) editor.pointerMove(p);
      }}
      onPointerUp={(e) => {
        const p = pointer(e);
        if (p) editor.pointerUp(p);
      }}
      onWheel={(e) => {
        e.evt.preventDefault();
        const p = pointer(e);
        if (p) editor.zoomBy(e.evt.deltaY < 0 ? 1.1 : 1 / 1.1, p.display);
      }}
    >
      <Layer listening={false}>
        <Group x={view.x} y={view.y} scaleX={s} scaleY={s}>
          {image ? (
            <KonvaImage image={image} width={step.screenshot.width} height={step.screenshot.height} opacity={isAfterCut ? 0.45 : 1} />
          ) : (
            <>
              <Rect width={step.screenshot.width} height={step.screenshot.height} fill="#dfe3e8" />
              <Text width={step.screenshot.width} y={step.screenshot.height / 2} align="center" fontSize={14 / s} text={isError ? "Screenshot unavailable" : "Loading screenshot…"} fill="#5f6b7a" />
            </>
          )}
        </Group>
      </Layer>
      <Layer listening={false}>
        <Group x={view.x} y={view.y} scaleX={s} scaleY={s}>
          {step.candidateBoxes.map((b, i) => (
            <BoxShape key={i} box={b} color={CANDIDATE} dash={[6, 4]} />
          ))}
          {modelShapes.map((shape, i) => (
            <ShapeView key={`m${i}`} shape={shape} s={s} color={MODEL} isGhost tag="model" />
          ))}
          {annotation.box && <BoxShape box={annotation.box} color={TARGET} fill="rgba(24,195,126,0.12)" />}
          {correctedShapes.map((shape, i) => (
            <ShapeView key={`c${i}`} shape={shape} s={s} color={CORRECTED} />
          ))}
          {annotation.box && isBoxSelected && <Handles box={annotation.box} s={s} />}
        </Group>
      </Layer>
    </Stage>
  );
}

function BoxShape({ box: [x1, y1, x2, y2], color, dash, fill }: { box: Box; color: string; dash?: number[]; fill?: string }) {
  return <Rect x={x1} y={y1} width={x2 - x1} height={y2 - y1} stroke={color} strokeWidth={2} strokeScaleEnabled={false} dash={dash} fill={fill} />;
}

function Handles({ box: [x1, y1, x2, y2], s }: { box: Box; s: number }) {
  const mx = (x1 + x2) / 2;
  const my = (y1 + y2) / 2;
  const at: Record<(typeof HANDLES)[number], Point> = { nw: [x1, y1], n: [mx, y1], ne: [x2, y1], e: [x2, my], se: [x2, y2], s: [mx, y2], sw: [x1, y2], w: [x1, my] };
  const size = 8 / s;
  return (
    <>
      {HANDLES.map((h) => (
        <Rect key={h} x={at[h][0] - size / 2} y={at[h][1] - size / 2} width={size} height={size} fill="#fff" stroke={TARGET} strokeWidth={1.5} strokeScaleEnabled={false} />
      ))}
    </>
  );
}

/** One action shape in original pixels; sizes are divided by the scale so they look the same at any zoom. */
function ShapeView({ shape, s, color, isGhost, tag }: { shape: OverlayShape; s: number; color: string; isGhost?: boolean; tag?: string }) {
  const dash = isGhost ? [5, 4] : undefined;
  const r = (px: number) => px / s;
  switch (shape.kind) {
    case "tap":
    case "long_press": {
      const [x, y] = shape.at;
      return (
        <Group x={x} y={y} opacity={isGhost ? 0.9 : 1}>
          <Circle radius={r(16)} stroke="#fff" strokeWidth={5} strokeScaleEnabled={false} />
          <Circle radius={r(16)} stroke={color} strokeWidth={isGhost ? 2 : 3} strokeScaleEnabled={false} dash={dash} fill={isGhost ? undefined : "rgba(255,59,107,0.18)"} />
          {shape.kind === "long_press" && <Circle radius={r(23)} stroke={color} strokeWidth={2} strokeScaleEnabled={false} dash={dash} />}
          {!isGhost && (
            <>
              <Line points={[r(-24), 0, r(-6), 0]} stroke={color} strokeWidth={2} strokeScaleEnabled={false} />
              <Line points={[r(6), 0, r(24), 0]} stroke={color} strokeWidth={2} strokeScaleEnabled={false} />
              <Line points={[0, r(-24), 0, r(-6)]} stroke={color} strokeWidth={2} strokeScaleEnabled={false} />
              <Line points={[0, r(6), 0, r(24)]} stroke={color} strokeWidth={2} strokeScaleEnabled={false} />
            </>
          )}
          <Circle radius={r(2.5)} fill={color} />
          {tag && <Banner x={r(18)} y={r(-30)} text={tag} color={color} s={s} small />}
        </Group>
      );
    }
    case "swipe": {
      const [x1, y1] = shape.from;
      const [x2, y2] = shape.to;
      return (
        <Group opacity={isGhost ? 0.9 : 1}>
          {!isGhost && <Arrow points={[x1, y1, x2, y2]} stroke="#fff" strokeWidth={7} strokeScaleEnabled={false} pointerLength={r(14)} pointerWidth={r(16)} fill="#fff" />}
          <Arrow points={[x1, y1, x2, y2]} stroke={color} strokeWidth={isGhost ? 2 : 4} strokeScaleEnabled={false} dash={dash} pointerLength={r(12)} pointerWidth={r(13)} fill={color} />
          <Circle x={x1} y={y1} radius={r(6)} fill={color} stroke="#fff" strokeWidth={2} strokeScaleEnabled={false} />
          {tag && <Banner x={x1 + r(10)} y={y1 + r(8)} text={tag} color={color} s={s} small />}
        </Group>
      );
    }
    case "label":
    case "badge": {
      const text = shape.kind === "label" ? `${shape.action}: ${shape.text || "(empty)"}` : `${shape.action.replace("_", " ")}: ${shape.text}`;
      return <Banner x={r(12)} y={r(isGhost ? 52 : 12)} text={isGhost ? `model · ${text}` : text} color={isGhost ? MODEL : "#1b1f24"} s={s} />;
    }
    case "target_box":
    case "candidate_box":
      return null;
  }
}

function Banner({ x, y, text, color, s, small }: { x: number; y: number; text: string; color: string; s: number; small?: boolean }) {
  return (
    <Label x={x} y={y} opacity={0.94} scaleX={1 / s} scaleY={1 / s}>
      <Tag fill={color} cornerRadius={5} />
      <Text text={text} fill="#fff" fontSize={small ? 11 : 13} fontStyle="bold" padding={small ? 4 : 7} fontFamily={FONT} />
    </Label>
  );
}
