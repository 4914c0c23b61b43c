"use client";

import { ErrorBox } from "@/components/ui/states";
import { fastLaneFirstError } from "@/lib/domain/lane";
import type { CommentView, ReviewContext } from "@/lib/domain/review";
import type { TrajectoryView } from "@/lib/domain/views";
import type { ApiError } from "@/lib/queries/fetcher";
import { useFormat, type useT } from "@/lib/i18n/react";
import { CommentThread } from "./comment-thread";
import type { ReviewDecision } from "./use-review-decision";
import type { ReviewFix } from "./use-review-fix";

type T = ReturnType<typeof useT>;
type Format = ReturnType<typeof useFormat>;

/**
 * The last decision in words, and the comment thread it started. The send-back reason is also the
 * trajectory's first comment (so the annotator can reply to it): say it once, as that thread's first
 * line, instead of once above it and once in it.
 */
function lastDecisionOf(context: ReviewContext, rows: CommentView[], t: T, format: Format) {
  const last = context.lastDecision;
  const reasonThread =
    last?.decision === "reject" && last.reason ? rows.find((c) => c.stepIndex === null && c.body === last.reason) : undefined;
  const lastDecisionLine = !last
    ? ""
    : last.decision === "reject"
      ? t("review.lastDecision.reject", {
          reviewer: last.reviewer,
          date: format.dateTime(last.createdAt),
          reason: last.reason ?? "",
        })
      : t("review.lastDecision.approve", { reviewer: last.reviewer, date: format.dateTime(last.createdAt) });
  return { reasonThread, lastDecisionLine };
}

/** Who holds the review: someone else's claim (the claim call's 409, or the context's), or this reviewer's until when. */
type ClaimState = { isSubmitted: boolean; heldByOther: boolean; claimError: ApiError | null; claimUntil: string | null };

/** The head of the review page: what the trajectory is, its last decision, who holds the review, and its own comments. */
export function ReviewSummary({
  trajectory,
  context,
  rows,
  claim: { isSubmitted, heldByOther, claimError, claimUntil },
  t,
}: {
  trajectory: TrajectoryView;
  context: ReviewContext;
  rows: CommentView[];
  claim: ClaimState;
  t: T;
}) {
  const format = useFormat();
  const changed = trajectory.steps.filter((s) => (context.personChanges[s.id] ?? []).length > 0).length;
  const { reasonThread, lastDecisionLine } = lastDecisionOf(context, rows, t, format);
  return (
    <div className="review-summary">
      <div className="sub">
        {trajectory.app} · {trajectory.assignee ?? "—"} · {t("review.changed", { n: changed, total: trajectory.steps.length })}
      </div>
      <h1 data-i18n="data">{trajectory.instruction}</h1>
      <div className="sub">
        {trajectory.outcome && t("review.outcome", { outcome: t(`outcome.${trajectory.outcome}`) })}
        {trajectory.isDiscarded && ` · ${t("review.discarded")}`}
      </div>
      {trajectory.lane === "fast" && <FastLaneSummary trajectory={trajectory} t={t} />}
      {context.lastDecision && !reasonThread && <p className="sub last-decision">{lastDecisionLine}</p>}
      {isSubmitted && heldByOther && (
        <p className="notice" role="alert">
          {t("review.claim.other", {
            reviewer: String((claimError?.issues as { reviewer?: string } | undefined)?.reviewer ?? context.claim?.reviewer ?? "—"),
            time: format.time((claimError?.issues as { leaseUntil?: string } | undefined)?.leaseUntil ?? context.claim?.leaseUntil),
          })}
        </p>
      )}
      {isSubmitted && !heldByOther && claimUntil && <p className="sub">{t("review.claim.mine", { time: format.time(claimUntil) })}</p>}
      {rows
        .filter((c) => c.stepIndex === null)
        .map((c) => (
          <CommentThread
            key={c.id}
            comment={c}
            trajectoryId={trajectory.id}
            tag={c === reasonThread ? t("review.comment.reason") : undefined}
            lead={c === reasonThread ? lastDecisionLine : undefined}
          />
        ))}
    </div>
  );
}

/** Work handed in through the fast lane: the lane, the first error it marked and the cut, so nothing after it reads as skipped. */
function FastLaneSummary({ trajectory, t }: { trajectory: TrajectoryView; t: T }) {
  const firstError = fastLaneFirstError(trajectory.steps);
  return (
    <div className="review-lane" role="group" aria-label={t("lane.review.mark")}>
      <span className="chip chip-lane">{t("lane.review.mark")}</span>
      <strong>{firstError === null ? t("lane.review.noError") : t("lane.review.firstError", { n: firstError + 1 })}</strong>
      {trajectory.cutAfter !== null && <span>{t("lane.review.cut", { n: trajectory.cutAfter + 1 })}</span>}
      <span className="sub">{t("lane.review.note")}</span>
    </div>
  );
}

/** The decision: the send-back reason, approve (with the fixes) or request changes, next review, leave. */
export function DecisionPanel({
  trajectory,
  reason,
  onReason,
  canDecide,
  fix: { fixList, hasFixError, incomplete },
  actions: { decide, next, leave, approve, requestChanges, startNext },
  t,
}: {
  trajectory: TrajectoryView;
  reason: string;
  onReason: (reason: string) => void;
  canDecide: boolean;
  fix: Pick<ReviewFix, "fixList" | "hasFixError" | "incomplete">;
  actions: ReviewDecision;
  t: T;
}) {
  const isSubmitted = trajectory.status === "submitted";
  return (
    <div className="review-decision">
      {!isSubmitted && <p className="sub">{t("review.notSubmitted", { status: trajectory.status })}</p>}
      <textarea
        id="review-reason"
        aria-label={t("review.reject.reason")}
        placeholder={t("review.reject.reason")}
        value={reason}
        onChange={(e) => onReason(e.target.value)}
        disabled={!canDecide}
      />
      <div className="row">
        <button type="button" className="btn" disabled={!canDecide || reason.trim() === "" || decide.isPending} onClick={requestChanges}>
          {t("review.requestChanges")}
        </button>
        {fixList.length > 0 ? (
          <button type="button" className="btn btn-primary" disabled={!canDecide || hasFixError || decide.isPending} onClick={approve}>
            {t("review.fixAndApprove", { n: fixList.length })}
          </button>
        ) : (
          <button type="button" className="btn btn-primary" disabled={!canDecide || decide.isPending} onClick={approve}>
            {t("review.approve")}
          </button>
        )}
      </div>
      {hasFixError && (
        <p className="problem is-blocking" role="alert">
          {t("review.fixIncomplete", {
            steps: trajectory.steps
              .filter((x) => incomplete.includes(x.id))
              .map((x) => x.index + 1)
              .join(", "),
          })}
        </p>
      )}
      {decide.isError && <ErrorBox error={decide.error} />}
      <div className="row">
        <button type="button" className="btn" onClick={() => void startNext()} disabled={next.isPending}>
          {t("review.next")} <span className="kbd">N</span>
        </button>
      </div>
      {canDecide && (
        <div className="row">
          <button type="button" className="btn" onClick={() => leave.mutate()} disabled={leave.isPending}>
            {t("review.leave")}
          </button>
        </div>
      )}
      {next.isError && <ErrorBox error={next.error} />}
      {leave.isError && <ErrorBox error={leave.error} />}
      <p className="sub kbd-hint">{t("review.keys")}</p>
    </div>
  );
}
