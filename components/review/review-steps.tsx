"use client";

import type { View } from "@/lib/canvas/view";
import type { ZoomHints } from "@/components/step-canvas/step-canvas";
import type { CommentView, ReviewContext } from "@/lib/domain/review";
import { describeToolCall } from "@/lib/domain/tool-call";
import { fastLaneFirstError } from "@/lib/domain/lane";
import type { TrajectoryView } from "@/lib/domain/views";
import type { useT } from "@/lib/i18n/react";
import { stepItemId } from "./review-ids";
import { ReviewStep } from "./review-step";
import { StepVerdict } from "./step-verdict";
import type { ReviewFix } from "./use-review-fix";

type T = ReturnType<typeof useT>;

/**
 * The trajectory's steps, each with its picture, fields, comments and fix; in compact mode a step nobody
 * changed, commented on or is fixing shows as one line until the reviewer opens it.
 */
export function ReviewSteps({
  trajectory,
  context,
  rows,
  current,
  onCurrent,
  open,
  onToggleOpen,
  isCompact,
  unfolded,
  onUnfold,
  viewOf,
  zoomKeys,
  canDecide,
  fix: { fixed, isFixOpen, fixStep, startFix, setFixOpen, discardFix },
  t,
}: {
  trajectory: TrajectoryView;
  context: ReviewContext;
  rows: CommentView[];
  current: number;
  onCurrent: (i: number) => void;
  open: Set<number>;
  onToggleOpen: (i: number) => void;
  isCompact: boolean;
  /** Unchanged steps the reviewer opened out of their one line in compact mode. */
  unfolded: Set<number>;
  onUnfold: (i: number) => void;
  viewOf: (stepId: string) => View;
  zoomKeys: ZoomHints;
  canDecide: boolean;
  fix: Pick<ReviewFix, "fixed" | "isFixOpen" | "fixStep" | "startFix" | "setFixOpen" | "discardFix">;
  t: T;
}) {
  const changedSince = new Set((context.sinceLast?.steps ?? []).map((s) => s.index));
  const isAfterCut = (index: number) => trajectory.cutAfter !== null && index > trajectory.cutAfter;
  // Fast-lane work names its first error; the steps after the cut were never worked on (not skipped).
  const firstError = trajectory.lane === "fast" ? fastLaneFirstError(trajectory.steps) : null;
  return (
    <ol className="review-steps">
      {trajectory.steps.map((s, i) => (
        <li key={s.id} id={stepItemId(i)} className={i === current ? "is-current" : undefined} onFocusCapture={() => onCurrent(i)}>
          {isCompact &&
          !unfolded.has(i) &&
          (context.personChanges[s.id] ?? []).length === 0 &&
          !changedSince.has(s.index) &&
          !fixed.has(s.id) &&
          !(isFixOpen && fixStep === i) &&
          !rows.some((c) => c.stepIndex === s.index) ? (
            <div className="review-line" role="group" aria-label={t("review.compactRow", { n: s.index + 1 })}>
              <strong>#{s.index + 1}</strong>
              <StepVerdict verdict={s.verdict} isExcluded={isAfterCut(s.index)} t={t} />
              {!isAfterCut(s.index) && <span className="chip">{t("review.unchanged")}</span>}
              <span className="review-line-text">{s.clearAction || describeToolCall(s.toolCall)}</span>
              <button type="button" className="btn btn-small" onClick={() => onUnfold(i)}>
                {t("review.compactShow", { n: s.index + 1 })}
              </button>
            </div>
          ) : (
            <ReviewStep
              step={s}
              isExcluded={isAfterCut(s.index)}
              isFirstError={firstError === s.index}
              isOpen={open.has(i)}
              onToggleOpen={() => onToggleOpen(i)}
              changes={context.personChanges[s.id] ?? []}
              isChangedSince={changedSince.has(s.index)}
              comments={rows.filter((c) => c.stepIndex === s.index)}
              trajectoryId={trajectory.id}
              view={viewOf(s.id)}
              zoomKeys={zoomKeys}
              stepCount={trajectory.steps.length}
              isFixed={fixed.has(s.id)}
              isFixing={isFixOpen && fixStep === i}
              canFix={canDecide}
              onStartFix={() => startFix(s)}
              onCloseFix={() => setFixOpen(false)}
              onDiscardFix={() => discardFix(s)}
              t={t}
            />
          )}
        </li>
      ))}
    </ol>
  );
}
