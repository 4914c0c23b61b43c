"use client";

import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ErrorBox, Loading } from "@/components/ui/states";
import { stepChanges, type StepChange } from "@/lib/domain/review";
import { describeToolCall, pyJsonDumps } from "@/lib/domain/tool-call";
import { useT } from "@/lib/i18n/react";
import { commentsQuery, postComment, postDecision, reviewKeys } from "@/lib/queries/review";
import { trajectoryKeys, trajectoryQuery, type StepView, type TrajectoryView } from "@/lib/queries/trajectories";
import { ReviewStepCanvas } from "@/components/step-canvas/review-step-canvas";
import { TextDiff } from "./text-diff";

/** What changed against the model's output, step by step, with comments and the decision. */
export function ReviewView({ id }: { id: string }) {
  const t = useT();
  const q = useQuery(trajectoryQuery(id));
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorBox error={q.error} />;
  return <ReviewBody trajectory={q.data} t={t} />;
}

function ReviewBody({ trajectory, t }: { trajectory: TrajectoryView; t: ReturnType<typeof useT> }) {
  const client = useQueryClient();
  const comments = useQuery(commentsQuery(trajectory.id));
  const [reason, setReason] = useState("");
  const [current, setCurrent] = useState(0);
  const stepRefs = useRef<(HTMLElement | null)[]>([]);
  const changed = trajectory.steps.filter((s) => stepChanges(s).length > 0).length;
  const decide = useMutation({
    mutationFn: (decision: "approve" | "reject") => postDecision(trajectory.id, { decision, comment: reason || undefined, version: trajectory.version }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: trajectoryKeys.all });
      void client.invalidateQueries({ queryKey: reviewKeys.queue() });
      void client.invalidateQueries({ queryKey: reviewKeys.comments(trajectory.id) });
      setReason("");
    },
  });
  const isSubmitted = trajectory.status === "submitted";

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      const target = e.target as HTMLElement;
      if (target.closest("input, textarea, select, [contenteditable]") || e.ctrlKey || e.metaKey || e.altKey) return;
      const move = (d: number) => {
        const next = Math.min(Math.max(current + d, 0), trajectory.steps.length - 1);
        setCurrent(next);
        stepRefs.current[next]?.scrollIntoView({ block: "start", behavior: "smooth" });
      };
      if (e.key === "j") move(1);
      else if (e.key === "k") move(-1);
      else if (e.key === "a" && isSubmitted) decide.mutate("approve");
      else if (e.key === "r" && isSubmitted) document.getElementById("review-reason")?.focus();
      else return;
      e.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [current, trajectory.steps.length, isSubmitted, decide]);

  return (
    <div className="review">
      <header className="review-head">
        <div>
          <div className="sub">
            {trajectory.app} · {trajectory.assignee ?? "—"} · {t("review.changed", { n: changed, total: trajectory.steps.length })}
          </div>
          <h1>{trajectory.instruction}</h1>
          <div className="sub">
            {trajectory.outcome && t("review.outcome", { outcome: trajectory.outcome })}
            {trajectory.isDiscarded && ` · ${t("review.discarded")}`}
          </div>
          {(comments.data?.rows ?? [])
            .filter((c) => c.stepIndex === null)
            .map((c) => (
              <p key={c.id} className="comment">
                <b>{c.author}</b> {c.body}
              </p>
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
            disabled={!isSubmitted}
          />
          <div className="row">
            <button type="button" className="btn" disabled={!isSubmitted || reason.trim() === "" || decide.isPending} onClick={() => decide.mutate("reject")}>
              {t("review.reject")}
            </button>
            <button type="button" className="btn btn-primary" disabled={!isSubmitted || decide.isPending} onClick={() => decide.mutate("approve")}>
              {t("review.approve")}
            </button>
          </div>
          {decide.isError && <ErrorBox error={decide.error} />}
          {decide.isSuccess && <p role="status">{t("review.decided", { status: decide.data.status })}</p>}
          <p className="sub kbd-hint">{t("review.keys")}</p>
        </div>
      </header>
      <ol className="review-steps">
        {trajectory.steps.map((s, i) => (
          <li key={s.id} ref={(el) => void (stepRefs.current[i] = el)} className={i === current ? "is-current" : undefined}>
            <ReviewStep
              step={s}
              isExcluded={trajectory.cutAfter !== null && s.index > trajectory.cutAfter}
              comments={(comments.data?.rows ?? []).filter((c) => c.stepIndex === s.index)}
              trajectoryId={trajectory.id}
              t={t}
            />
          </li>
        ))}
      </ol>
    </div>
  );
}

function ReviewStep({
  step,
  isExcluded,
  comments,
  trajectoryId,
  t,
}: {
  step: StepView;
  isExcluded: boolean;
  comments: { id: string; author: string; body: string }[];
  trajectoryId: string;
  t: ReturnType<typeof useT>;
}) {
  const client = useQueryClient();
  const [draft, setDraft] = useState("");
  const add = useMutation({
    mutationFn: () => postComment({ trajectoryId, stepIndex: step.index, body: draft }),
    onSuccess: () => {
      setDraft("");
      void client.invalidateQueries({ queryKey: reviewKeys.comments(trajectoryId) });
    },
  });
  const changes = stepChanges(step);
  const label: Record<StepChange, string> = {
    thought: t("review.field.thought"),
    clearAction: t("review.field.clearAction"),
    toolCall: t("review.field.toolCall"),
    box: t("review.field.box"),
    verdict: t("review.field.verdict"),
  };
  return (
    <article className={`review-step${isExcluded ? " is-excluded" : ""}`} aria-label={`Step ${step.index + 1}`}>
      <ReviewStepCanvas step={step} isExcluded={isExcluded} />
      <div className="review-fields">
        <div className="review-step-head">
          <strong>#{step.index + 1}</strong>
          <span className={`verdict verdict-${step.verdict}`}>{step.verdict}</span>
          {changes.length === 0 ? <span className="chip">{t("review.unchanged")}</span> : changes.map((c) => <span key={c} className="chip chip-changed">{label[c]}</span>)}
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
            <p key={c.id} className="comment">
              <b>{c.author}</b> {c.body}
            </p>
          ))}
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (draft.trim()) add.mutate();
            }}
          >
            <input value={draft} onChange={(e) => setDraft(e.target.value)} placeholder={t("review.comment.placeholder", { n: step.index + 1 })} aria-label={t("review.comment.placeholder", { n: step.index + 1 })} />
            <button type="submit" className="btn" disabled={!draft.trim() || add.isPending}>
              {t("review.comment.add")}
            </button>
          </form>
          {add.isError && <ErrorBox error={add.error} />}
        </div>
      </div>
    </article>
  );
}
