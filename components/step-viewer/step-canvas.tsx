"use client";

import { useEffect } from "react";
import { Arrow, Circle, Group, Image as KonvaImage, Label, Layer, Line, Rect, Stage, Tag, Text } from "react-konva";
import type { Point } from "@/lib/domain/geometry";
import type { OverlayShape } from "@/lib/canvas/overlay";
import type { Translate } from "@/lib/i18n";
import { useT } from "@/lib/i18n/react";
import { useImage } from "./use-image";

type Props = {
  imageUrl: string;
  /** Display size of the stage, in CSS pixels. */
  width: number;
  height: number;
  /** Display pixels per original screenshot pixel. */
  scale: number;
  shapes: OverlayShape[];
  onImageLoaded: (isLoaded: boolean) => void;
};

const ACTION = "#ff3b6b";
const TARGET = "#18c37e";
const CANDIDATE = "#f5a524";

/** The screenshot with the step's action over it. A pure view: every shape comes from props, in original pixels. */
export function StepCanvas({ imageUrl, width, height, scale, shapes, onImageLoaded }: Props) {
  // Translated here: react-konva renders the shapes in its own reconciler, so they get `t` as a prop.
  const t = useT();
  const { image, isError } = useImage(imageUrl);
  useEffect(() => onImageLoaded(Boolean(image)), [image, onImageLoaded]);
  const v = ([x, y]: Point): Point => [x * scale, y * scale];

  return (
    <Stage width={width} height={height} className="konva-stage">
      <Layer listening={false}>
        {image ? (
          <KonvaImage image={image} width={width} height={height} />
        ) : (
          <>
            <Rect width={width} height={height} fill="#dfe3e8" />
            <Text width={width} y={height / 2 - 8} align="center" text={isError ? t("viewer.canvas.unavailable") : t("viewer.canvas.loading")} fill="#5f6b7a" />
          </>
        )}
      </Layer>
      <Layer listening={false}>
        {shapes.map((s, i) => (
          <ShapeView key={i} shape={s} v={v} width={width} t={t} />
        ))}
      </Layer>
    </Stage>
  );
}

function ShapeView({ shape, v, width, t }: { shape: OverlayShape; v: (p: Point) => Point; width: number; t: Translate }) {
  switch (shape.kind) {
    case "candidate_box":
    case "target_box": {
      const [x1, y1] = v([shape.box[0], shape.box[1]]);
      const [x2, y2] = v([shape.box[2], shape.box[3]]);
      const isTarget = shape.kind === "target_box";
      return (
        <Rect
          x={x1}
          y={y1}
          width={x2 - x1}
          height={y2 - y1}
          stroke={isTarget ? TARGET : CANDIDATE}
          strokeWidth={2}
          dash={isTarget ? undefined : [6, 4]}
          fill={isTarget ? "rgba(24,195,126,0.10)" : undefined}
        />
      );
    }
    case "tap": {
      const [x, y] = v(shape.at);
      return (
        <Group x={x} y={y}>
          <Circle radius={16} stroke="#fff" strokeWidth={5} />
          <Circle radius={16} stroke={ACTION} strokeWidth={3} fill="rgba(255,59,107,0.18)" />
          <Line points={[-24, 0, -6, 0]} stroke={ACTION} strokeWidth={2} />
          <Line points={[6, 0, 24, 0]} stroke={ACTION} strokeWidth={2} />
          <Line points={[0, -24, 0, -6]} stroke={ACTION} strokeWidth={2} />
          <Line points={[0, 6, 0, 24]} stroke={ACTION} strokeWidth={2} />
          <Circle radius={2} fill={ACTION} />
        </Group>
      );
    }
    case "long_press": {
      const [x, y] = v(shape.at);
      return (
        <Group x={x} y={y}>
          <Circle radius={13} stroke={ACTION} strokeWidth={3} fill="rgba(255,59,107,0.18)" />
          <Circle radius={22} stroke={ACTION} strokeWidth={2} />
          <Circle radius={2} fill={ACTION} />
          <Banner x={28} y={-11} text={t("viewer.canvas.hold", { seconds: shape.seconds })} color={ACTION} />
        </Group>
      );
    }
    case "swipe": {
      const [x1, y1] = v(shape.from);
      const [x2, y2] = v(shape.to);
      return (
        <Group>
          <Arrow points={[x1, y1, x2, y2]} stroke="#fff" strokeWidth={7} pointerLength={14} pointerWidth={16} fill="#fff" />
          <Arrow points={[x1, y1, x2, y2]} stroke={ACTION} strokeWidth={4} pointerLength={12} pointerWidth={13} fill={ACTION} />
          <Circle x={x1} y={y1} radius={7} fill={ACTION} stroke="#fff" strokeWidth={2} />
        </Group>
      );
    }
    case "label": {
      const text = `${shape.action}: ${shape.text || t("viewer.canvas.empty")}`;
      return <Banner x={12} y={12} text={text} color="#1b1f24" maxWidth={width - 24} />;
    }
    case "badge":
      return <Banner x={12} y={12} text={`${shape.action.replace("_", " ")}: ${shape.text}`} color={shape.action === "terminate" ? "#6d28d9" : "#1b1f24"} />;
  }
}

function Banner({ x, y, text, color, maxWidth }: { x: number; y: number; text: string; color: string; maxWidth?: number }) {
  return (
    <Label x={x} y={y} opacity={0.94}>
      <Tag fill={color} cornerRadius={6} shadowColor="black" shadowBlur={6} shadowOpacity={0.25} />
      <Text text={text} fill="#fff" fontSize={14} fontStyle="bold" padding={8} width={maxWidth} wrap="word" fontFamily='system-ui, "PingFang SC", "Noto Sans CJK SC", sans-serif' />
    </Label>
  );
}
