"use client";

import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { HelpOverlay } from "@/components/editor/help-overlay";
import { ErrorBox, Loading } from "@/components/ui/states";
import { reviewShortcuts, type ReviewContextState } from "@/lib/canvas/review-shortcuts";
import type { Shortcut } from "@/lib/canvas/shortcuts";
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
import { SinceLast } from "./since-last";
import { StepPicture } from "./step-picture";
import { TextDiff } from "./text-diff";
import { useShortcuts } from "@/components/shortcuts/use-shortcuts";
import { usePersonSetting } from "@/components/ui/person-settings";
import { buildEditor } from "@/components/editor/build-editor";
import { CanvasPane } from "@/components/editor/canvas-pane";
import { EditorProvider } from "@/components/editor/editor-context";
import { StepForm } from "@/components/editor/step-form";
import { useExposeForTests } from "@/components/editor/test-hooks";
import { useEditor } from "@/components/editor/use-editor";
import type { Editor } from "@/lib/canvas/editor";
import { editorShortcuts } from "@/lib/canvas/editor-shortcuts";
import { collectFixes, invalidFixes } from "@/lib/canvas/review-fix";
import "@/components/editor/editor.css";

/** The comment field of a step (0-based index): the comment key focuses it. */
const commentInputId = (index: number) => `review-comment-${index + 1}`;
/** A step's list item (0-based index): j / k scroll to it. */
const stepItemId = (index: number) => `review-step-${index + 1}`;

/**
 * The editor's keys a review fix adds to the review page's own while a fix is open: tools, box keys,
 * undo and redo. None of them is a review key (j k o c f a r n ? + - 0 are), so the two never compete;
 * verdict and action-type keys stay off (c, n and 0 mean something on this page).
 */
const FIX_KEYS = /^(tool\.|box\.|history\.|cancel$)/;
const NOTHING = { save: () => undefined, submit: () => undefined, focusThought: () => undefined };
const fixShortcuts = (editor: Editor) => editorShortcuts(editor, NOTHING).filter((s) => FIX_KEYS.test(s.id));

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
  // The reviewer's fixes run on the editor engine in its review-fix mode: what they change waits here and goes
  // with the decision (lib/canvas/review-fix.ts), one fix per changed step. The open fix is the engine's step.
  const [editor] = useState(() => buildEditor(trajectory, { stepIndex: 0, mode: "review-fix", isReadOnly: false }));
  const [fixKeys] = useState(() => fixShortcuts(editor));
  const [isFixOpen, setFixOpen] = useState(false);
  const fixStep = useEditor(editor, (s) => s.stepIndex);
  const fixDoc = useEditor(editor, (s) => s.doc);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- recollected when the document changes (the engine's own state)
  const fixList = useMemo(() => collectFixes(editor.get()), [editor, fixDoc]);
  const fixed = new Set(fixList.map((f) => f.stepId));
  useExposeForTests(editor, null, fixKeys);
  useShortcuts(fixKeys, editor.get, isFixOpen);
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
  // eslint-disable-next-line react-hooks/exhaustive-deps -- as fixList
  const incomplete = useMemo(() => invalidFixes(editor.get()), [editor, fixDoc]);
  const hasFixError = incomplete.length > 0;
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
        fixes: decision === "approve" ? fixList : [],
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
  /** Open the editor on the step; a step not fixed yet starts with the verdict "corrected" (it is being corrected). */
  const startFix = (step: StepView) => {
    editor.goTo(step.index);
    setFixOpen(true);
    const a = editor.get().doc.steps[step.id];
    if (!fixed.has(step.id) && a && (a.verdict === "unreviewed" || a.verdict === "good"))
      editor.patchStep("history.verdict", { verdict: "corrected" });
  };
  const discardFix = (step: StepView) => {
    editor.revert(step.id);
    setFixOpen(false);
  };

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
    [current, reason, fixList, decide.isPending, trajectory],
  );
  const zoomKeys = useMemo(() => zoomHints(shortcuts), [shortcuts]);
  useShortcuts<ReviewContextState>(shortcuts, () => ({ canDecide, hasFixes: fixList.length > 0 }), !isHelpOpen);

  const afterKey = after ? (`review.after.${after}` as const) : null;
  return (
    <EditorProvider editor={editor} shortcuts={fixKeys}>
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
              {trajectory.outcome && t("review.outcome", { outcome: t(`outcome.${trajectory.outcome}`) })}
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
            {isSubmitted && !heldByOther && claimUntil && (
              <p className="sub">{t("review.claim.mine", { time: format.time(claimUntil) })}</p>
            )}
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
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={!canDecide || hasFixError || decide.isPending}
                  onClick={approve}
                >
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
              !fixed.has(s.id) &&
              !(isFixOpen && fixStep === i) &&
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
        {isHelpOpen && (
          // The fix keys (tools, box, undo) are listed too: they work while a step's fix is open (F).
          <HelpOverlay
            shortcuts={[...shortcuts, ...fixKeys] as readonly Shortcut<never>[]}
            onClose={() => setHelpOpen(false)}
            notes={t("review.help.fixKeys")}
          />
        )}
      </div>
    </EditorProvider>
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
      className={`review-step${isExcluded ? " is-excluded" : ""}${isOpen ? " is-open" : ""}`}
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
  const [isSideCollapsed, setSideCollapsed] = usePersonSetting("isLegendCollapsed", false);
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
          isNextScreenShown={false}
        />
        <StepForm step={step} isSubmitAttempted={false} />
      </div>
    </section>
  );
}
