"use client";

import { useMemo } from "react";
import { rewardPreview } from "@/lib/canvas/reward-preview";
import { stepProblems, type StepProblem } from "@/lib/domain/annotation";
import { composeThought } from "@/lib/domain/thought";
import { useT } from "@/lib/i18n/react";
import { annotationOf } from "@/lib/domain/annotation";
import type { StepView } from "@/lib/domain/views";
import { usePersonSetting } from "@/components/ui/person-settings";
import { useEditorContext } from "./editor-context";
import {
  ClearActionSection,
  FormTitle,
  ModelOutputSection,
  RewardSection,
  ThoughtSection,
  ToolCallSection,
  VerdictSection,
} from "./step-form-sections";
import { useCurrentAnnotation, useEditor } from "./use-editor";

/** The editor and its registry come from the page's EditorProvider. */
type Props = {
  step: StepView;
  /** The person pressed Submit: every open problem shows, "choose a verdict" included. */
  isSubmitAttempted: boolean;
};

/**
 * Which of a step's problems to show. "Choose a verdict" waits until the person has worked on the
 * step (it differs from what was loaded, or was saved before) or tried to submit. Steps after the
 * cut are not trained on and block nothing: no verdict needed, the rest shown as warnings.
 */
export function shownProblems(
  all: StepProblem[],
  opts: { isAfterCut: boolean; isTouched: boolean; isSubmitAttempted: boolean },
): StepProblem[] {
  return all
    .filter((p) => p.code !== "verdict.unset" || (!opts.isAfterCut && (opts.isTouched || opts.isSubmitAttempted)))
    .map((p) => (opts.isAfterCut ? { ...p, isBlocking: false } : p));
}

export { THOUGHT_STATE_ID } from "./step-form-sections";

export function StepForm({ step, isSubmitAttempted }: Props) {
  const t = useT();
  const { editor, shortcuts } = useEditorContext();
  // A review fix corrects steps only: where the trajectory is cut is the annotator's (and not a step fix).
  const isReviewFix = useEditor(editor, (s) => s.mode === "review-fix");
  const a = useCurrentAnnotation(editor);
  const isReadOnly = useEditor(editor, (s) => s.isReadOnly);
  const cutAfter = useEditor(editor, (s) => s.doc.trajectory.cutAfter);
  const stepCount = useEditor(editor, (s) => s.steps.length);
  const loaded = useEditor(editor, (s) => s.server[step.id]);
  const [isAdvancing, setAdvancing] = usePersonSetting("verdictAdvances", false);
  const isAfterCut = cutAfter !== null && step.index > cutAfter;
  const isTouched =
    step.version > 1 || (loaded !== undefined && loaded.version > step.version) || JSON.stringify(a) !== JSON.stringify(annotationOf(step));
  const problems = useMemo(
    () => shownProblems(stepProblems(a, step.screenshot), { isAfterCut, isTouched, isSubmitAttempted }),
    [a, step.screenshot, isAfterCut, isTouched, isSubmitAttempted],
  );
  const preview = useMemo(() => rewardPreview(step.original, a, step.candidateBoxes, step.screenshot), [a, step]);
  const isComposed = a.thought.text === composeThought(a.thought);
  const isCutHere = cutAfter === step.index;
  const of = (field: string) => problems.filter((p) => p.field === field || p.field.startsWith(`${field}.`));

  return (
    <aside className="step-form" aria-label={t("editor.stepDetails")}>
      <fieldset disabled={isReadOnly} className="form-body">
        <FormTitle
          editor={editor}
          shortcuts={shortcuts}
          step={step}
          stepCount={stepCount}
          isAfterCut={isAfterCut}
          isCutHere={isCutHere}
          isReviewFix={isReviewFix}
        />
        <VerdictSection
          editor={editor}
          shortcuts={shortcuts}
          verdict={a.verdict}
          isAdvancing={isAdvancing}
          onAdvancingChange={setAdvancing}
          problems={of("verdict")}
        />
        <ThoughtSection editor={editor} shortcuts={shortcuts} thought={a.thought} isComposed={isComposed} of={of} />
        <ClearActionSection editor={editor} clearAction={a.clearAction} problems={of("clearAction")} />
        <ToolCallSection editor={editor} annotation={a} size={step.screenshot} of={of} />
        <ModelOutputSection original={step.original} />
        <RewardSection preview={preview} />
      </fieldset>
    </aside>
  );
}
