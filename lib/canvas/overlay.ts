import type { Box, Point } from "@/lib/domain/geometry";
import { assertNever, type ToolCall } from "@/lib/domain/tool-call";

/** One thing drawn over a screenshot. Every coordinate is in ORIGINAL screenshot pixels. */
export type OverlayShape =
  | { kind: "tap"; at: Point }
  | { kind: "long_press"; at: Point; seconds: number }
  | { kind: "swipe"; from: Point; to: Point }
  | { kind: "target_box"; box: Box }
  | { kind: "candidate_box"; box: Box }
  | { kind: "label"; action: "type" | "key" | "open" | "answer"; text: string }
  | { kind: "badge"; action: "system_button" | "terminate" | "wait"; text: string };

export type OverlayInput = { toolCall: ToolCall; box: Box | null; candidateBoxes: Box[] };

/** The shapes that show a step's action: boxes first (underneath), then the gesture, then labels. */
export function overlayFor(step: OverlayInput): OverlayShape[] {
  const shapes: OverlayShape[] = step.candidateBoxes
    .filter((b) => !step.box || !sameBox(b, step.box))
    .map((box) => ({ kind: "candidate_box", box }));
  if (step.box) shapes.push({ kind: "target_box", box: step.box });
  const call = step.toolCall;
  switch (call.action) {
    case "click":
      shapes.push({ kind: "tap", at: call.coordinate });
      break;
    case "long_press":
      shapes.push({ kind: "long_press", at: call.coordinate, seconds: call.time });
      break;
    case "swipe":
      shapes.push({ kind: "swipe", from: call.coordinate, to: call.coordinate2 });
      break;
    case "type":
    case "key":
    case "open":
    case "answer":
      shapes.push({ kind: "label", action: call.action, text: call.text });
      break;
    case "system_button":
      shapes.push({ kind: "badge", action: "system_button", text: call.button });
      break;
    case "terminate":
      shapes.push({ kind: "badge", action: "terminate", text: call.status });
      break;
    case "wait":
      shapes.push({ kind: "badge", action: "wait", text: `${call.time}s` });
      break;
    default:
      assertNever(call);
  }
  return shapes;
}

function sameBox(a: Box, b: Box): boolean {
  return a.every((v, i) => Math.abs(v - b[i]!) < 0.5);
}

/** Scale that fits an image of `size` original pixels inside `space` display pixels (never above 1 display px per px). */
export function fitScale(size: { width: number; height: number }, space: { width: number; height: number }): number {
  if (size.width <= 0 || size.height <= 0 || space.width <= 0 || space.height <= 0) return 0;
  return Math.min(space.width / size.width, space.height / size.height, 1);
}
