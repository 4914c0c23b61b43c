import { ReviewStepCanvas } from "@/components/step-canvas/review-step-canvas";
import type { ZoomHints } from "@/components/step-canvas/step-canvas";
import type { View } from "@/lib/canvas/view";
import type { StepView } from "@/lib/domain/views";

/**
 * The review's picture of one step: the shared read-only step canvas (both actions and both boxes,
 * legend, zoom to full resolution), tall enough to read a phone screen on a laptop. Opening a step gives
 * its canvas more room.
 */
export function StepPicture({
  step,
  isExcluded,
  isOpen,
  view,
  hints,
}: {
  step: StepView;
  isExcluded: boolean;
  isOpen: boolean;
  view?: View;
  hints?: ZoomHints;
}) {
  return <ReviewStepCanvas step={step} isExcluded={isExcluded} height={isOpen ? 980 : 720} view={view} hints={hints} />;
}
