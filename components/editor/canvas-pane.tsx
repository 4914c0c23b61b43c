"use client";

import { useCallback } from "react";
import { TOOLS, type Editor, type EditorState, type Tool } from "@/lib/canvas/editor";
import { kbdHint, type Shortcut } from "@/lib/canvas/shortcuts";
import { zoomHints } from "@/lib/canvas/view-shortcuts";
import { useT } from "@/lib/i18n/react";
import type { StepView } from "@/lib/domain/views";
import type { StepToolCall } from "@/lib/domain/tool-call";
import { StepCanvas } from "@/components/step-canvas/step-canvas";
import { elementBoxesOf, importedBoxesOf } from "@/lib/canvas/overlay";
import { useCurrentAnnotation, useEditor } from "./use-editor";

type Props = {
  editor: Editor;
  step: StepView;
  stepCount: number;
  shortcuts: Shortcut<EditorState>[];
  /** The model's suggested action for this step, not yet accepted: drawn over the screenshot. */
  suggested?: StepToolCall | null;
};

export function CanvasPane({ editor, step, stepCount, shortcuts, suggested = null }: Props) {
  const t = useT();
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
          title={`${t("shortcut.stepPrev")} (${kbdHint(shortcuts, "step.prev")})`}
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
          title={`${t("shortcut.stepNext")} (${kbdHint(shortcuts, "step.next")})`}
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
            title={`${t(`tool.${x}.hint`)} (${kbdHint(shortcuts, `tool.${x}`)})`}
          >
            {t(`tool.${x}`)} <span className="kbd">{kbdHint(shortcuts, `tool.${x}`)}</span>
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
          title={`${t("shortcut.undo")} (${kbdHint(shortcuts, "history.undo")})`}
        >
          ↶
        </button>
        <button
          className="btn btn-icon"
          type="button"
          onClick={editor.redo}
          disabled={!canRedo}
          aria-label={t("shortcut.redo")}
          title={`${t("shortcut.redo")} (${kbdHint(shortcuts, "history.redo")})`}
        >
          ↷
        </button>
      </div>
    </>
  );

  return (
    <section className="canvas-pane has-side-tools" aria-label={t("editor.screenshot")}>
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
          editor={editor}
          isBoxSelected={isBoxSelected}
          isDimmed={cutAfter !== null && step.index > cutAfter}
          paintIndex={step.index}
          onImageLoaded={onImageLoaded}
          hints={zoomHints(shortcuts)}
          header={header}
        />
      </div>
    </section>
  );
}
