"use client";

import { useCallback } from "react";
import { TOOLS, type Tool } from "@/lib/canvas/editor";
import { kbdHint, withKbd } from "@/lib/canvas/shortcuts";
import { useT } from "@/lib/i18n/react";
import type { StepView } from "@/lib/domain/views";
import type { StepToolCall } from "@/lib/domain/tool-call";
import { StepCanvas } from "@/components/step-canvas/step-canvas";
import { screenshotUrl } from "@/lib/queries/trajectories";
import { elementBoxesOf, importedBoxesOf } from "@/lib/canvas/overlay";
import { useEditorContext } from "./editor-context";
import { Kbd } from "./kbd";
import { useCurrentAnnotation, useEditor } from "./use-editor";

/** The editor and its registry come from the page's EditorProvider. */
type Props = {
  step: StepView;
  /** The step after this one (its screenshot shows what this step's action led to), null on the last step. */
  nextStep: StepView | null;
  stepCount: number;
  /** The model's suggested action for this step, not yet accepted: drawn over the screenshot. */
  suggested?: StepToolCall | null;
  /** An evaluation run's failed prediction on this step: the model's wrong action, drawn as such. */
  failedPrediction?: StepToolCall | null;
  /** The person's layout settings (kept on the server). */
  isSideCollapsed: boolean;
  onToggleSide: () => void;
  /** The person's settings have not arrived yet: the fold toggle waits (the editor itself waits for them). */
  isSideToggleWaiting?: boolean;
  isNextScreenShown: boolean;
  /** Without it (a review fix: the next step is right below) there is no next-screen toggle. */
  onToggleNextScreen?: () => void;
};

export function CanvasPane({
  step,
  nextStep,
  stepCount,
  suggested = null,
  failedPrediction = null,
  isSideCollapsed,
  onToggleSide,
  isSideToggleWaiting = false,
  isNextScreenShown,
  onToggleNextScreen,
}: Props) {
  const t = useT();
  const { editor, shortcuts, hints } = useEditorContext();
  const tool = useEditor(editor, (s) => s.tool);
  const isBoxSelected = useEditor(editor, (s) => s.isBoxSelected);
  const cutAfter = useEditor(editor, (s) => s.doc.trajectory.cutAfter);
  const canUndo = useEditor(editor, (s) => s.history.past.length > 0);
  const canRedo = useEditor(editor, (s) => s.history.future.length > 0);
  const isReadOnly = useEditor(editor, (s) => s.isReadOnly);
  const annotation = useCurrentAnnotation(editor);

  const onImageLoaded = useCallback((isImageLoaded: boolean) => editor.set({ isImageLoaded }), [editor]);

  const header = (
    <>
      <div className="canvas-nav">
        <button
          className="btn btn-icon"
          type="button"
          onClick={editor.prev}
          disabled={step.index === 0}
          aria-label={t("shortcut.stepPrev")}
          title={withKbd(t("shortcut.stepPrev"), shortcuts, "step.prev")}
        >
          ←
        </button>
        <span className="step-counter" role="status" aria-label={t("editor.stepCounter")}>
          {t("editor.stepOf", { n: step.index + 1, count: stepCount })}
        </span>
        <button
          className="btn btn-icon"
          type="button"
          onClick={editor.next}
          disabled={step.index >= stepCount - 1}
          aria-label={t("shortcut.stepNext")}
          title={withKbd(t("shortcut.stepNext"), shortcuts, "step.next")}
        >
          →
        </button>
      </div>
      <div className="canvas-tools" role="toolbar" aria-label={t("editor.tools")}>
        {TOOLS.map((x: Tool) => (
          <button
            key={x}
            type="button"
            className="btn tool-btn"
            aria-pressed={tool === x}
            disabled={isReadOnly && x !== "select"}
            onClick={() => editor.setTool(x)}
            title={withKbd(t(`tool.${x}.hint`), shortcuts, `tool.${x}`)}
          >
            {t(`tool.${x}`)} <Kbd keys={kbdHint(shortcuts, `tool.${x}`)} />
          </button>
        ))}
      </div>
      <div className="canvas-history">
        <button
          className="btn btn-icon"
          type="button"
          onClick={editor.undo}
          disabled={!canUndo}
          aria-label={t("shortcut.undo")}
          title={withKbd(t("shortcut.undo"), shortcuts, "history.undo")}
        >
          ↶
        </button>
        <button
          className="btn btn-icon"
          type="button"
          onClick={editor.redo}
          disabled={!canRedo}
          aria-label={t("shortcut.redo")}
          title={withKbd(t("shortcut.redo"), shortcuts, "history.redo")}
        >
          ↷
        </button>
        {onToggleNextScreen && (
          <button
            className="btn btn-small next-screen-toggle"
            type="button"
            aria-pressed={isNextScreenShown}
            onClick={onToggleNextScreen}
            title={withKbd(t("layout.nextScreenHint"), shortcuts, "view.nextScreen")}
          >
            {t("layout.nextScreen")} <Kbd keys={kbdHint(shortcuts, "view.nextScreen")} />
          </button>
        )}
      </div>
    </>
  );

  return (
    <section className={`canvas-pane has-side-tools${isNextScreenShown ? " has-next-screen" : ""}`} aria-label={t("editor.screenshot")}>
      <div className="canvas-host" data-tool={tool}>
        <StepCanvas
          view={editor.view}
          stepKey={step.id}
          screenshot={step.screenshot}
          model={step.original.toolCall}
          corrected={annotation.toolCall}
          importedBoxes={importedBoxesOf(step)}
          elementBoxes={elementBoxesOf(step)}
          correctedBox={annotation.box}
          suggested={suggested}
          failedPrediction={failedPrediction}
          editor={editor}
          isBoxSelected={isBoxSelected}
          isDimmed={cutAfter !== null && step.index > cutAfter}
          paintIndex={step.index}
          onImageLoaded={onImageLoaded}
          hints={hints}
          header={header}
          isSideCollapsed={isSideCollapsed}
          onToggleSide={onToggleSide}
          isSideToggleWaiting={isSideToggleWaiting}
        />
      </div>
      {isNextScreenShown && <NextScreen step={nextStep} />}
    </section>
  );
}

/**
 * The next step's screenshot beside the canvas: what the screen looked like after this step's
 * action ran, so a person can judge whether it worked. A plain picture (no marks): the marks
 * belong to the step being edited.
 */
function NextScreen({ step }: { step: StepView | null }) {
  const t = useT();
  return (
    <figure className="next-screen" aria-label={t("layout.nextScreen")}>
      {step ? (
        <>
          <img
            src={screenshotUrl(step.screenshot.sha256, "display")}
            alt={t("layout.nextScreenOf", { n: step.index + 1 })}
            width={step.screenshot.width}
            height={step.screenshot.height}
          />
          <figcaption>{t("layout.nextScreenOf", { n: step.index + 1 })}</figcaption>
        </>
      ) : (
        <figcaption>{t("layout.nextScreenNone")}</figcaption>
      )}
    </figure>
  );
}
