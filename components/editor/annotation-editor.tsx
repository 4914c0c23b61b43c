"use client";

import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useShortcuts } from "@/components/shortcuts/use-shortcuts";
import { createAutosave, restoreDrafts, type Autosave } from "@/lib/canvas/autosave";
import { snapTargetsOf } from "@/lib/canvas/snap";
import { createEditor, TRAJECTORY_KEY, viewTransform, type DocValue, type Editor, type Synced } from "@/lib/canvas/editor";
import { editorShortcuts } from "@/lib/canvas/editor-shortcuts";
import {
  annotationOf,
  isEditableStatus,
  saveTrajectoryInput,
  stepAnnotationSchema,
  submitProblems,
  trajectoryAnnotationOf,
} from "@/lib/domain/annotation";
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
import { StepForm, THOUGHT_STATE_ID } from "./step-form";
import { ReviewNotes } from "./review-notes";
import { StepStrip } from "./step-strip";
import { createSuggestions, SuggestionPanel, useSuggestedAction } from "./suggestion-panel";
import { useEditor } from "./use-editor";
import "./editor.css";
import { usePrefetchScreenshots, useStepInUrl } from "@/components/step-viewer/step-hooks";
import { usePersonSetting, useLocalSettingsMigration } from "@/components/ui/person-settings";
import { Splitter } from "@/components/ui/splitter";
import { SIDE_PANEL_WIDTH } from "@/lib/domain/person-settings";
import { cachedPersonSettings, personSettingsQuery, savePersonSettings } from "@/lib/queries/person-settings";

/** Heartbeat interval: the lease lasts ten minutes, renewed every minute while the editor is open. */
const HEARTBEAT_MS = 60_000;

export function AnnotationEditor({ id, initialStepIndex }: { id: string; initialStepIndex: number }) {
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
  return <LoadedEditor trajectory={query.data} initialStepIndex={initialStepIndex} />;
}

/** Drafts belong to one person's work on one trajectory (the editor is only ever the assignee's). */
const draftScope = (t: TrajectoryView) => `${t.assigneeId ?? "none"}.${t.id}`;

/** Build the engine from the server's view, with local drafts laid over it (loading is never an undo step). */
function buildEditor(trajectory: TrajectoryView, stepIndex: number): Editor {
  const server: Record<string, Synced<DocValue>> = {
    [TRAJECTORY_KEY]: { version: trajectory.version, value: trajectoryAnnotationOf(trajectory) },
  };
  const steps: Record<string, ReturnType<typeof annotationOf>> = {};
  for (const s of trajectory.steps) {
    steps[s.id] = annotationOf(s);
    server[s.id] = { version: s.version, value: steps[s.id]! };
  }
  const isReadOnly = !isEditableStatus(trajectory.status);
  const restored = isReadOnly
    ? { doc: { trajectory: trajectoryAnnotationOf(trajectory), steps }, server, conflicts: {} }
    : restoreDrafts({ trajectory: trajectoryAnnotationOf(trajectory), steps }, server, localDrafts(draftScope(trajectory)));
  return createEditor({
    trajectoryId: trajectory.id,
    steps: trajectory.steps.map((s) => ({
      id: s.id,
      index: s.index,
      size: { width: s.screenshot.width, height: s.screenshot.height },
      targets: snapTargetsOf(s),
    })),
    stepIndex,
    doc: restored.doc,
    server: restored.server,
    conflicts: restored.conflicts,
    isReadOnly,
  });
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

function LoadedEditor({ trajectory, initialStepIndex }: { trajectory: TrajectoryView; initialStepIndex: number }) {
  const t = useT();
  const client = useQueryClient();
  const [editor] = useState(() => buildEditor(trajectory, initialStepIndex));
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
  const submit = useSubmitTrajectory(trajectory.id);
  const stepIndex = useEditor(editor, (s) => s.stepIndex);
  const isHelpOpen = useEditor(editor, (s) => s.isHelpOpen);
  const doc = useEditor(editor, (s) => s.doc);
  const step = trajectory.steps[stepIndex]!;
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
      }),
    [editor, autosave, client, suggestions, doSubmit],
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
  useExposeForTests(editor, autosave);

  return (
    <main className="editor">
      <EditorHeader
        trajectory={trajectory}
        editor={editor}
        autosave={autosave}
        shortcuts={shortcuts}
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
        {isSubmitted && <Submitted />}
      </div>
      <div className="editor-main" style={{ ["--side-width" as string]: `${sideWidth}px` }}>
        <CanvasPane
          editor={editor}
          step={step}
          nextStep={trajectory.steps[stepIndex + 1] ?? null}
          stepCount={trajectory.steps.length}
          shortcuts={shortcuts}
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
          <ReviewNotes trajectoryId={trajectory.id} stepIndex={stepIndex} onPickStep={editor.goTo} />
          <SuggestionPanel editor={editor} suggestions={suggestions} step={step} />
          <StepForm editor={editor} step={step} shortcuts={shortcuts} isSubmitAttempted={isSubmitAttempted} />
        </div>
      </div>
      <StepStrip editor={editor} steps={trajectory.steps} />
      {isHelpOpen && <HelpOverlay shortcuts={shortcuts} onClose={editor.toggleHelp} notes={t("shortcut.inFields")} />}
      <MergeDialog editor={editor} steps={trajectory.steps} />
      <p className="sr-only" aria-live="polite">
        {t("editor.stepOf", { n: stepIndex + 1, count: trajectory.steps.length })}
      </p>
    </main>
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

declare global {
  interface Window {
    __studioEditor?: {
      state: () => ReturnType<Editor["get"]>;
      sync: () => ReturnType<Autosave["state"]["get"]>;
      /** Stage transform: display pixels per original pixel and the image's top-left, in stage pixels. */
      view: () => ReturnType<typeof viewTransform>;
      /** Save what waits now (instead of after the debounce); resolves when the server answered. */
      flush: () => Promise<void>;
    };
  }
}

/** The engine's state for browser tests (test builds only): read the store, never pixels. */
function useExposeForTests(editor: Editor, autosave: Autosave) {
  useEffect(() => {
    // Test builds only: the browser tests' build sets NEXT_PUBLIC_STUDIO_TEST_HOOKS=1 (scripts/test-all.mjs,
    // playwright.config.ts). Written out here, not imported, so a production build inlines it and drops the hook.
    if (process.env.NEXT_PUBLIC_STUDIO_TEST_HOOKS !== "1") return;
    window.__studioEditor = {
      state: editor.get,
      sync: autosave.state.get,
      view: () => viewTransform(editor.get()),
      flush: () => autosave.flush(),
    };
    return () => {
      window.__studioEditor = undefined;
    };
  }, [editor, autosave]);
}
