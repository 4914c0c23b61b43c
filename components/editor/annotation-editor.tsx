"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useShortcuts } from "@/components/shortcuts/use-shortcuts";
import type { Autosave } from "@/lib/canvas/autosave";
import type { EditorMode, EditorState } from "@/lib/canvas/editor";
import { useT } from "@/lib/i18n/react";
import { renewLeaseRequest, useSubmitTrajectory } from "@/lib/queries/annotation";
import { trajectoryQuery } from "@/lib/queries/trajectories";
import { isEditableStatus } from "@/lib/domain/annotation";
import type { StepView, TrajectoryView } from "@/lib/domain/views";
import { ErrorBox, Loading } from "@/components/ui/states";
import { CanvasPane } from "./canvas-pane";
import { EditorHeader } from "./editor-header";
import { HelpOverlay } from "./help-overlay";
import { MergeDialog } from "./merge-dialog";
import { SubmitBlocked, Submitted } from "./submit-panel";
import { FastLanePanel, LaneSwitch } from "./fast-lane-panel";
import { useFastLaneSubmit } from "@/lib/queries/lane";
import { StepForm } from "./step-form";
import { ReviewNotes } from "./review-notes";
import { StepStrip } from "./step-strip";
import { SuggestionPanel, useSuggestedAction, type Suggestions } from "./suggestion-panel";
import { useActiveTime } from "./use-active-time";
import { useEditor } from "./use-editor";
import "./editor.css";
import { usePrefetchScreenshots, useStepInUrl } from "./step-hooks";
import { useExposeForTests } from "./test-hooks";
import { EditorProvider } from "./editor-context";
import { useAnnotationShortcuts, useEditorSession, useFastSubmit, useSubmitFlow } from "./editor-session";
import { usePersonSetting, useLocalSettingsMigration } from "@/components/ui/person-settings";
import { Splitter } from "@/components/ui/splitter";
import { SIDE_PANEL_WIDTH } from "@/lib/domain/person-settings";
import { personSettingsQuery } from "@/lib/queries/person-settings";

/** Heartbeat interval: the lease lasts ten minutes, renewed every minute while the editor is open. */
const HEARTBEAT_MS = 60_000;

export function AnnotationEditor({
  id,
  initialStepIndex,
  initialMode = "full",
}: {
  id: string;
  initialStepIndex: number;
  /** `fast` opens the first-error fast lane (`?lane=fast`); the mode switches with Shift+L either way. */
  initialMode?: EditorMode;
}) {
  const t = useT();
  const query = useQuery({ ...trajectoryQuery(id), staleTime: Infinity });
  const [handIn, setHandIn] = useState<HandIn | null>(null);
  // The panes open at the person's sizes at once, never at a default that then jumps (an error: defaults).
  const settings = useQuery(personSettingsQuery());
  if (query.error) {
    return (
      <main className="page">
        <ErrorBox error={query.error} />
      </main>
    );
  }
  if (!query.data || settings.isPending) return <Loading>{t("editor.loading")}</Loading>;
  // A fast-lane hand-in answers with the trajectory as it now is (already in the query cache): the engine is
  // built again from it, so the verdicts, the cut in the strip and the read-only state show at once.
  return (
    <LoadedEditor
      key={handIn ? `handed-in.${handIn.version}` : "working"}
      trajectory={query.data}
      initialStepIndex={handIn?.stepIndex ?? initialStepIndex}
      initialMode={handIn || isFastLaneWork(query.data) ? "fast" : initialMode}
      handIn={handIn}
      onHandedIn={setHandIn}
    />
  );
}

/** What a fast-lane hand-in left: the trajectory's new version, whether it was submitted or queued, and the step shown. */
type HandIn = { version: number; done: "submitted" | "queued"; stepIndex: number };

/** Work handed in through the fast lane and no longer editable opens in the fast lane, with its first error. */
const isFastLaneWork = (t: TrajectoryView) => t.lane === "fast" && !isEditableStatus(t.status);

