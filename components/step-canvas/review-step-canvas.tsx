"use client";

import { useState } from "react";
import { importedBoxesOf } from "@/lib/canvas/overlay";
import { createView, type View } from "@/lib/canvas/view";
import type { StepView } from "@/lib/domain/views";
import { StepCanvas, type ZoomHints } from "./step-canvas";

/**
 * The step canvas as review shows it: read-only, with its own zoom (Ctrl+wheel at the pointer, so a
 * plain wheel still scrolls the page; 100 % loads the full-resolution original), the model's and the
 * corrected action and both boxes, each toggled in the legend. Drop it where a step is reviewed:
 *
 *   <ReviewStepCanvas step={step} isExcluded={isExcluded} />
 */
export function ReviewStepCanvas({
  step,
  isExcluded,
  height = 520,
  view: given,
  hints,
}: {
  step: StepView;
  isExcluded?: boolean;
  height?: number;
  view?: View;
  /** The zoom buttons' key hints, when the page's registry drives `view` (zoomHints from lib/canvas/view-shortcuts). */
  hints?: ZoomHints;
}) {
  // Pass `view` to drive it from the page's key registry too (viewShortcuts(view) from lib/canvas/view-shortcuts).
  const [own] = useState(() => createView());
  const view = given ?? own;
  return (
    <div className="review-step-canvas" style={{ height }} data-step={step.index + 1}>
      <StepCanvas
        view={view}
        stepKey={step.id}
        screenshot={step.screenshot}
        model={step.original.toolCall}
        corrected={step.toolCall}
        importedBoxes={importedBoxesOf(step)}
        correctedBox={step.box}
        isDimmed={isExcluded}
        isWheelZoomWithModifier
        hints={hints}
      />
    </div>
  );
}
