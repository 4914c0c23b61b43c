"use client";

import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useShortcuts } from "@/components/shortcuts/use-shortcuts";
import { createAutosave, type Autosave } from "@/lib/canvas/autosave";
import { TRAJECTORY_KEY, type EditorMode } from "@/lib/canvas/editor";
import { editorShortcuts } from "@/lib/canvas/editor-shortcuts";
import { isEditableStatus, saveTrajectoryInput, stepAnnotationSchema, submitProblems } from "@/lib/domain/annotation";
import { useT } from "@/lib/i18n/react";
import { renewLeaseRequest, saveStepRequest, saveTrajectoryRequest, useSubmitTrajectory } from "@/lib/queries/annotation";
import { trajectoryKeys, trajectoryQuery } from "@/lib/queries/trajectories";
import type { StepView, TrajectoryView } from "@/lib/domain/views";
import { ErrorBox, Loading } from "@/components/ui/states";
import { CanvasPane } from "./canvas-pane";
import { localDrafts } from "./drafts";
import { EditorHeader } from "./editor-header";
import { HelpOverlay } from "./help-overlay";
import { MergeDialog } from "./merge-dialog";
import { SubmitBlocked, Submitted } from "./submit-panel";
import { FastLanePanel, LaneSwitch } from "./fast-lane-panel";
import { useFastLaneSubmit } from "@/lib/queries/lane";
import { StepForm, THOUGHT_STATE_ID } from "./step-form";
import { ReviewNotes } from "./review-notes";
import { StepStrip } from "./step-strip";
import { createSuggestions, SuggestionPanel, useSuggestedAction } from "./suggestion-panel";
import { useActiveTime } from "./use-active-time";
import { useEditor } from "./use-editor";
import "./editor.css";
import { usePrefetchScreenshots, useStepInUrl } from "./step-hooks";
import { buildEditor, draftScope } from "./build-editor";
import { useExposeForTests } from "./test-hooks";
import { EditorProvider } from "./editor-context";
import { usePersonSetting, useLocalSettingsMigration } from "@/components/ui/person-settings";
import { Splitter } from "@/components/ui/splitter";
import { SIDE_PANEL_WIDTH } from "@/lib/domain/person-settings";
import { cachedPersonSettings, personSettingsQuery, savePersonSettings } from "@/lib/queries/person-settings";

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
  return <LoadedEditor trajectory={query.data} initialStepIndex={initialStepIndex} initialMode={initialMode} />;
}

/**
 * A saved step's provenance (typed, suggested-accepted, suggested-edited...) is decided by the server:
 * put it into the trajectory's cached view so the provenance line shows it at once, not on reload.
 */
function showProvenance(client: QueryClient, trajectoryId: string, saved: StepView) {
  client.setQueryData(
    trajectoryKeys.detail(trajectoryId),
    (t: TrajectoryView | undefined) =>
      t && { ...t, steps: t.steps.map((s) => (s.id === saved.id ? { ...s, provenance: saved.provenance } : s)) },
  );
}

