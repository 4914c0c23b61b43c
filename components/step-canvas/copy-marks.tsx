"use client";

import { Arrow, Circle, Group, Rect } from "react-konva";
import type { GestureShape } from "@/lib/canvas/overlay";
import type { Transform } from "@/lib/canvas/view";
import type { Box } from "@/lib/domain/geometry";

/**
 * One person's action drawn in a colour of the page's choosing (adjudication: one per overlap copy),
 * in ORIGINAL screenshot pixels. A page passes these to the step canvas (`copyMarks`); they are drawn
 * in a layer of their own above the canvas's marks, whose styling they leave alone.
 */
export type CopyMark = {
  /** Which copy, 1-based: read by browser tests (`copy` attribute) and used to tell coinciding marks apart. */
  n: number;
  color: string;
  /** Outline dash of the ring, arrow and box (so copies differ by more than colour); none is solid. */
  dash?: number[];
  gesture: GestureShape | null;
  box: Box | null;
};

/**
 * The copies' marks: a box outline, and a ring (tap, long press) or arrow (swipe). Rings grow with the
 * copy's number so taps at the same point stay visible as concentric rings. Node names
 * `copy-action` and `copy-box` carry the copy's number.
 */
export function CopyMarksGroup({ t, s, marks }: { t: Transform; s: number; marks: CopyMark[] }) {
  const r = (px: number) => px / s;
  return (
    <Group name="copy-marks" x={t.x} y={t.y} scaleX={s} scaleY={s}>
      {marks.map((m) =>
        m.box ? (
          <Group key={`b${m.n}`}>
            <Rect
              x={m.box[0]}
              y={m.box[1]}
              width={m.box[2] - m.box[0]}
              height={m.box[3] - m.box[1]}
              stroke="#ffffff"
              strokeWidth={5}
              strokeScaleEnabled={false}
              opacity={0.7}
            />
            <Rect
              name="copy-box"
              copy={m.n}
              x={m.box[0]}
              y={m.box[1]}
              width={m.box[2] - m.box[0]}
              height={m.box[3] - m.box[1]}
              stroke={m.color}
              strokeWidth={2.5}
              strokeScaleEnabled={false}
              dash={m.dash}
            />
          </Group>
        ) : null,
      )}
      {marks.map((m) => {
        const g = m.gesture;
        if (!g) return null;
        if (g.kind === "swipe")
          return (
            <Group key={`g${m.n}`} name="copy-action" copy={m.n} gesture="swipe">
              <Arrow
                points={[...g.from, ...g.to]}
                stroke="#ffffff"
                strokeWidth={7}
                strokeScaleEnabled={false}
                pointerLength={r(14)}
                pointerWidth={r(16)}
                fill="#ffffff"
                opacity={0.8}
              />
              <Arrow
                points={[...g.from, ...g.to]}
                stroke={m.color}
                strokeWidth={3.5}
                strokeScaleEnabled={false}
                dash={m.dash}
                pointerLength={r(12)}
                pointerWidth={r(13)}
                fill={m.color}
              />
              <Circle
                x={g.from[0]}
                y={g.from[1]}
                radius={r(6)}
                fill={m.color}
                stroke="#ffffff"
                strokeWidth={2}
                strokeScaleEnabled={false}
              />
            </Group>
          );
        const radius = 10 + 6 * m.n;
        return (
          <Group key={`g${m.n}`} name="copy-action" copy={m.n} gesture={g.kind} x={g.at[0]} y={g.at[1]}>
            <Circle radius={r(radius)} stroke="#ffffff" strokeWidth={6} strokeScaleEnabled={false} opacity={0.8} />
            <Circle radius={r(radius)} stroke={m.color} strokeWidth={3} strokeScaleEnabled={false} dash={m.dash} />
            {g.kind === "long_press" && <Circle radius={r(radius + 5)} stroke={m.color} strokeWidth={1.5} strokeScaleEnabled={false} />}
            <Circle radius={r(3)} fill={m.color} stroke="#ffffff" strokeWidth={1} strokeScaleEnabled={false} />
          </Group>
        );
      })}
    </Group>
  );
}
