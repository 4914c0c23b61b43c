"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { editorShortcuts, type PageActions } from "@/lib/canvas/editor-shortcuts";
import { trajectoryQuery } from "@/lib/queries/trajectories";
import type { TrajectoryView } from "@/lib/domain/views";
import { useShortcuts } from "@/components/shortcuts/use-shortcuts";
import { ErrorBox, Loading } from "@/components/ui/states";
import { useT } from "@/lib/i18n/react";
import { buildEditor } from "../build-editor";
import { EditorProvider } from "../editor-context";
import { HelpOverlay } from "../help-overlay";
import { usePrefetchScreenshots, useStepInUrl } from "../step-hooks";
import { useExposeForTests } from "../test-hooks";
import { useEditor } from "../use-editor";
import { CanvasPane } from "./canvas-pane";
import { StepPanel } from "./step-panel";
import { ThumbStrip } from "./thumb-strip";
import { ViewerHeader } from "./viewer-header";
import "../editor.css";

/**
 * The page actions of a read-only editor: nothing to save, submit or type into. The registry refuses
 * their entries anyway (none is `readonlyOk`); these only make the refusal harmless if one slipped through.
 */
const NOTHING: PageActions = { save: () => undefined, submit: () => undefined, focusThought: () => undefined };

/** The trajectory for whoever may not annotate it: the editor engine, read-only, in the viewer's layout. */
export function ReadOnlyView({ id, initialStepIndex }: { id: string; initialStepIndex: number }) {
  const t = useT();
  const query = useQuery(trajectoryQuery(id));
  if (query.error) {
    return (
      <main className="page">
        <ErrorBox error={query.error} />
      </main>
    );
  }
  if (!query.data) return <Loading>{t("viewer.loading")}</Loading>;
  return <LoadedView trajectory={query.data} initialStepIndex={initialStepIndex} />;
}

function LoadedView({ trajectory, initialStepIndex }: { trajectory: TrajectoryView; initialStepIndex: number }) {
  const [editor] = useState(() => buildEditor(trajectory, { stepIndex: initialStepIndex, mode: "full", isReadOnly: true }));
  const shortcuts = useMemo(() => editorShortcuts(editor, NOTHING), [editor]);
  const stepIndex = useEditor(editor, (s) => s.stepIndex);
  const isHelpOpen = useEditor(editor, (s) => s.isHelpOpen);
  const step = trajectory.steps[stepIndex];
  useShortcuts(shortcuts, editor.get);
  useStepInUrl(stepIndex);
  usePrefetchScreenshots(trajectory, stepIndex);
  useExposeForTests(editor, null, shortcuts);

  if (!step) return null;
  return (
    <EditorProvider editor={editor} shortcuts={shortcuts}>
      <main className="viewer">
        <ViewerHeader trajectory={trajectory} />
        <div className="viewer-main">
          <CanvasPane step={step} stepCount={trajectory.steps.length} />
          <StepPanel step={step} stepCount={trajectory.steps.length} />
        </div>
        <ThumbStrip steps={trajectory.steps} />
        {isHelpOpen && <HelpOverlay shortcuts={shortcuts} onClose={editor.toggleHelp} />}
      </main>
    </EditorProvider>
  );
}
