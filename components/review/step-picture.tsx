import type { StepView } from "@/lib/queries/trajectories";
import { ActionThumb } from "./action-thumb";

/**
 * The review's picture of one step: the screenshot with the model's and the corrected action. The one
 * place the review draws a step, so moving to the shared read-only step canvas is a change here only.
 */
export function StepPicture({ step }: { step: StepView }) {
  return <ActionThumb sha256={step.screenshot.sha256} width={step.screenshot.width} height={step.screenshot.height} original={step.original.toolCall} corrected={step.toolCall} box={step.box} />;
}
