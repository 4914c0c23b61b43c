"use client";

import { useQuery } from "@tanstack/react-query";
import type { EvalRunView } from "@/lib/domain/eval";
import { ACTION_TYPES, type ActionType } from "@/lib/domain/tool-call";
import { useFormat, useT } from "@/lib/i18n/react";
import { evalRunQuery } from "@/lib/queries/eval";

// Words the evaluation pages share: action types named in the person's language, a run's one-line name and its
// progress as a sentence ("Running: 120 of 433 steps, 3 failed calls", "Finished in 4 min: 433 steps").

const isActionType = (a: string): a is ActionType => (ACTION_TYPES as readonly string[]).includes(a);

/** An action type (or `unparseable`, the confusion matrix's column for no readable call) in words. */
export function useActionName(): (action: string) => string {
  const t = useT();
  return (action) =>
    isActionType(action) ? t(`eval.actionType.${action}`) : action === "unparseable" ? t("eval.actionType.unparseable") : action;
}

/** "ckpt-a on held-out v2 (ui-s1)". */
export function useRunLine(): (run: EvalRunView) => string {
  const t = useT();
  return (r) => t("eval.runs.line", { endpoint: r.endpoint.name, set: r.set.name, version: r.set.version, rule: r.rule });
}

/** A run's state and progress as one sentence. */
export function useProgressWords(): (run: EvalRunView) => string {
  const t = useT();
  const format = useFormat();
  return (run) => {
    const { done, total, failedCalls } = run.progress;
    const progress =
      run.state === "succeeded"
        ? t("eval.progress.succeeded", {
            duration: format.duration(run.finishedAt ? Date.parse(run.finishedAt) - Date.parse(run.startedAt) : null),
            total,
          })
        : t(`eval.progress.${run.state}`, { done, total });
    return failedCalls > 0
      ? t("eval.progress.withFailed", { progress, failed: t("eval.progress.failedCalls", { n: failedCalls }) })
      : progress;
  };
}

/** A run's progress in words, kept current while it runs. */
export function LiveProgress({ id }: { id: string }) {
  const q = useQuery(evalRunQuery(id));
  const words = useProgressWords();
  return q.data ? <span data-state={q.data.run.state}>{words(q.data.run)}</span> : null;
}
