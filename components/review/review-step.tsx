"use client";

import { useQueryClient, useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorBox } from "@/components/ui/states";
import type { CommentView, StepChange } from "@/lib/domain/review";
import { describeToolCall, pyJsonDumps } from "@/lib/domain/tool-call";
import type { StepView } from "@/lib/domain/views";
import type { View } from "@/lib/canvas/view";
import type { ZoomHints } from "@/components/step-canvas/step-canvas";
import { postComment, reviewKeys } from "@/lib/queries/review";
import type { useT } from "@/lib/i18n/react";
import { usePersonSetting } from "@/components/ui/person-settings";
import { CanvasPane } from "@/components/editor/canvas-pane";
import { StepForm } from "@/components/editor/step-form";
import { CommentThread } from "./comment-thread";
import { commentInputId } from "./review-ids";
import { StepPicture } from "./step-picture";
import { StepVerdict } from "./step-verdict";
import { TextDiff } from "./text-diff";

type T = ReturnType<typeof useT>;

type StepProps = {
  step: StepView;
  isExcluded: boolean;
  /** Fast-lane work: this is the step it marked as the model's first error. */
  isFirstError: boolean;
  isOpen: boolean;
  onToggleOpen: () => void;
  changes: StepChange[];
  isChangedSince: boolean;
  comments: CommentView[];
  trajectoryId: string;
  view: View;
  zoomKeys: ZoomHints;
  stepCount: number;
  /** The reviewer changed this step: it goes with the decision as a fix. */
  isFixed: boolean;
  /** The editor is open on this step. */
  isFixing: boolean;
  canFix: boolean;
  onStartFix: () => void;
  onCloseFix: () => void;
  onDiscardFix: () => void;
  t: T;
};

