"use client";

import { Arrow, Circle, Group, Image as KonvaImage, Line, Rect, Text } from "react-konva";
import { HANDLES } from "@/lib/canvas/editor";
import { CANVAS_COLOURS, type GestureShape, type StepMarks } from "@/lib/canvas/overlay";
import type { Layers, Transform } from "@/lib/canvas/view";
import type { Box, Point } from "@/lib/domain/geometry";
import type { StageImage } from "./konva-stage";

// What the Konva stage draws, one group per layer, in ORIGINAL screenshot pixels inside the view's
// transform (see KonvaStage). Node names are what browser tests read through Konva.stages.

/** The screenshot, or a grey placeholder saying it is loading or unavailable. */
export function ScreenshotGroup({
  t,
  s,
  size,
  image,
  isDimmed,
  text,
}: {
  t: Transform;
  s: number;
  size: { width: number; height: number };
  image: StageImage;
  isDimmed: boolean | undefined;
  text: { loading: string; unavailable: string };
}) {
  return (
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
  );
}

/** The marks over the screenshot, each drawn only while its layer is shown. */
export function MarksGroup({
  t,
  s,
  layers,
  marks,
  elementBoxes,
  hover,
  isHandlesShown,
}: {
  t: Transform;
  s: number;
  layers: Layers;
  marks: StepMarks;
  elementBoxes: Box[];
  hover: Box | null;
  /** Edit mode with the box selected: its handles show. */
  isHandlesShown: boolean;
}) {
  return (
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
        <BoxShape name="corrected-box" box={marks.correctedBox} color={CANVAS_COLOURS.corrected} />
      )}
      {layers.model && marks.model && <Gesture who="model" shape={marks.model} s={s} />}
      {layers.corrected && marks.corrected && <Gesture who="corrected" shape={marks.corrected} s={s} />}
      {/* On top: the suggestion is what the person is deciding about right now. */}
      {marks.suggested && <Gesture who="suggested" shape={marks.suggested} s={s} />}
      {marks.failedPrediction && <Gesture who="failed-prediction" shape={marks.failedPrediction} s={s} />}
      {isHandlesShown && layers.correctedBox && marks.correctedBox && <Handles box={marks.correctedBox} s={s} />}
    </Group>
  );
}

/**
 * A box with a white halo under its coloured line, so it reads on light and dark screens alike. Outline
 * only: a fill would tint (and at small sizes hide) the element the person is trying to see.
 */
function BoxShape({ name, box: [x1, y1, x2, y2], color, dash }: { name: string; box: Box; color: string; dash?: number[] }) {
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
      />
    </>
  );
}

/**
 * The box's eight handles, hollow: a handle sits on the box's edge, which is where a small target's own
 * edge is, so a filled square would cover it. Grabbing is hit-tested in lib/canvas/tools.ts, not on these nodes.
 */
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
          stroke={CANVAS_COLOURS.corrected}
          strokeWidth={1.5}
          strokeScaleEnabled={false}
        />
      ))}
    </>
  );
}

/**
 * One action, outline only (issue 36: a filled mark hid targets smaller than itself; a fade on hover
 * would still hide them whenever the pointer is elsewhere, as it is while a person reads the screen):
 * the model's as a larger dashed violet ring, the correction as a smaller solid pink ring with a crosshair, so both stay visible when they coincide; a suggestion not yet accepted as
 * the largest dotted cyan ring, and an evaluation run's failed prediction as the largest long-dashed red ring (the
 * model's wrong answer, never the person's). Sizes are stage pixels / scale.
 */
function Gesture({ who, shape, s }: { who: "model" | "corrected" | "suggested" | "failed-prediction"; shape: GestureShape; s: number }) {
  const isFailed = who === "failed-prediction";
  const isSuggested = who === "suggested" || isFailed;
  // The suggestion is drawn as an outline like the model's (it is the model's, not yet the person's).
  const isModel = who === "model" || isSuggested;
  const color = isFailed
    ? CANVAS_COLOURS.failedPrediction
    : isSuggested
      ? CANVAS_COLOURS.suggested
      : isModel
        ? CANVAS_COLOURS.model
        : CANVAS_COLOURS.corrected;
  const dash = isFailed ? [9, 5] : isSuggested ? [2, 3] : isModel ? [5, 4] : undefined;
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
          <Circle name="ring" radius={r(radius)} stroke={color} strokeWidth={isModel ? 2.5 : 3} strokeScaleEnabled={false} dash={dash} />
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
          {/* The exact point, as a hair-thin ring: the pixel under it stays visible. */}
          <Circle name="point" radius={r(2.5)} stroke={color} strokeWidth={1} strokeScaleEnabled={false} />
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
          <Circle x={x1} y={y1} radius={r(6)} stroke={color} strokeWidth={2} strokeScaleEnabled={false} />
        </Group>
      );
    }
  }
}
