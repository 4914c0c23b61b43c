"use client";

import Link from "next/link";
import { useState, useSyncExternalStore } from "react";
import type { Autosave } from "@/lib/canvas/autosave";
import type { EditorMode } from "@/lib/canvas/editor";
import { kbdHint, withKbd } from "@/lib/canvas/shortcuts";
import { OUTCOMES } from "@/lib/domain/trajectory";
import { useT } from "@/lib/i18n/react";
import type { TrajectoryView } from "@/lib/domain/views";
import { errorMessage } from "@/components/ui/states";
import { useEditorContext } from "./editor-context";
import { useEditor } from "./use-editor";

type Props = {
  trajectory: TrajectoryView;
  autosave: Autosave;
  /** In the fast lane its own panel holds the one hand-in ("Hand in (fast lane)"): no "Submit for review" here. */
  mode: EditorMode;
  canSubmit: boolean;
  isSubmitting: boolean;
  submitError: Error | null;
  onSubmit: () => void;
};

export function EditorHeader({ trajectory: tr, autosave, mode, canSubmit, isSubmitting, submitError, onSubmit }: Props) {
  const t = useT();
  const { editor, shortcuts } = useEditorContext();
  const annotation = useEditor(editor, (s) => s.doc.trajectory);
  const isReadOnly = useEditor(editor, (s) => s.isReadOnly);
  // The first saved edit starts the task on the server; show it without refetching.
  const hasHistory = useEditor(editor, (s) => s.history.past.length > 0);
  const status = (tr.status === "new" || tr.status === "rejected") && hasHistory ? "in_progress" : tr.status;
  const [isInstructionOpen, setInstructionOpen] = useState(false);
  return (
    <header className="editor-head">
      <Link href="/tasks" className="back">
        ← {t("nav.tasks")}
      </Link>
      <div className="editor-title">
        <div className="viewer-meta">
          <span className="app-name" data-i18n="data">
            {tr.app}
          </span>
          <span className={`badge badge-${status}`}>{t(`status.${status}`)}</span>
          {tr.originalOutcome && (
            <span className="meta-item">
              {t("editor.modelSaid")} <span className={`badge badge-${tr.originalOutcome}`}>{t(`outcome.${tr.originalOutcome}`)}</span>
            </span>
          )}
          <span className="meta-item muted meta-source" data-i18n="data" title={`${tr.source}${tr.sourceRef ? ` · ${tr.sourceRef}` : ""}`}>
            {tr.source}
            {tr.sourceRef ? ` · ${tr.sourceRef}` : ""}
          </span>
        </div>
        {/* One line, so the header stays short at 1280x720: the whole instruction on hover (title) and,
            clicked, laid over the canvas below without moving it. */}
        {/* The slot keeps the line's height in the header while the open instruction lies over the canvas. */}
        <div className="instruction-slot">
          <h1
            className={`instruction-title${isInstructionOpen ? " is-open" : ""}`}
            data-i18n="data"
            title={tr.instruction}
            tabIndex={0}
            aria-expanded={isInstructionOpen}
            onClick={() => setInstructionOpen((o) => !o)}
            onKeyDown={(e) => {
              if (e.key === "Enter") setInstructionOpen((o) => !o);
              else if (e.key === "Escape") setInstructionOpen(false);
            }}
            onBlur={() => setInstructionOpen(false)}
          >
            {tr.instruction}
          </h1>
        </div>
      </div>
      <div className="editor-task-controls">
        <fieldset className="segmented" disabled={isReadOnly || annotation.isDiscarded} aria-label={t("editor.outcome")}>
          <legend>{t("editor.outcome")}</legend>
          {OUTCOMES.map((o) => (
            <label
              key={o}
              className={annotation.outcome === o ? `is-on is-${o}` : undefined}
              title={withKbd(t(`outcome.${o}`), shortcuts, `outcome.${o}`)}
            >
              <input type="radio" name="outcome" value={o} checked={annotation.outcome === o} onChange={() => editor.setOutcome(o)} />
              {t(`outcome.${o}`)}
            </label>
          ))}
        </fieldset>
        <label className="check" title={`${t("editor.discardHint")} (${kbdHint(shortcuts, "trajectory.discard")})`}>
          <input
            type="checkbox"
            checked={annotation.isDiscarded}
            disabled={isReadOnly}
            onChange={(e) => editor.setDiscarded(e.target.checked)}
          />
          {t("editor.discard")}
        </label>
        <SyncBadge autosave={autosave} />
        <button
          type="button"
          className="btn btn-ghost"
          onClick={editor.toggleHelp}
          title={withKbd(t("shortcut.help"), shortcuts, "help")}
          aria-label={t("shortcut.help")}
        >
          <span className="kbd">?</span>
        </button>
        {mode !== "fast" && (
          <div className="submit-wrap">
            {/* The line beside Submit always takes its place (empty when nothing blocks), so the header's
              height never changes as steps become complete: the canvas below stays where it is. */}
            <span className={`submit-blocker${submitError ? " is-error" : ""}`} id="submit-state" role={submitError ? "alert" : undefined}>
              {submitError ? errorMessage(submitError, t) : !isReadOnly && !canSubmit ? t("submit.notYet") : ""}
            </span>
            <button
              type="button"
              className="btn btn-primary"
              disabled={isReadOnly || isSubmitting}
              aria-describedby={canSubmit && !submitError ? undefined : "submit-state"}
              onClick={onSubmit}
              title={withKbd(t("editor.submit"), shortcuts, "submit")}
            >
              {isSubmitting ? t("editor.submitting") : t("editor.submit")}
            </button>
          </div>
        )}
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
