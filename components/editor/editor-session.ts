"use client";

import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { createAutosave, type Autosave } from "@/lib/canvas/autosave";
import { TRAJECTORY_KEY, type Editor, type EditorMode, type EditorState } from "@/lib/canvas/editor";
import { editorShortcuts } from "@/lib/canvas/editor-shortcuts";
import { isEditableStatus, saveTrajectoryInput, stepAnnotationSchema, submitProblems } from "@/lib/domain/annotation";
import type { StepView, TrajectoryView } from "@/lib/domain/views";
import { saveStepRequest, saveTrajectoryRequest, type useSubmitTrajectory } from "@/lib/queries/annotation";
import type { useFastLaneSubmit } from "@/lib/queries/lane";
import { cachedPersonSettings, savePersonSettings } from "@/lib/queries/person-settings";
import { trajectoryKeys } from "@/lib/queries/trajectories";
import { buildEditor, draftScope } from "./build-editor";
import { localDrafts } from "./drafts";
import { THOUGHT_STATE_ID } from "./step-form-sections";
import { createSuggestions, type Suggestions } from "./suggestion-panel";

// The annotation editor's working parts, as hooks the page calls in this order: the engine with its
// autosave and suggestions, the submit and fast-lane hand-ins, and the page's shortcut registry.

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

/** The editor engine for one trajectory, created once, with its autosave and model suggestions (disposed on unmount). */
export function useEditorSession(trajectory: TrajectoryView, initialStepIndex: number, initialMode: EditorMode, isHandedIn = false) {
  const client = useQueryClient();
  // Handed in (even when queued back to the pool, still in progress): the person's part is done, read-only.
  const [editor] = useState(() =>
    buildEditor(trajectory, {
      stepIndex: initialStepIndex,
      mode: initialMode,
      withDrafts: true,
      ...(isHandedIn ? { isReadOnly: true } : {}),
    }),
  );
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
  return { client, editor, autosave, suggestions };
}

/**
 * Submit: blocked while problems are open (they stay listed, live, until fixed or closed, and every
 * step shows all of its problems); after a submit that went through, the confirmation.
 */
export function useSubmitFlow({
  editor,
  autosave,
  submit,
  steps,
  doc,
}: {
  editor: Editor;
  autosave: Autosave;
  submit: ReturnType<typeof useSubmitTrajectory>;
  steps: TrajectoryView["steps"];
  doc: EditorState["doc"];
}) {
  const problems = useMemo(
    () =>
      submitProblems(
        doc.trajectory,
        steps.map((s) => ({ index: s.index, annotation: doc.steps[s.id]!, size: s.screenshot })),
      ),
    [doc, steps],
  );
  const canSubmit = problems.length === 0 && !editor.get().isReadOnly;
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

  return { problems, canSubmit, isSubmitAttempted, isBlockedShown, setBlockedShown, isSubmitted, doSubmit };
}

/** The fast lane's hand-in: what waits is saved first, then the outcome and the mark go with the trajectory's version. */
export function useFastSubmit(
  editor: Editor,
  autosave: Autosave,
  fastSubmit: ReturnType<typeof useFastLaneSubmit>,
  onHandedIn: (handIn: { version: number; done: "submitted" | "queued"; stepIndex: number }) => void,
) {
  return useCallback(async () => {
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
      onHandedIn({ version: view.version, done: view.status === "submitted" ? "submitted" : "queued", stepIndex: editor.get().stepIndex });
    }
  }, [autosave, editor, fastSubmit, onHandedIn]);
}

/** The page's one shortcut registry: the engine's keys plus what only the page can do. */
export function useAnnotationShortcuts({
  editor,
  autosave,
  client,
  suggestions,
  doSubmit,
  doFastSubmit,
}: {
  editor: Editor;
  autosave: Autosave;
  client: QueryClient;
  suggestions: Suggestions;
  doSubmit: () => Promise<void>;
  doFastSubmit: () => Promise<void>;
}) {
  return useMemo(
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
}
