// `bridge sft --prompt source`: rows in each trajectory's own dialect, as the Mobile-R1 release
// trains (its own `system` per trajectory, its own response layout), instead of the Qwen cookbook's.
import {
  isUnchangedStep,
  renderResponse,
  sameJson,
  stepDialect,
  STUDIO_DIALECT,
  trajectoryDialect,
  type ResponseDialect,
} from "@/lib/domain/dialect";
import { normalizeAction } from "@/lib/domain/normalize";
import type { CanonicalTrajectory } from "@/lib/domain/trajectory";
import { IMAGE_TAG, type ChatMessage, type StepSample } from "./samples";

/** Which prompt SFT rows carry: the cookbook's `mobile_use` prompt (default), or each trajectory's own. */
export const SFT_PROMPTS = ["cookbook", "source"] as const;
export type SftPrompt = (typeof SFT_PROMPTS)[number];

const dialects = new WeakMap<CanonicalTrajectory, ResponseDialect>();
function dialectOf(t: CanonicalTrajectory): ResponseDialect {
  let d = dialects.get(t);
  if (!d) {
    d = trajectoryDialect(
      t.steps.map((s) => s.original),
      STUDIO_DIALECT,
    );
    dialects.set(t, d);
  }
  return d;
}

/**
 * The prompt and answer of one sample under `--prompt source`: the trajectory's own system prompt
 * verbatim, the same user turn as the cookbook rows (instruction, earlier calls, screenshot), and the
 * answer in the trajectory's response layout with the call as the model writes it (`sample.modelCall`:
 * the trainer's resized frame, or the `--coords` convention). An unchanged step whose imported call
 * needs no conversion (the frame equals the source's, or the call has no point) answers with its
 * imported response byte for byte. A trajectory without a system prompt of its own is a problem for
 * each of its rows.
 */
export function sourcePromptRow(sample: StepSample): { ok: true; prompt: ChatMessage[]; answer: string } | { ok: false; message: string } {
  const t = sample.trajectory;
  if (!t.systemPrompt) {
    return { ok: false, message: "the trajectory has no system prompt of its own (--prompt source); use --prompt cookbook for it" };
  }
  const step = sample.step;
  const thought = step.thought.text.trim();
  const clearAction = step.clearAction.trim();
  if (thought === "") return { ok: false, message: "thought.text is empty" };
  if (clearAction === "") return { ok: false, message: "clearAction is empty" };
  const prompt: ChatMessage[] = [
    { role: "system", content: t.systemPrompt },
    { role: "user", content: `${sample.userText}${IMAGE_TAG}` },
  ];
  const imported = step.original.response;
  if (imported !== undefined && isUnchangedStep(step) && step.original.rawAction !== undefined) {
    const call = normalizeAction(step.original.rawAction);
    if (call.ok && sameJson(call.call, sample.modelCall)) return { ok: true, prompt, answer: imported };
  }
  return {
    ok: true,
    prompt,
    answer: renderResponse(stepDialect(step.original, dialectOf(t)), {
      thought: step.thought.text,
      clearAction: step.clearAction,
      call: sample.modelCall,
    }),
  };
}
