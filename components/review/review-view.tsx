"use client";

import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { HelpOverlay } from "@/components/editor/help-overlay";
import { ErrorBox, Loading } from "@/components/ui/states";
import { reviewShortcuts, type ReviewContextState } from "@/lib/canvas/review-shortcuts";
import type { Shortcut } from "@/lib/canvas/shortcuts";
import { createView, type View } from "@/lib/canvas/view";
import { zoomHints } from "@/lib/canvas/view-shortcuts";
import type { ReviewContext } from "@/lib/domain/review";
import { useT } from "@/lib/i18n/react";
import { commentsQuery, reviewContextQuery } from "@/lib/queries/review";
import { trajectoryQuery } from "@/lib/queries/trajectories";
import type { TrajectoryView } from "@/lib/domain/views";
import { SinceLast } from "./since-last";
import { useShortcuts } from "@/components/shortcuts/use-shortcuts";
import { settingControl, usePersonSetting } from "@/components/ui/person-settings";
import { EditorProvider } from "@/components/editor/editor-context";
import { DecisionPanel, ReviewSummary } from "./review-header";
import { commentInputId, stepItemId } from "./review-ids";
import { ReviewSteps } from "./review-steps";
import { useClaim } from "./use-claim";
import { useReviewDecision } from "./use-review-decision";
import { useReviewFix } from "./use-review-fix";
import "@/components/editor/editor.css";

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

/** The review page once the trajectory and its context are loaded: the keys, the head, the steps and the help. */
function ReviewBody({ trajectory, context, after, t }: { trajectory: TrajectoryView; context: ReviewContext; after: AfterDecision; t: T }) {
  const comments = useQuery(commentsQuery(trajectory.id));
  const [reason, setReason] = useState("");
  const [current, setCurrent] = useState(0);
  const [open, setOpen] = useState<Set<number>>(() => new Set());
  const fix = useReviewFix(trajectory);
  const { editor, fixKeys, fixList, startFix } = fix;
  const [isHelpOpen, setHelpOpen] = useState(false);
  const [isCompact, setCompact, isSettingLoaded] = usePersonSetting("isReviewCompact", false);
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
  const rows = comments.data?.rows ?? [];
  const actions = useReviewDecision(trajectory, reason, fixList, fix.hasFixError);
  const { approve, requestChanges, startNext } = actions;

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
    [current, reason, fixList, actions.decide.isPending, trajectory],
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
          <ReviewSummary
            trajectory={trajectory}
            context={context}
            rows={rows}
            claim={{ isSubmitted, heldByOther, claimError, claimUntil }}
            t={t}
          />
          <DecisionPanel
            trajectory={trajectory}
            reason={reason}
            onReason={setReason}
            canDecide={canDecide}
            fix={fix}
            actions={actions}
            t={t}
          />
        </header>
        <SinceLast context={context} onPickStep={goTo} />
        <div className="review-toolbar">
          <button
            type="button"
            className={`btn btn-small${isCompact ? " is-on" : ""}`}
            aria-pressed={isCompact}
            {...settingControl(isSettingLoaded)}
            onClick={() => setCompact(!isCompact)}
            title={`${t("review.compactHint")} ${t("layout.settingHint")}`}
          >
            {t("review.compact")}
          </button>
        </div>
        <ReviewSteps
          trajectory={trajectory}
          context={context}
          rows={rows}
          current={current}
          onCurrent={setCurrent}
          open={open}
          onToggleOpen={toggleOpen}
          isCompact={isCompact}
          unfolded={unfolded}
          onUnfold={(i) => setUnfolded((u) => new Set(u).add(i))}
          viewOf={viewOf}
          zoomKeys={zoomKeys}
          canDecide={canDecide}
          fix={fix}
          t={t}
        />
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