function LoadedEditor({
  trajectory,
  initialStepIndex,
  initialMode,
  handIn,
  onHandedIn,
}: {
  trajectory: TrajectoryView;
  initialStepIndex: number;
  initialMode: EditorMode;
  handIn: HandIn | null;
  onHandedIn: (handIn: HandIn) => void;
}) {
  const t = useT();
  const { client, editor, autosave, suggestions } = useEditorSession(trajectory, initialStepIndex, initialMode, handIn !== null);
  const submit = useSubmitTrajectory(trajectory.id);
  const fastSubmit = useFastLaneSubmit(trajectory.id);
  const fastDone = handIn?.done ?? null;
  const mode = useEditor(editor, (s) => s.mode);
  const firstError = useEditor(editor, (s) => s.firstError);
  const stepIndex = useEditor(editor, (s) => s.stepIndex);
  const isHelpOpen = useEditor(editor, (s) => s.isHelpOpen);
  const doc = useEditor(editor, (s) => s.doc);
  const step = trajectory.steps[stepIndex]!;
  useActiveTime(trajectory.id, step.id);
  const shown = useSuggestedAction(suggestions, step.id);
  const { problems, canSubmit, isSubmitAttempted, isBlockedShown, setBlockedShown, isSubmitted, doSubmit } = useSubmitFlow({
    editor,
    autosave,
    submit,
    steps: trajectory.steps,
    doc,
  });
  const doFastSubmit = useFastSubmit(editor, autosave, fastSubmit, onHandedIn);
  const shortcuts = useAnnotationShortcuts({ editor, autosave, client, suggestions, doSubmit, doFastSubmit });

  const personId = trajectory.assigneeId ?? "none";
  useLocalSettingsMigration(personId);
  const [sideWidth, setSideWidth] = usePersonSetting("sidePanelWidth", SIDE_PANEL_WIDTH.default);
  const [isSideCollapsed, setSideCollapsed] = usePersonSetting("isLegendCollapsed", false);
  const [isNextScreenShown, setNextScreenShown] = usePersonSetting("isNextScreenShown", false);
  useShortcuts(shortcuts, editor.get);
  useStepInUrl(stepIndex);
  usePrefetchScreenshots(trajectory, stepIndex);
  useHeartbeat(trajectory.id, !editor.get().isReadOnly);
  useOnlineRetry(autosave);
  useExposeForTests(editor, autosave, shortcuts);

  return (
    <EditorProvider editor={editor} shortcuts={shortcuts}>
      <main className="editor">
        <EditorHeader
          trajectory={trajectory}
          autosave={autosave}
          mode={mode}
          canSubmit={canSubmit}
          isSubmitting={submit.isPending}
          submitError={submit.error}
          onSubmit={doSubmit}
        />
        {/* Notices lie over the top of the work area instead of pushing it down: the canvas never moves under the pointer. */}
        <div className="editor-notices">
          {isBlockedShown && problems.length > 0 && (
            <SubmitBlocked problems={problems} onPickStep={editor.goTo} onClose={() => setBlockedShown(false)} />
          )}
          {(isSubmitted || fastDone === "submitted") && <Submitted />}
        </div>
        <div className="editor-main" style={{ ["--side-width" as string]: `${sideWidth}px` }}>
          <CanvasPane
            step={step}
            nextStep={trajectory.steps[stepIndex + 1] ?? null}
            stepCount={trajectory.steps.length}
            suggested={shown.suggested}
            failedPrediction={shown.failedPrediction}
            isSideCollapsed={isSideCollapsed}
            onToggleSide={() => setSideCollapsed(!isSideCollapsed)}
            isNextScreenShown={isNextScreenShown}
            onToggleNextScreen={() => setNextScreenShown(!isNextScreenShown)}
          />
          <Splitter
            value={sideWidth}
            min={SIDE_PANEL_WIDTH.min}
            max={SIDE_PANEL_WIDTH.max}
            label={t("layout.splitter")}
            title={t("layout.splitterHint")}
            onChange={setSideWidth}
          />
          <SidePanel
            trajectory={trajectory}
            step={step}
            stepIndex={stepIndex}
            mode={mode}
            firstError={firstError}
            suggestions={suggestions}
            isSubmitAttempted={isSubmitAttempted}
            onPickStep={editor.goTo}
            fastLane={{ onSubmit: () => void doFastSubmit(), isSubmitting: fastSubmit.isPending, error: fastSubmit.error, done: fastDone }}
          />
        </div>
        <StepStrip steps={trajectory.steps} />
        {isHelpOpen && <HelpOverlay shortcuts={shortcuts} onClose={editor.toggleHelp} notes={t("shortcut.inFields")} />}
        <MergeDialog editor={editor} steps={trajectory.steps} />
        <p className="sr-only" aria-live="polite">
          {t("editor.stepOf", { n: stepIndex + 1, count: trajectory.steps.length })}
        </p>
      </main>
    </EditorProvider>
  );
}

/** The column beside the canvas: the lane switch, the fast lane's hand-in, review notes, then the step's suggestion and form. */
function SidePanel({
  trajectory,
  step,
  stepIndex,
  mode,
  firstError,
  suggestions,
  isSubmitAttempted,
  onPickStep,
  fastLane,
}: {
  trajectory: TrajectoryView;
  step: StepView;
  stepIndex: number;
  mode: EditorMode;
  firstError: EditorState["firstError"];
  suggestions: Suggestions;
  isSubmitAttempted: boolean;
  onPickStep: (index: number) => void;
  fastLane: { onSubmit: () => void; isSubmitting: boolean; error: unknown; done: "submitted" | "queued" | null };
}) {
  return (
    <div className="side-panel">
      <LaneSwitch />
      {mode === "fast" && <FastLanePanel stepCount={trajectory.steps.length} after={trajectory.fastLaneAfter} {...fastLane} />}
      <ReviewNotes trajectoryId={trajectory.id} stepIndex={stepIndex} onPickStep={onPickStep} />
      {/* In the fast lane only the marked step is corrected on the spot: the normal step form, for it alone. */}
      {(mode === "full" || firstError === stepIndex) && (
        <>
          <SuggestionPanel suggestions={suggestions} step={step} />
          <StepForm step={step} isSubmitAttempted={isSubmitAttempted} />
        </>
      )}
    </div>
  );
}

function useHeartbeat(id: string, isActive: boolean) {
  useEffect(() => {
    if (!isActive) return;
    const beat = () => void renewLeaseRequest(id).catch(() => undefined);
    beat();
    const timer = window.setInterval(beat, HEARTBEAT_MS);
    return () => window.clearInterval(timer);
  }, [id, isActive]);
}

/**
 * Back online: save what waited. No "leave this page?" prompt: unsaved edits are already in the
 * local drafts and come back on the next visit.
 */
function useOnlineRetry(autosave: Autosave) {
  useEffect(() => {
    const online = () => autosave.retry();
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [autosave]);
}
