"use client";

import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { HelpOverlay } from "@/components/editor/help-overlay";
import { ErrorBox, Loading } from "@/components/ui/states";
import { reviewShortcuts, type ReviewContextState } from "@/lib/canvas/review-shortcuts";
import { createView, type View } from "@/lib/canvas/view";
import { zoomHints } from "@/lib/canvas/view-shortcuts";
import type { ZoomHints } from "@/components/step-canvas/step-canvas";
import type { CommentView, ReviewContext, StepChange } from "@/lib/domain/review";
import { describeToolCall, pyJsonDumps } from "@/lib/domain/tool-call";
import { useFormat, useT } from "@/lib/i18n/react";
import {
  commentsQuery,
  deleteClaim,
  postClaim,
  postComment,
  postDecision,
  postNextReview,
  reviewContextQuery,
  reviewKeys,
} from "@/lib/queries/review";
import { ApiError } from "@/lib/queries/fetcher";
import { trajectoryKeys, trajectoryQuery } from "@/lib/queries/trajectories";
import type { StepView, TrajectoryView } from "@/lib/domain/views";
import { CommentThread } from "./comment-thread";
import { FixForm, initialFixDraft, type FixDraft } from "./fix-form";
import { SinceLast } from "./since-last";
import { StepPicture } from "./step-picture";
import { TextDiff } from "./text-diff";
import { useShortcuts } from "@/components/shortcuts/use-shortcuts";
import { usePersonSetting } from "@/components/ui/person-settings";
import "@/components/editor/editor.css";

/** The comment field of a step (0-based index): the comment key focuses it. */
const commentInputId = (index: number) => `review-comment-${index + 1}`;
/** A step's list item (0-based index): j / k scroll to it. */
const stepItemId = (index: number) => `review-step-${index + 1}`;

/** The claim is renewed every minute while the page is open (it lasts ten). */
const HEARTBEAT_MS = 60_000;

type T = ReturnType<typeof useT>;
export type AfterDecision = "approve" | "reject" | null;

/** Review one trajectory: what people changed, what changed since the last decision, comments per step, fixes, the decision. */
export function ReviewView({ id, after = null }: { id: string; after?: AfterDecision }) {
  const t = useT();
  // Never a cached copy: the annotator may have resubmitted since this page last showed the trajectory.
  const q = useQuery({ ...trajectoryQuery(id), staleTime: 0, refetchOnMount: "always" });
  const context = useQuery({ ...reviewContextQuery(id), refetchOnMount: "always" });
  if (q.isError) return <ErrorBox error={q.error} />;
  if (context.isError) return <ErrorBox error={context.error} />;
  if (q.isPending || context.isPending || !q.isFetchedAfterMount || !context.isFetchedAfterMount) return <Loading />;
  return <ReviewBody key={`${id}.${q.data.version}`} trajectory={q.data} context={context.data} after={after} t={t} />;
}

/** Claim the review while the page is open; someone else's claim comes back as the error. */
function useClaim(id: string, isSubmitted: boolean) {
  const [error, setError] = useState<ApiError | null>(null);
  const [until, setUntil] = useState<string | null>(null);
  useEffect(() => {
    if (!isSubmitted) return;
    let isLive = true;
    const beat = () =>
      void postClaim(id)
        .then((r) => {
          if (!isLive) return;
          setError(null);
          setUntil(r.claim?.isMine ? r.claim.leaseUntil : null);
        })
        .catch((e: unknown) => {
          if (!isLive || !(e instanceof ApiError) || e.status !== 409) return;
          setError(e);
          setUntil(null);
        });
    beat();
    const timer = window.setInterval(beat, HEARTBEAT_MS);
    return () => {
      isLive = false;
      window.clearInterval(timer);
    };
  }, [id, isSubmitted]);
  return { error, until };
}

