import { mobileR1Reward, uiS1Reward, type GroundTruth } from "@/lib/domain/rewards";
import type { StepAnnotation } from "@/lib/domain/annotation";
import { framePair, toResizedPoint, type Box, type Size } from "@/lib/domain/geometry";
import { mobileR1Response } from "@/lib/domain/prompt";
import { mapPoints, pyJsonDumps, toolCallSchema, type StepToolCall } from "@/lib/domain/tool-call";
import type { OriginalOutput } from "@/lib/domain/trajectory";

export type RewardPreview = {
  /** Mobile-R1 action reward of the model's original call against the corrected step: 0 or 1. */
  mobileR1: number;
  /**
   * UI-S1's exact training reward (`--rule ui-s1`, 0.1 x format + 0.9 x action) of the same call written in
   * UI-S1's layout (`<think>…</think><action>{json}</action>`), and its action part.
   */
  uiS1: number;
  uiS1Action: number;
  /** Did the model's point land in the corrected box (tap ground truths only)? */
  hit: boolean | null;
};

/**
 * Would the model's original action have scored against the corrected ground truth? The original
 * call is stored in original pixels; the rules expect the prediction in the model's resized frame
 * (default Qwen2.5-VL max_pixels), so it is converted the way a trainer's rollout would write it.
 * The verdict is left out (GOOD): the preview asks about the action, not the annotation.
 */
export function rewardPreview(
  original: OriginalOutput,
  corrected: StepAnnotation,
  candidateBoxes: Box[],
  size: Size,
): RewardPreview | null {
  const gtCall = toolCallSchema.safeParse(corrected.toolCall);
  if (!gtCall.success) return null;
  const frames = framePair(size);
  const predicted: StepToolCall = mapPoints(original.toolCall, (p) => toResizedPoint(p, frames));
  const response = mobileR1Response(original.thought || "…", original.clearAction || "…", predicted);
  const gt: GroundTruth = {
    gt_action: gtCall.data,
    gt_bbox: corrected.box,
    candidate_bbox: candidateBoxes,
    orig_wh: [size.width, size.height],
    resized_wh: [frames.resized.width, frames.resized.height],
    annotation: "GOOD",
  };
  // UI-S1's reward reads only its own layout; a Mobile-R1 response would score 0 there whatever the action.
  const uiS1Response = `<think>\n${original.thought || "…"}\n</think>\n<action>\n${pyJsonDumps(predicted)}\n</action>`;
  const r1 = mobileR1Reward(response, gt);
  const s1 = uiS1Reward(uiS1Response, gt);
  return { mobileR1: r1.action, uiS1: s1.score, uiS1Action: s1.action, hit: r1.hit };
}
