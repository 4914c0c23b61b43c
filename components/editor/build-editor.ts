import { restoreDrafts } from "@/lib/canvas/autosave";
import { createEditor, TRAJECTORY_KEY, type DocValue, type Editor, type EditorMode, type Synced } from "@/lib/canvas/editor";
import { snapTargetsOf } from "@/lib/canvas/snap";
import { annotationOf, isEditableStatus, trajectoryAnnotationOf, type StepAnnotation } from "@/lib/domain/annotation";
import { fastLaneFirstError } from "@/lib/domain/lane";
import type { TrajectoryView } from "@/lib/domain/views";
import { localDrafts } from "./drafts";

/** Drafts belong to one person's work on one trajectory (the editor is only ever the assignee's). */
export const draftScope = (t: TrajectoryView) => `${t.assigneeId ?? "none"}.${t.id}`;

export type BuildOptions = {
  stepIndex: number;
  mode: EditorMode;
  /**
   * Force read-only (the viewer, for whoever may not annotate this trajectory). Without it the
   * trajectory's status decides: only a task still being worked on is editable.
   */
  isReadOnly?: boolean;
  /** Lay the person's local drafts over the server's values (the annotator's editor only). */
  withDrafts?: boolean;
};

/**
 * One engine for every mode, built from the server's view (loading is never an undo step): the
 * annotator's editor lays local drafts over it, the viewer and the review fix do not.
 */
export function buildEditor(trajectory: TrajectoryView, opts: BuildOptions): Editor {
  const server: Record<string, Synced<DocValue>> = {
    [TRAJECTORY_KEY]: { version: trajectory.version, value: trajectoryAnnotationOf(trajectory) },
  };
  const steps: Record<string, StepAnnotation> = {};
  for (const s of trajectory.steps) {
    steps[s.id] = annotationOf(s);
    server[s.id] = { version: s.version, value: steps[s.id]! };
  }
  const isReadOnly = opts.isReadOnly ?? !isEditableStatus(trajectory.status);
  const loaded = { trajectory: trajectoryAnnotationOf(trajectory), steps };
  const restored =
    isReadOnly || !opts.withDrafts
      ? { doc: loaded, server, conflicts: {} }
      : restoreDrafts(loaded, server, localDrafts(draftScope(trajectory)));
  return createEditor({
    trajectoryId: trajectory.id,
    steps: trajectory.steps.map((s) => ({
      id: s.id,
      index: s.index,
      size: { width: s.screenshot.width, height: s.screenshot.height },
      targets: snapTargetsOf(s),
    })),
    stepIndex: opts.stepIndex,
    doc: restored.doc,
    server: restored.server,
    conflicts: restored.conflicts,
    isReadOnly,
    mode: opts.mode,
    // Work handed in through the fast lane shows its first error again (none when every step was good).
    firstError: trajectory.lane === "fast" ? (fastLaneFirstError(trajectory.steps) ?? "none") : null,
  });
}