function ReviewBody({ trajectory, context, after, t }: { trajectory: TrajectoryView; context: ReviewContext; after: AfterDecision; t: T }) {
  const router = useRouter();
  const client = useQueryClient();
  const format = useFormat();
  const comments = useQuery(commentsQuery(trajectory.id));
  const [reason, setReason] = useState("");
  const [current, setCurrent] = useState(0);
  const [open, setOpen] = useState<Set<number>>(() => new Set());
  const [fixes, setFixes] = useState<Record<string, FixDraft>>({});
  const [isHelpOpen, setHelpOpen] = useState(false);
  const [isCompact, setCompact] = usePersonSetting("isReviewCompact", false);
  /** Unchanged steps the reviewer opened out of their one line in compact mode. */
  const [unfolded, setUnfolded] = useState<Set<number>>(() => new Set());
  // One zoom per step's canvas, kept here so the zoom keys act on the current step's picture.
  const [views] = useState(() => new Map<string, View>());
  const viewOf = (stepId: string) => {
    let v = views.get(stepId);
    if (!v) views.set(stepId, (v = createView()));
    return v;
  };
  const isSubmitted = trajectory.status === "submitted";
  const { error: claimError, until: claimUntil } = useClaim(trajectory.id, isSubmitted);
  const heldByOther = claimError !== null || (context.claim !== null && !context.claim.isMine);
  const canDecide = isSubmitted && !heldByOther;
  const fixList = Object.values(fixes);
  const hasFixError = fixList.some((f) => f.error !== null);
  const changedSince = new Set((context.sinceLast?.steps ?? []).map((s) => s.index));
  const changed = trajectory.steps.filter((s) => (context.personChanges[s.id] ?? []).length > 0).length;
  const rows = comments.data?.rows ?? [];
  // The send-back reason is also the trajectory's first comment (so the annotator can reply to it): say it
  // once, as that thread's first line, instead of once above it and once in it.
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

  const next = useMutation({ mutationFn: postNextReview });
  const leave = useMutation({
    mutationFn: () => deleteClaim(trajectory.id),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: reviewKeys.queue() });
      router.push("/reviews");
    },
  });
  const decide = useMutation({
    mutationFn: (decision: "approve" | "reject") =>
      postDecision(trajectory.id, {
        decision,
        comment: reason.trim() || undefined,
        version: trajectory.version,
        fixes: decision === "approve" ? fixList.flatMap((f) => (f.fix ? [f.fix] : [])) : [],
      }),
    onSuccess: async (_r, decision) => {
      void client.invalidateQueries({ queryKey: trajectoryKeys.all });
      void client.invalidateQueries({ queryKey: reviewKeys.queue() });
      void client.invalidateQueries({ queryKey: reviewKeys.comments(trajectory.id) });
      void client.invalidateQueries({ queryKey: reviewKeys.context(trajectory.id) });
      // Move on: the next review, or back to the queue when nothing is left.
      const nextId = await postNextReview().catch(() => null);
      router.push(nextId ? `/reviews/${nextId}?after=${decision}` : `/reviews?after=${decision}`);
    },
  });
  const startNext = async () => {
    const nextId = await next.mutateAsync().catch(() => undefined);
    if (nextId) router.push(`/reviews/${nextId}`);
    else if (nextId === null) router.push("/reviews?after=none");
  };
  const approve = () => !decide.isPending && !hasFixError && decide.mutate("approve");
  const requestChanges = () => !decide.isPending && reason.trim() !== "" && decide.mutate("reject");

  const goTo = (i: number) => {
    const n = Math.min(Math.max(i, 0), trajectory.steps.length - 1);
    setCurrent(n);
    document.getElementById(stepItemId(n))?.scrollIntoView({ block: "start", behavior: "smooth" });
  };
  const toggleOpen = (i: number) =>
    setOpen((s) => {
      const n = new Set(s);
      if (n.has(i)) n.delete(i);
      else n.add(i);
      return n;
    });
  const startFix = (step: StepView) => setFixes((f) => (f[step.id] ? f : { ...f, [step.id]: initialFixDraft(step, t) }));

  const shortcuts = useMemo(
    () =>
      reviewShortcuts(
        {
          next: () => goTo(current + 1),
          prev: () => goTo(current - 1),
          toggleOpen: () => toggleOpen(current),
          comment: () => document.getElementById(commentInputId(current))?.focus(),
          fix: () => startFix(trajectory.steps[current]!),
          approve,
          focusReason: () => document.getElementById("review-reason")?.focus(),
          decide: () => (reason.trim() ? requestChanges() : approve()),
          startNext: () => void startNext(),
          help: () => setHelpOpen((v) => !v),
        },
        () => {
          const step = trajectory.steps[current];
          return step ? viewOf(step.id) : undefined;
        },
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- rebuilt with the state the actions read
    [current, reason, fixes, decide.isPending, trajectory],
  );
  const zoomKeys = useMemo(() => zoomHints(shortcuts), [shortcuts]);
  useShortcuts<ReviewContextState>(shortcuts, () => ({ canDecide, hasFixes: fixList.length > 0 }), !isHelpOpen);

  const afterKey = after ? (`review.after.${after}` as const) : null;
  return (
    <div className="review">
      {afterKey && (
        <p className="notice" role="status">
          {t(afterKey)}
        </p>
      )}
      <header className="review-head">
        <div className="review-summary">
          <div className="sub">
            {trajectory.app} · {trajectory.assignee ?? "—"} · {t("review.changed", { n: changed, total: trajectory.steps.length })}
          </div>
          <h1 data-i18n="data">{trajectory.instruction}</h1>
          <div className="sub">
            {trajectory.outcome && t("review.outcome", { outcome: trajectory.outcome })}
            {trajectory.isDiscarded && ` · ${t("review.discarded")}`}
          </div>
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
        <div className="review-decision">
          {!isSubmitted && <p className="sub">{t("review.notSubmitted", { status: trajectory.status })}</p>}
          <textarea
            id="review-reason"
            aria-label={t("review.reject.reason")}
            placeholder={t("review.reject.reason")}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            disabled={!canDecide}
          />
          <div className="row">
            <button
              type="button"
              className="btn"
              disabled={!canDecide || reason.trim() === "" || decide.isPending}
              onClick={requestChanges}
            >
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
      </header>
      <SinceLast context={context} onPickStep={goTo} />
      <div className="review-toolbar">
        <button
          type="button"
          className={`btn btn-small${isCompact ? " is-on" : ""}`}
          aria-pressed={isCompact}
          onClick={() => setCompact(!isCompact)}
          title={`${t("review.compactHint")} ${t("layout.settingHint")}`}
        >
          {t("review.compact")}
        </button>
      </div>
      <ol className="review-steps">
        {trajectory.steps.map((s, i) => (
          <li key={s.id} id={stepItemId(i)} className={i === current ? "is-current" : undefined} onFocusCapture={() => setCurrent(i)}>
            {isCompact &&
            !unfolded.has(i) &&
            (context.personChanges[s.id] ?? []).length === 0 &&
            !changedSince.has(s.index) &&
            !fixes[s.id] &&
            !rows.some((c) => c.stepIndex === s.index) ? (
              <div className="review-line" role="group" aria-label={t("review.compactRow", { n: s.index + 1 })}>
                <strong>#{s.index + 1}</strong>
                <span className={`verdict verdict-${s.verdict}`}>{t(`verdict.${s.verdict}`)}</span>
                <span className="chip">{t("review.unchanged")}</span>
                <span className="review-line-text">{s.clearAction || describeToolCall(s.toolCall)}</span>
                <button type="button" className="btn btn-small" onClick={() => setUnfolded((u) => new Set(u).add(i))}>
                  {t("review.compactShow", { n: s.index + 1 })}
                </button>
              </div>
            ) : (
              <ReviewStep
                step={s}
                isExcluded={trajectory.cutAfter !== null && s.index > trajectory.cutAfter}
                isOpen={open.has(i)}
                onToggleOpen={() => toggleOpen(i)}
                changes={context.personChanges[s.id] ?? []}
                isChangedSince={changedSince.has(s.index)}
                comments={rows.filter((c) => c.stepIndex === s.index)}
                trajectoryId={trajectory.id}
                view={viewOf(s.id)}
                zoomKeys={zoomKeys}
                fix={fixes[s.id] ?? null}
                canFix={canDecide}
                onStartFix={() => startFix(s)}
                onFix={(d) => setFixes((f) => ({ ...f, [s.id]: d }))}
                onDiscardFix={() =>
                  setFixes((f) => {
                    const { [s.id]: _gone, ...rest } = f;
                    return rest;
                  })
                }
                t={t}
              />
            )}
          </li>
        ))}
      </ol>
      {isHelpOpen && <HelpOverlay shortcuts={shortcuts} onClose={() => setHelpOpen(false)} />}
    </div>
  );
}

