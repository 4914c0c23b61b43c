"use client";

import { withKbd } from "@/lib/canvas/shortcuts";
import type { FastLaneAfter } from "@/lib/domain/lane";
import { useT } from "@/lib/i18n/react";
import { ErrorBox } from "@/components/ui/states";
import { useEditorContext } from "./editor-context";
import { useEditor } from "./use-editor";
import "./fast-lane.css";

/** The work mode of the one editor: full correction, or the first-error fast lane (Shift+L). */
export function LaneSwitch() {
  const t = useT();
  const { editor, shortcuts } = useEditorContext();
  const mode = useEditor(editor, (s) => s.mode);
  const isReadOnly = useEditor(editor, (s) => s.isReadOnly);
  return (
    <fieldset
      className="segmented lane-switch"
      disabled={isReadOnly}
      aria-label={t("lane.mode.switch")}
      title={withKbd(t("lane.mode.switch"), shortcuts, "lane.toggle")}
    >
      <legend>{t("lane.mode.switch")}</legend>
      {(["full", "fast"] as const).map((m) => (
        <label key={m} className={mode === m ? "is-on" : undefined}>
          <input type="radio" name="lane-mode" value={m} checked={mode === m} onChange={() => editor.setMode(m)} />
          {t(`lane.mode.${m}`)}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The fast lane's panel: where the person is, the outcome, the first error marked so far and what handing in
 * will do (from the project's setting), with the mark and hand-in buttons beside their keys.
 */
export function FastLanePanel({
  stepCount,
  after,
  onSubmit,
  isSubmitting,
  error,
  done,
}: {
  stepCount: number;
  after: FastLaneAfter;
  onSubmit: () => void;
  isSubmitting: boolean;
  error: unknown;
  done: "submitted" | "queued" | null;
}) {
  const t = useT();
  const { editor, shortcuts } = useEditorContext();
  const stepIndex = useEditor(editor, (s) => s.stepIndex);
  const firstError = useEditor(editor, (s) => s.firstError);
  const outcome = useEditor(editor, (s) => s.doc.trajectory.outcome);
  const isReadOnly = useEditor(editor, (s) => s.isReadOnly);
  const isReady = outcome !== null && firstError !== null;
  const isMarkedHere = firstError === stepIndex;
  return (
    <section className="panel panel-pad fast-lane" aria-label={t("lane.title")} data-testid="fast-lane">
      <h2>{t("lane.title")}</h2>
      <p className="muted">{t("lane.hint")}</p>
      <dl className="fast-lane-facts">
        <div>
          <dt>{t("lane.step", { n: stepIndex + 1, count: stepCount })}</dt>
        </div>
        <div>
          <dt>{t("lane.outcome")}</dt>
          <dd data-testid="fast-lane-outcome">{outcome ? t(`outcome.${outcome}`) : t("lane.outcome.unset")}</dd>
        </div>
        <div>
          <dt>{t("lane.firstError")}</dt>
          <dd data-testid="fast-lane-first-error">
            {firstError === null
              ? t("lane.firstError.unset")
              : firstError === "none"
                ? t("lane.firstError.none")
                : t("lane.firstError.at", { n: firstError + 1 })}
          </dd>
        </div>
      </dl>
      {typeof firstError === "number" && (
        <p className="muted">
          {t("lane.before")} {t(after === "queue" ? "lane.after.queue" : "lane.after.cut")}
        </p>
      )}
      {isMarkedHere && !isReadOnly && (
        <p className="fast-lane-marked" role="status">
          {t("lane.marked")}
        </p>
      )}
      <div className="fast-lane-actions">
        <button
          type="button"
          className={isMarkedHere ? "btn is-on" : "btn"}
          aria-pressed={isMarkedHere}
          disabled={isReadOnly}
          onClick={editor.markFirstError}
          title={withKbd(t("lane.shortcut.mark"), shortcuts, "lane.mark")}
        >
          {t("lane.markHere")}
        </button>
        <button
          type="button"
          className={firstError === "none" ? "btn is-on" : "btn"}
          aria-pressed={firstError === "none"}
          disabled={isReadOnly}
          onClick={editor.markNoError}
          title={withKbd(t("lane.shortcut.none"), shortcuts, "lane.none")}
        >
          {t("lane.markNone")}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={isReadOnly || isSubmitting || !isReady}
          aria-describedby={!isReady && !isReadOnly ? "fast-lane-not-ready" : undefined}
          onClick={onSubmit}
          title={withKbd(t("lane.shortcut.submit"), shortcuts, "lane.submit")}
        >
          {isSubmitting ? t("lane.submitting") : t("lane.submit")}
        </button>
      </div>
      {!isReady && !isReadOnly && (
        <p className="muted" id="fast-lane-not-ready">
          {outcome === null && firstError === null
            ? t("lane.notReady")
            : outcome === null
              ? t("lane.notReady.outcome")
              : t("lane.notReady.firstError")}
        </p>
      )}
      {done && (
        <p className="fast-lane-done" role="status">
          {t(done === "queued" ? "lane.doneQueued" : "lane.done")}
        </p>
      )}
      {error !== null && error !== undefined && <ErrorBox error={error} />}
    </section>
  );
}
