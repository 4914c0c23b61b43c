// The one mapping from a step's annotation to its Step row's columns, used by every write of a person's (or a
// job's) annotation: the annotator's save, the reviewer's fix, adjudication and gold resets. Its reverse, a row
// read as the view every layer uses, is stepFromRow (annotate/trajectories.ts). scripts/shape.test.ts keeps the
// column names (thoughtState, toolCallJson, …) written from an annotation here only.
import type { StepAnnotation } from "@/lib/domain/annotation";

/** The Step columns that hold `a`. */
export function stepAnnotationColumns(a: StepAnnotation) {
  return {
    thoughtState: a.thought.state,
    thoughtNext: a.thought.nextAction,
    thoughtPurpose: a.thought.purpose,
    thought: a.thought.text,
    clearAction: a.clearAction,
    toolCallJson: JSON.stringify(a.toolCall),
    boxJson: a.box ? JSON.stringify(a.box) : null,
    verdict: a.verdict,
  };
}