type StepProps = {
  step: StepView;
  isExcluded: boolean;
  isOpen: boolean;
  onToggleOpen: () => void;
  changes: StepChange[];
  isChangedSince: boolean;
  comments: CommentView[];
  trajectoryId: string;
  view: View;
  zoomKeys: ZoomHints;
  fix: FixDraft | null;
  canFix: boolean;
  onStartFix: () => void;
  onFix: (d: FixDraft) => void;
  onDiscardFix: () => void;
  t: T;
};

function ReviewStep({
  step,
  isExcluded,
  isOpen,
  onToggleOpen,
  changes,
  isChangedSince,
  comments,
  trajectoryId,
  view,
  zoomKeys,
  fix,
  canFix,
  onStartFix,
  onFix,
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
      className={`review-step${isExcluded ? " is-excluded" : ""}${isOpen ? " is-open" : ""}`}
      aria-label={t("review.since.step", { n })}
    >
      <div className="review-picture">
        <StepPicture step={step} isExcluded={isExcluded} isOpen={isOpen} view={view} hints={zoomKeys} />
        <button type="button" className="btn btn-small" aria-expanded={isOpen} onClick={onToggleOpen}>
          {isOpen ? t("review.step.close", { n }) : t("review.step.open", { n })}
        </button>
      </div>
      <div className="review-fields">
        <div className="review-step-head">
          <strong>#{n}</strong>
          <span className={`verdict verdict-${step.verdict}`}>{t(`verdict.${step.verdict}`)}</span>
          {changes.length === 0 ? (
            <span className="chip">{t("review.unchanged")}</span>
          ) : (
            changes.map((c) => (
              <span key={c} className="chip chip-changed">
                {label[c]}
              </span>
            ))
          )}
          {isChangedSince && <span className="chip chip-since">{t("review.since.mark")}</span>}
          {open > 0 && <span className="chip chip-comments">{t("review.comment.open", { n: open })}</span>}
          {isExcluded && <span className="chip">{t("review.excluded")}</span>}
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
                <del>{describeToolCall(step.original.toolCall)}</del> → <ins>{describeToolCall(step.toolCall)}</ins>
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
        {fix ? (
          <FixForm step={step} onChange={onFix} onDiscard={onDiscardFix} />
        ) : (
          canFix && (
            <button type="button" className="btn btn-small" onClick={onStartFix}>
              {t("review.step.fix", { n })}
            </button>
          )
        )}
      </div>
    </article>
  );
}
