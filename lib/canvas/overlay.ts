import type { Box, Point } from "@/lib/domain/geometry";
import { assertNever, type StepToolCall } from "@/lib/domain/tool-call";

/** One thing drawn over a screenshot. Every coordinate is in ORIGINAL screenshot pixels. */
export type OverlayShape =
  | { kind: "tap"; at: Point }
  | { kind: "long_press"; at: Point; seconds: number }
  | { kind: "swipe"; from: Point; to: Point }
  | { kind: "target_box"; box: Box }
  | { kind: "candidate_box"; box: Box }
  | { kind: "label"; action: "type" | "key" | "open" | "answer"; text: string }
  | { kind: "badge"; action: "system_button" | "terminate" | "wait"; text: string };

export type OverlayInput = { toolCall: StepToolCall; box: Box | null; candidateBoxes: Box[] };

/** The shapes that show a step's action: boxes first (underneath), then the gesture, then labels. */
export function overlayFor(step: OverlayInput): OverlayShape[] {
  const shapes: OverlayShape[] = step.candidateBoxes
    .filter((b) => !step.box || !sameBox(b, step.box))
    .map((box) => ({ kind: "candidate_box", box }));
  if (step.box) shapes.push({ kind: "target_box", box: step.box });
  const call = step.toolCall;
  switch (call.action) {
    // A tap the model made without a point draws nothing: the editor names it instead.
    case "click":
      if (call.coordinate) shapes.push({ kind: "tap", at: call.coordinate });
      break;
    case "long_press":
      if (call.coordinate) shapes.push({ kind: "long_press", at: call.coordinate, seconds: call.time });
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

/**
 * The one palette of the step canvas (viewer, editor, review, and the legend's swatches): the
 * model's output is violet and dashed, the person's correction is pink and solid, the other
 * acceptable boxes are grey and dotted, a model suggestion not yet accepted is cyan and dotted, and an evaluation
 * run's failed prediction (the model's wrong action, never to be accepted) is red and long-dashed.
 */
export const CANVAS_COLOURS = {
  model: "#7c5cff",
  corrected: "#e6206a",
  suggested: "#0891b2",
  failedPrediction: "#dc2626",
  candidate: "#6b7280",
  halo: "#ffffff",
} as const;

/** Gestures are drawn on the screenshot; every other action is told in the legend, never over the image. */
export type GestureShape = Extract<OverlayShape, { kind: "tap" | "long_press" | "swipe" }>;

export function gestureOf(call: StepToolCall): GestureShape | null {
  const [shape] = overlayFor({ toolCall: call, box: null, candidateBoxes: [] });
  return shape && (shape.kind === "tap" || shape.kind === "long_press" || shape.kind === "swipe") ? shape : null;
}

/** What the canvas draws for one step, in ORIGINAL screenshot pixels. */
export type StepMarks = {
  model: GestureShape | null;
  corrected: GestureShape | null;
  /** Boxes that came with the import (the model's target and its acceptable candidates). */
  importedBoxes: Box[];
  /** The box as the annotator left it. */
  correctedBox: Box | null;
  /** A model suggestion shown before it is accepted (never part of the step until then). */
  suggested: GestureShape | null;
  /** An evaluation run's failing answer on this step: the model's wrong action, shown as evidence. */
  failedPrediction: GestureShape | null;
};

export function stepMarks(input: {
  original: StepToolCall;
  corrected: StepToolCall;
  importedBoxes: Box[];
  correctedBox: Box | null;
  /** The suggested action, original pixels; none when nothing is suggested. */
  suggested?: StepToolCall | null;
  /** An evaluation run's failed prediction, original pixels; none when there is none. */
  failedPrediction?: StepToolCall | null;
}): StepMarks {
  const imported: Box[] = [];
  for (const b of input.importedBoxes) if (!imported.some((x) => sameBox(x, b))) imported.push(b);
  return {
    model: gestureOf(input.original),
    corrected: gestureOf(input.corrected),
    importedBoxes: imported,
    correctedBox: input.correctedBox,
    suggested: input.suggested ? gestureOf(input.suggested) : null,
    failedPrediction: input.failedPrediction ? gestureOf(input.failedPrediction) : null,
  };
}

const NO_ELEMENTS: Box[] = [];

/** The boxes of the screen's elements a step was imported with (original pixels); none when it had no element list. */
export function elementBoxesOf(step: { elements?: { bbox: Box }[] }): Box[] {
  return step.elements && step.elements.length > 0 ? step.elements.map((e) => e.bbox) : NO_ELEMENTS;
}

/** The boxes a step was imported with: the model's target first (when the import recorded it), then the other acceptable ones. */
export function importedBoxesOf(step: { original: { box?: Box }; candidateBoxes: Box[] }): Box[] {
  return step.original.box ? [step.original.box, ...step.candidateBoxes] : step.candidateBoxes;
}
