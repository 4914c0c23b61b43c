import type { StepAnnotation, TrajectoryAnnotation } from "@/lib/domain/annotation";
import type { Box, Point, Size } from "@/lib/domain/geometry";
import type { History } from "./history";
import type { Store } from "./store";
import { toImage, transformOf, type Transform, type View, type ViewState } from "./view";

/**
 * The editor engine's state and the plain functions that read it, shared by its parts: the document
 * (lib/canvas/document.ts), the tools (lib/canvas/tools.ts) and the sync bookkeeping (lib/canvas/sync.ts),
 * which lib/canvas/editor.ts composes. Every point and box is in ORIGINAL screenshot pixels.
 */

export const TOOLS = ["select", "point", "swipe", "box"] as const;
export type Tool = (typeof TOOLS)[number];

/** Key of the trajectory-level annotation in the document; step annotations are keyed by step id. */
export const TRAJECTORY_KEY = "trajectory";

export type Doc = { trajectory: TrajectoryAnnotation; steps: Record<string, StepAnnotation> };
export type DocValue = TrajectoryAnnotation | StepAnnotation;
/**
 * What the engine knows of a step besides its annotation: its screenshot's size and the boxes the box
 * tool snaps to (lib/canvas/snap.ts snapTargetsOf: the screen's elements, else the candidate boxes),
 * all in original pixels.
 */
export type StepMeta = { id: string; index: number; size: Size; targets?: Box[] };

/** What the server last acknowledged for a key: its version and value. */
export type Synced<T> = { version: number; value: T };

/** A save answered 409: my base, their current value and version. */
export type Conflict = { base: DocValue; theirs: DocValue; version: number };

export type Handle = "nw" | "n" | "ne" | "e" | "se" | "s" | "sw" | "w";
export const HANDLES: readonly Handle[] = ["nw", "n", "ne", "e", "se", "s", "sw", "w"];

/** The gesture in progress between pointerdown and pointerup. */
export type Drag =
  | { kind: "point" }
  | { kind: "swipe"; from: Point }
  /**
   * `at`: where the pointer went down, stage pixels; `isDragging` once it has gone CLICK_PX from there
   * (until then the press is a click, which snaps to an element).
   */
  | { kind: "box-draw"; anchor: Point; at: Point; isDragging: boolean }
  | { kind: "box-move"; grab: Point; start: Box; at: Point; tool: Tool }
  | { kind: "box-resize"; handle: Handle; start: Box }
  | { kind: "pan" };

export type EditorState = {
  trajectoryId: string;
  steps: StepMeta[];
  stepIndex: number;
  doc: Doc;
  /** Server-acknowledged values, keyed like the document. */
  server: Record<string, Synced<DocValue>>;
  conflicts: Record<string, Conflict>;
  history: History;
  tool: Tool;
  isBoxSelected: boolean;
  /** The last box-tool click on a snap target (original pixels): the point the cycle keys walk the enclosing targets of. Never recorded. */
  snapPoint: { stepId: string; at: Point } | null;
  drag: Drag | null;
  /** Zoom, pan, layers and stage size (lib/canvas/view): never recorded, reset on each step. */
  view: ViewState;
  isReadOnly: boolean;
  isHelpOpen: boolean;
  isImageLoaded: boolean;
  /**
   * How the person works the task: `full` correction, or the first-error `fast` lane (lib/domain/lane.ts),
   * one engine either way. Like the view, never recorded in the undo history.
   */
  mode: EditorMode;
  /** Fast lane: the 0-based index of the step marked as the model's first error, "none", or null (not marked yet). */
  firstError: number | "none" | null;
};

/**
 * `full` and `fast`: the annotator's editor (correction, first-error lane); `review-fix`: a reviewer
 * correcting steps on the review page, whose changes are collected as the decision's fixes
 * (lib/canvas/review-fix.ts) instead of saved one by one. Read-only (the viewer) is `isReadOnly`, in any mode.
 */
export type EditorMode = "full" | "fast" | "review-fix";

/** Handles and the tap point are grabbed within this many display pixels. */
export const GRAB_PX = 8;
/** Smaller drags are clicks, not boxes or swipes (original pixels). */
export const MIN_DRAG = 4;
/** A box-tool press that moves less than this many stage pixels is a click (it snaps to an element), not a drag. */
export const CLICK_PX = 4;

export type EditorInit = {
  trajectoryId: string;
  steps: StepMeta[];
  stepIndex?: number;
  doc: Doc;
  server: Record<string, Synced<DocValue>>;
  conflicts?: Record<string, Conflict>;
  isReadOnly?: boolean;
  mode?: EditorMode;
  /** Fast lane: the first error already handed in (work reopened or shown after its hand-in); null when unset. */
  firstError?: number | "none" | null;
  now?: () => number;
};

/** A pointer event: `image` in original pixels, `display` in stage pixels. */
export type PointerInput = { image: Point; display: Point; shiftKey?: boolean };

/** What every part of the engine works on: the one store, its view, and the current step. */
export type EngineCore = {
  store: Store<EditorState>;
  view: View;
  /** The current step's meta (id, size, snap targets). */
  meta: () => StepMeta;
  /** The current step's annotation. */
  current: () => StepAnnotation;
};

/** Keys whose document value differs from what the server acknowledged. */
export function dirtyKeys(s: Pick<EditorState, "doc" | "server">): string[] {
  const out: string[] = [];
  if (JSON.stringify(s.doc.trajectory) !== JSON.stringify(s.server[TRAJECTORY_KEY]?.value)) out.push(TRAJECTORY_KEY);
  for (const [id, v] of Object.entries(s.doc.steps)) if (JSON.stringify(v) !== JSON.stringify(s.server[id]?.value)) out.push(id);
  return out;
}

/** Stage transform: stage pixels per original pixel, and where the image's top-left corner sits. */
export function viewTransform(s: Pick<EditorState, "view">): Transform {
  return transformOf(s.view);
}

export function viewScale(s: Pick<EditorState, "view">): number {
  return viewTransform(s).scale || 1;
}

/** Stage pixels -> original screenshot pixels under the current transform. */
export function toImagePoint(s: Pick<EditorState, "view">, p: Point): Point {
  return toImage(viewTransform(s), p);
}

export function clampIndex(i: number, count: number): number {
  if (!Number.isFinite(i)) return 0;
  return Math.max(0, Math.min(Math.trunc(i), Math.max(count - 1, 0)));
}