function LoadedEditor({
  trajectory,
  initialStepIndex,
  initialMode,
}: {
  trajectory: TrajectoryView;
  initialStepIndex: number;
  initialMode: EditorMode;
}) {
  const t = useT();
  const client = useQueryClient();
  const [editor] = useState(() => buildEditor(trajectory, { stepIndex: initialStepIndex, mode: initialMode, withDrafts: true }));
  const [autosave] = useState<Autosave>(() =>
    createAutosave(editor, {
      drafts: localDrafts(draftScope(trajectory)),
      isValid: (key, value) =>
        (key === TRAJECTORY_KEY ? saveTrajectoryInput.omit({ version: true }) : stepAnnotationSchema).safeParse(value).success,
      api: {
        save: (key, value, version) =>
          key === TRAJECTORY_KEY
            ? saveTrajectoryRequest(trajectory.id, value as never, version)
            : saveStepRequest(key, value as never, version, (saved) => showProvenance(client, trajectory.id, saved)),
      },
    }),
  );
  useEffect(() => () => autosave.dispose(), [autosave]);
  const [suggestions] = useState(() => createSuggestions(editor));
  useEffect(() => suggestions.watch(), [suggestions]);
  const submit = useSubmitTrajectory(trajectory.id);
  const fastSubmit = useFastLaneSubmit(trajectory.id);
  const [fastDone, setFastDone] = useState<"submitted" | "queued" | null>(null);
  const mode = useEditor(editor, (s) => s.mode);
  const firstError = useEditor(editor, (s) => s.firstError);
  const stepIndex = useEditor(editor, (s) => s.stepIndex);
  const isHelpOpen = useEditor(editor, (s) => s.isHelpOpen);
  const doc = useEditor(editor, (s) => s.doc);
  const step = trajectory.steps[stepIndex]!;
  useActiveTime(trajectory.id, step.id);
  const suggestedAction = useSuggestedAction(suggestions, step.id);

  const problems = useMemo(
    () =>
      submitProblems(
        doc.trajectory,
        trajectory.steps.map((s) => ({ index: s.index, annotation: doc.steps[s.id]!, size: s.screenshot })),
      ),
    [doc, trajectory.steps],
  );
  const canSubmit = problems.length === 0 && !editor.get().isReadOnly;
  // After a blocked attempt the open problems stay listed (live, until fixed or closed) and every
  // step shows all of its problems; after a submit that went through, the confirmation.
  const [isSubmitAttempted, setSubmitAttempted] = useState(false);
  const [isBlockedShown, setBlockedShown] = useState(false);
  const [isSubmitted, setSubmitted] = useState(false);

  const doSubmit = useCallback(async () => {
    if (submit.isPending || editor.get().isReadOnly) return;
    if (problems.length > 0) {
      setSubmitAttempted(true);
      setBlockedShown(true);
      const first = problems.find((p) => p.code === "step.incomplete");
      if (first?.code === "step.incomplete") editor.goTo(first.stepIndex);
      return;
    }
    await autosave.flush();
    const s = autosave.state.get();
    if (s.status !== "saved") return;
    const view = await submit.mutateAsync().catch(() => null);
    if (view) {
      editor.setReadOnly(!isEditableStatus(view.status));
      setSubmitted(true);
    }
  }, [autosave, editor, submit, problems]);

  /** The fast lane's hand-in: what waits is saved first, then the outcome and the mark go with the trajectory's version. */
  const doFastSubmit = useCallback(async () => {
    const s = editor.get();
    if (fastSubmit.isPending || s.isReadOnly || s.mode !== "fast") return;
    const outcome = s.doc.trajectory.outcome;
    if (outcome === null || s.firstError === null) return;
    await autosave.flush();
    if (autosave.state.get().status !== "saved") return;
    const version = editor.get().server[TRAJECTORY_KEY]!.version;
    const view = await fastSubmit
      .mutateAsync({ version, outcome, firstError: s.firstError === "none" ? null : s.firstError })
      .catch(() => null);
    if (view) {
      editor.setReadOnly(true);
      setFastDone(view.status === "submitted" ? "submitted" : "queued");
    }
  }, [autosave, editor, fastSubmit]);

  const personId = trajectory.assigneeId ?? "none";
  const shortcuts = useMemo(
    () =>
      editorShortcuts(editor, {
        save: () => void autosave.flush(),
        submit: () => void doSubmit(),
        focusThought: () => document.getElementById(THOUGHT_STATE_ID)?.focus(),
        isVerdictAdvancing: () => cachedPersonSettings(client).verdictAdvances === true,
        acceptSuggestion: () => void suggestions.accept(),
        toggleNextScreen: () => void savePersonSettings(client, { isNextScreenShown: !cachedPersonSettings(client).isNextScreenShown }),
        submitFastLane: () => void doFastSubmit(),
      }),
    [editor, autosave, client, suggestions, doSubmit, doFastSubmit],
  );
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
            suggested={suggestedAction}
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
          <div className="side-panel">
            <LaneSwitch />
            {mode === "fast" && (
              <FastLanePanel
                stepCount={trajectory.steps.length}
                after={trajectory.fastLaneAfter}
                onSubmit={() => void doFastSubmit()}
                isSubmitting={fastSubmit.isPending}
                error={fastSubmit.error}
                done={fastDone}
              />
            )}
            <ReviewNotes trajectoryId={trajectory.id} stepIndex={stepIndex} onPickStep={editor.goTo} />
            {/* In the fast lane only the marked step is corrected on the spot: the normal step form, for it alone. */}
            {(mode === "full" || firstError === stepIndex) && (
              <>
                <SuggestionPanel suggestions={suggestions} step={step} />
                <StepForm step={step} isSubmitAttempted={isSubmitAttempted} />
              </>
            )}
          </div>
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
