"use client";

import { useCallback } from "react";
import type { StepView } from "@/lib/domain/views";
import { fillNodes } from "@/components/ui/format";
import { StepCanvas } from "@/components/step-canvas/step-canvas";
import { elementBoxesOf, importedBoxesOf } from "@/lib/canvas/overlay";
import { useT } from "@/lib/i18n/react";
import { usePersonSetting } from "@/components/ui/person-settings";
import { useEditorContext } from "../editor-context";

type Props = { step: StepView; stepCount: number };

/**
 * The read-only editor's canvas: the one step canvas on the engine's view, in the viewer's layout (no
 * tools, no undo). It gets no `editor`, so the pointer only pans (and shows the hand, not a tool's
 * cursor); wheel and keys zoom.
 */
export function CanvasPane({ step, stepCount }: Props) {
  const t = useT();
  const { editor, hints } = useEditorContext();
  const onImageLoaded = useCallback((isImageLoaded: boolean) => editor.set({ isImageLoaded }), [editor]);
  const [isSideCollapsed, setSideCollapsed, isSettingLoaded] = usePersonSetting("isLegendCollapsed", false);
  const header = (
    <>
      <div className="canvas-nav">
        <button
          className="btn"
          type="button"
          onClick={editor.prev}
          disabled={step.index === 0}
          aria-label={t("viewer.prev")}
          title={t("viewer.prevHint")}
        >
          ←
        </button>
        <span className="step-counter" role="status" aria-label={t("viewer.counter")}>
          {t("viewer.stepOf", { n: step.index + 1, count: stepCount })}
        </span>
        <button
          className="btn"
          type="button"
          onClick={editor.next}
          disabled={step.index >= stepCount - 1}
          aria-label={t("viewer.next")}
          title={t("viewer.nextHint")}
        >
          →
        </button>
      </div>
      <p className="keys-hint">
        {fillNodes(t("viewer.keys"), {
          prevNext: (
            <>
              <span className="kbd">←</span>
              <span className="kbd">→</span>
            </>
          ),
          homeEnd: (
            <>
              <span className="kbd">Home</span>
              <span className="kbd">End</span>
            </>
          ),
        })}
      </p>
    </>
  );
  return (
    <section className="canvas-pane has-side-tools" aria-label={t("viewer.screenshot")}>
      <div className="canvas-host">
        <StepCanvas
          view={editor.view}
          stepKey={step.id}
          screenshot={step.screenshot}
          model={step.original.toolCall}
          corrected={step.toolCall}
          importedBoxes={importedBoxesOf(step)}
          elementBoxes={elementBoxesOf(step)}
          correctedBox={step.box}
          paintIndex={step.index}
          onImageLoaded={onImageLoaded}
          hints={hints}
          header={header}
          isSideCollapsed={isSideCollapsed}
          onToggleSide={() => setSideCollapsed(!isSideCollapsed)}
          isSideToggleWaiting={!isSettingLoaded}
        />
      </div>
    </section>
  );
}
