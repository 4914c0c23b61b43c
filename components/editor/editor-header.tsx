"use client";

import Link from "next/link";
import { useSyncExternalStore } from "react";
import type { Autosave } from "@/lib/canvas/autosave";
import type { Editor } from "@/lib/canvas/editor";
import type { SubmitProblem } from "@/lib/domain/annotation";
import { OUTCOMES } from "@/lib/domain/trajectory";
import { useT } from "@/lib/i18n/react";
import type { TrajectoryView } from "@/lib/queries/trajectories";
import { useEditor } from "./use-editor";

type Props = {
  trajectory: TrajectoryView;
  editor: Editor;
  autosave: Autosave;
  problems: SubmitProblem[];
  canSubmit: boolean;
  isSubmitting: boolean;
  submitError: Error | null;
  onSubmit: () => void;
};

export function EditorHeader({ trajectory: tr, editor, autosave, problems, canSubmit, isSubmitting, submitError, onSubmit }: Props) {
  const t = useT();
  const annotation = useEditor(editor, (s) => s.doc.trajectory);
  const isReadOnly = useEditor(editor, (s) => s.isReadOnly);
  // The first saved edit starts the task on the server; show it without refetching.
  const hasHistory = useEditor(editor, (s) => s.history.past.length > 0);
  const status = (tr.status === "new" || tr.status === "rejected") && hasHistory ? "in_progress" : tr.status;
  const firstProblem = problems[0];
  const blocker = !firstProblem
    ? null
    : firstProblem.code === "outcome.unset"
      ? t("submit.needOutcome")
      : t("submit.needStep", { n: firstProblem.stepIndex + 1, more: problems.length - 1 });
  return (
    <header className="editor-head">
      <Link href="/tasks" className="back">
        ← {t("nav.tasks")}
      </Link>
      <div className="editor-title">
        <div className="viewer-meta">
          <span className="app-name">{tr.app}</span>
          <span className={`badge badge-${status}`}>{t(`status.${status}`)}</span>
          {tr.originalOutcome && (
            <span className="meta-item">
              {t("editor.modelSaid")} <span className={`badge badge-${tr.originalOutcome}`}>{t(`outcome.${tr.originalOutcome}`)}</span>
            </span>
          )}
          <span className="meta-item muted">
            {tr.source}
            {tr.sourceRef ? ` · ${tr.sourceRef}` : ""}
          </span>
        </div>
        <h1 className="instruction-title">{tr.instruction}</h1>
      </div>
      <div className="editor-task-controls">
        <fieldset className="segmented" disabled={isReadOnly || annotation.isDiscarded} aria-label={t("editor.outcome")}>
          <legend>{t("editor.outcome")}</legend>
          {OUTCOMES.map((o) => (
            <label key={o} className={annotation.outcome === o ? `is-on is-${o}` : undefined}>
              <input type="radio" name="outcome" value={o} checked={annotation.outcome === o} onChange={() => editor.setOutcome(o)} />
              {t(`outcome.${o}`)}
            </label>
          ))}
        </fieldset>
        <label className="check" title={t("editor.discardHint")}>
          <input type="checkbox" checked={annotation.isDiscarded} disabled={isReadOnly} onChange={(e) => editor.setDiscarded(e.target.checked)} />
          {t("editor.discard")}
        </label>
        <SyncBadge autosave={autosave} />
        <button type="button" className="btn btn-ghost" onClick={editor.toggleHelp} title={t("shortcut.help")} aria-label={t("shortcut.help")}>
          <span className="kbd">?</span>
        </button>
        <div className="submit-wrap">
          <button
            type="button"
            className="btn btn-primary"
            disabled={!canSubmit || isSubmitting}
            onClick={onSubmit}
            title={blocker ?? `${t("editor.submit")} (Ctrl+Enter)`}
          >
            {isSubmitting ? t("editor.submitting") : t("editor.submit")}
          </button>
          {!isReadOnly && blocker && <span className="submit-blocker">{blocker}</span>}
          {submitError && (
            <span className="submit-blocker is-error" role="alert">
              {submitError.message}
            </span>
          )}
        </div>
      </div>
    </header>
  );
}

function SyncBadge({ autosave }: { autosave: Autosave }) {
  const t = useT();
  const s = useSyncExternalStore(autosave.state.subscribe, autosave.state.get, autosave.state.get);
  return (
    <span className={`sync sync-${s.status}`} role="status" aria-label={t("sync.label")} title={s.message ?? t(`sync.${s.status}.hint`)}>
      <span className="sync-dot" aria-hidden />
      {t(`sync.${s.status}`)}
    </span>
  );
}
