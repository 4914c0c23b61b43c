"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { HelpOverlay } from "@/components/editor/help-overlay";
import { useShortcuts } from "@/components/shortcuts/use-shortcuts";
import { myTasksShortcuts } from "@/lib/canvas/review-shortcuts";
import { kbdHint, withKbd } from "@/lib/canvas/shortcuts";
import { useFormat, useT } from "@/lib/i18n/react";
import { myTasksQuery, useStartNextTask } from "@/lib/queries/tasks";
import { EmptyState, ErrorBox, Loading } from "@/components/ui/states";
import "./editor.css";

/** "My tasks": the person's assigned trajectories with progress, and "Start next task" (N). */
export function MyTasks() {
  const t = useT();
  const router = useRouter();
  const query = useQuery(myTasksQuery());
  const start = useStartNextTask();
  const startNext = async () => {
    const id = await start.mutateAsync().catch(() => undefined);
    if (id) router.push(`/trajectories/${id}`);
  };
  const formatDate = useFormat().dateTime;
  const [isHelpOpen, setHelpOpen] = useState(false);
  const shortcuts = useMemo(() => myTasksShortcuts({ startNext: () => void startNext(), help: () => setHelpOpen((v) => !v) }), []); // eslint-disable-line react-hooks/exhaustive-deps
  useShortcuts<void>(shortcuts, () => undefined, !isHelpOpen);

  return (
    <main className="page">
      <div className="page-head">
        <div>
          <h1>{t("tasks.title")}</h1>
          {query.data && <span className="sub">{t("tasks.available", { count: query.data.available })}</span>}
        </div>
        <button
          type="button"
          className="btn btn-primary"
          onClick={startNext}
          disabled={start.isPending}
          title={withKbd(t("tasks.startNext"), shortcuts, "tasks.startNext")}
        >
          {start.isPending ? t("tasks.starting") : t("tasks.startNext")}{" "}
          <span className="kbd kbd-on-primary">{kbdHint(shortcuts, "tasks.startNext")}</span>
        </button>
      </div>
      {start.data === null && (
        <p className="notice" role="status">
          {t("tasks.nothing")}
        </p>
      )}
      {start.error && <ErrorBox error={start.error} />}
      {query.error && <ErrorBox error={query.error} />}
      {!query.data && !query.error && <Loading />}
      {query.data && query.data.tasks.length === 0 && <EmptyState title={t("tasks.empty")}>{t("tasks.emptyHint")}</EmptyState>}
      {query.data && query.data.tasks.length > 0 && (
        <div className="panel">
          <table className="table" aria-label={t("tasks.title")}>
            <thead>
              <tr>
                <th>{t("tasks.instruction")}</th>
                <th>{t("tasks.app")}</th>
                <th>{t("tasks.status")}</th>
                <th className="num">{t("tasks.progress")}</th>
                <th>{t("tasks.updated")}</th>
              </tr>
            </thead>
            <tbody>
              {query.data.tasks.map((task) => {
                const pct = task.stepCount ? Math.round((100 * task.doneSteps) / task.stepCount) : 0;
                return (
                  <tr key={task.id}>
                    <td className="instruction">
                      <Link href={`/trajectories/${task.id}`} data-i18n="data">
                        {task.instruction}
                      </Link>
                      {task.sentBack && (
                        <div className="task-reason">
                          {t("review.tasks.sentBack", { reviewer: task.sentBack.reviewer, reason: task.sentBack.reason ?? "" })}
                        </div>
                      )}
                      {task.openComments > 0 && <div className="sub">{t("review.tasks.openComments", { n: task.openComments })}</div>}
                    </td>
                    <td className="nowrap" data-i18n="data">
                      {task.app}
                    </td>
                    <td className="nowrap">
                      <span className={`badge badge-${task.status}`}>{t(`status.${task.status}`)}</span>
                    </td>
                    {task.lane === "fast" ? (
                      // Fast-lane work is counted by its own rule: the first error it marked, not steps done.
                      <td className="num nowrap">
                        <span className="chip chip-lane">{t("lane.review.mark")}</span>{" "}
                        {task.firstError === null
                          ? t("lane.tasks.noError", { count: task.stepCount })
                          : t("lane.tasks.firstError", { n: task.firstError + 1, count: task.stepCount })}
                      </td>
                    ) : (
                      <td className="num">
                        <span className="progress" title={`${task.doneSteps}/${task.stepCount}`}>
                          <span className="progress-bar" style={{ width: `${pct}%` }} />
                        </span>
                        {task.doneSteps}/{task.stepCount}
                      </td>
                    )}
                    <td className="nowrap muted">{formatDate(task.updatedAt)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {isHelpOpen && <HelpOverlay shortcuts={shortcuts} onClose={() => setHelpOpen(false)} />}
    </main>
  );
}