export function ReviewStep({
  step,
  isExcluded,
  isFirstError,
  isOpen,
  onToggleOpen,
  changes,
  isChangedSince,
  comments,
  trajectoryId,
  view,
  zoomKeys,
  stepCount,
  isFixed,
  isFixing,
  canFix,
  onStartFix,
  onCloseFix,
  onDiscardFix,
  t,
}: StepProps) {
  const client = useQueryClient();
  const [draft, setDraft] = useState("");
  const add = useMutation({
    mutationFn: () => postComment({ trajectoryId, stepIndex: step.index, body: draft }),
    onSuccess: () => {
      setDraft("");
      void client.invalidateQueries({ queryKey: reviewKeys.comments(trajectoryId) });
    },
  });
  const n = step.index + 1;
  const label: Record<StepChange, string> = {
    thought: t("review.field.thought"),
    clearAction: t("review.field.clearAction"),
    toolCall: t("review.field.toolCall"),
    box: t("review.field.box"),
    verdict: t("review.field.verdict"),
  };
  const open = comments.filter((c) => !c.isResolved).length;
  return (
    <article
      className={`review-step${isExcluded ? " is-excluded" : ""}${isOpen ? " is-open" : ""}${isFixing ? " is-fixing" : ""}`}
      aria-label={t("review.since.step", { n })}
    >
      {isFixing ? (
        <FixPane step={step} stepCount={stepCount} onDone={onCloseFix} onDiscard={onDiscardFix} t={t} />
      ) : (
        <div className="review-picture">
          <StepPicture step={step} isExcluded={isExcluded} isOpen={isOpen} view={view} hints={zoomKeys} />
          <button type="button" className="btn btn-small" aria-expanded={isOpen} onClick={onToggleOpen}>
            {isOpen ? t("review.step.close", { n }) : t("review.step.open", { n })}
          </button>
        </div>
      )}
      <div className="review-fields">
        <div className="review-step-head">
          <strong>#{n}</strong>
          <StepVerdict verdict={step.verdict} isExcluded={isExcluded} t={t} />
          {isFirstError && <span className="chip chip-lane">{t("lane.review.firstErrorChip")}</span>}
          {changes.length === 0
            ? !isExcluded && <span className="chip">{t("review.unchanged")}</span>
            : changes.map((c) => (
                <span key={c} className="chip chip-changed">
                  {label[c]}
                </span>
              ))}
          {isChangedSince && <span className="chip chip-since">{t("review.since.mark")}</span>}
          {open > 0 && <span className="chip chip-comments">{t("review.comment.open", { n: open })}</span>}
          {isFixed && <span className="chip chip-changed">{t("review.step.fixed")}</span>}
        </div>
        <dl>
          <dt>{t("review.field.thought")}</dt>
          <dd>
            <TextDiff before={step.original.thought ?? ""} after={step.thought.text} />
          </dd>
          <dt>{t("review.field.clearAction")}</dt>
          <dd>
            <TextDiff before={step.original.clearAction ?? ""} after={step.clearAction} />
          </dd>
          <dt>{t("review.field.toolCall")}</dt>
          <dd className="mono">
            {pyJsonDumps(step.original.toolCall) === pyJsonDumps(step.toolCall) ? (
              describeToolCall(step.toolCall)
            ) : (
              <>
                <del data-i18n="data">{describeToolCall(step.original.toolCall)}</del> →{" "}
                <ins data-i18n="data">{describeToolCall(step.toolCall)}</ins>
              </>
            )}
          </dd>
        </dl>
        <div className="review-comments">
          {comments.map((c) => (
            <CommentThread key={c.id} comment={c} trajectoryId={trajectoryId} />
          ))}
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (draft.trim()) add.mutate();
            }}
          >
            <input
              id={commentInputId(step.index)}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              placeholder={t("review.comment.placeholder", { n })}
              aria-label={t("review.comment.placeholder", { n })}
            />
            <button type="submit" className="btn" disabled={!draft.trim() || add.isPending}>
              {t("review.comment.add")}
            </button>
          </form>
          {add.isError && <ErrorBox error={add.error} />}
        </div>
        {!isFixing && canFix && (
          <div className="row">
            <button type="button" className="btn btn-small" onClick={onStartFix}>
              {isFixed ? t("review.step.fixAgain", { n }) : t("review.step.fix", { n })}
            </button>
            {isFixed && (
              <button type="button" className="btn btn-small" onClick={onDiscardFix}>
                {t("review.step.fixUndo")}
              </button>
            )}
          </div>
        )}
      </div>
    </article>
  );
}

/**
 * A reviewer's fix of one step: the annotator's canvas and step form on the same engine, in its
 * review-fix mode (nothing is saved until the decision). The canvas's ← → move the fix to the
 * neighbouring step's card.
 */
function FixPane({
  step,
  stepCount,
  onDone,
  onDiscard,
  t,
}: {
  step: StepView;
  stepCount: number;
  onDone: () => void;
  onDiscard: () => void;
  t: T;
}) {
  const [isSideCollapsed, setSideCollapsed, isSettingLoaded] = usePersonSetting("isLegendCollapsed", false);
  const n = step.index + 1;
  return (
    <section className="review-fix" aria-label={t("review.step.fixing", { n })}>
      <div className="review-fix-head">
        <h3>{t("review.step.fixing", { n })}</h3>
        <button type="button" className="btn btn-small btn-primary" onClick={onDone}>
          {t("review.step.fixDone")}
        </button>
        <button type="button" className="btn btn-small" onClick={onDiscard}>
          {t("review.step.fixUndo")}
        </button>
      </div>
      <div className="review-fix-main">
        <CanvasPane
          step={step}
          nextStep={null}
          stepCount={stepCount}
          isSideCollapsed={isSideCollapsed}
          onToggleSide={() => setSideCollapsed(!isSideCollapsed)}
          isSideToggleWaiting={!isSettingLoaded}
          isNextScreenShown={false}
        />
        <StepForm step={step} isSubmitAttempted={false} />
      </div>
    </section>
  );
}
