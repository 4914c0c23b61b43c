import type { ScreenElement } from "@/lib/domain/elements";
import { isPointInBox, type Box, type Point } from "@/lib/domain/geometry";

/**
 * The boxes the box tool snaps to on a step, in ORIGINAL screenshot pixels: the screen's elements when
 * the step came with any (a studio-format `elements` list), else its candidate boxes (UI-S1
 * `candidate_bbox`, the accessibility tree's boxes). A box listed twice counts once.
 */
export function snapTargetsOf(step: { elements?: readonly ScreenElement[]; candidateBoxes: Box[] }): Box[] {
  const boxes = step.elements && step.elements.length > 0 ? step.elements.map((e) => e.bbox) : step.candidateBoxes;
  const out: Box[] = [];
  for (const b of boxes) if (!out.some((x) => isSameBox(x, b))) out.push(b);
  return out;
}

/**
 * The targets that contain `point` (borders included), innermost first: by area, smallest first, so
 * an element comes before the ones enclosing it (its parents in the accessibility tree). Both in
 * original pixels; equal areas keep the list's order.
 */
export function targetsAt(targets: readonly Box[], point: Point): Box[] {
  return targets
    .filter((b) => isPointInBox(point, b))
    .map((b, i) => ({ b, i, area: (b[2] - b[0]) * (b[3] - b[1]) }))
    .sort((x, y) => x.area - y.area || x.i - y.i)
    .map((x) => x.b);
}

/**
 * The next target of `stack` (innermost first) from `current`: `dir` 1 is the enclosing one (the
 * parent), -1 the one inside it; past either end it wraps round. When `current` is none of them (the
 * box was drawn or moved by hand) it goes to the first larger (1) or smaller (-1) one by area, else
 * wraps to the innermost or outermost. Null when the stack is empty.
 */
export function cycleTarget(stack: readonly Box[], current: Box | null, dir: 1 | -1): Box | null {
  const n = stack.length;
  if (n === 0) return null;
  const k = current ? stack.findIndex((b) => isSameBox(b, current)) : -1;
  if (k >= 0) return stack[(k + dir + n) % n]!;
  if (!current) return dir === 1 ? stack[0]! : stack[n - 1]!;
  const area = (b: Box) => (b[2] - b[0]) * (b[3] - b[1]);
  const a = area(current);
  if (dir === 1) return stack.find((b) => area(b) > a) ?? stack[0]!;
  return [...stack].reverse().find((b) => area(b) < a) ?? stack[n - 1]!;
}

/** Two boxes within half a pixel of each other on every side (stored boxes are whole or imported pixels). */
export function isSameBox(a: Box, b: Box): boolean {
  return a.every((v, i) => Math.abs(v - b[i]!) < 0.5);
}
