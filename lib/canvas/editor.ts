import type { StepAnnotation } from "@/lib/domain/annotation";
import { createDocument } from "./document";
import { clampIndex, type EditorInit, type EditorMode, type EditorState } from "./editor-state";
import { EMPTY_HISTORY } from "./history";
import { createStore, type Store } from "./store";
import { createSync } from "./sync";
import { createTools } from "./tools";
import { createView, initialViewState, lens } from "./view";

export * from "./editor-state";

/**
 * The annotation editor's engine, without React or Konva, composed from its parts: the document
 * (changes, per-gesture history; lib/canvas/document.ts), the tools (the pointer state machine;
 * lib/canvas/tools.ts), the view (zoom/pan; lib/canvas/view.ts) and the sync bookkeeping below. The
 * canvas and the forms read it with useSyncExternalStore and call its commands; Konva nodes are never
 * the source of truth. Every point and box is in ORIGINAL screenshot pixels; display pixels appear
 * only in the view transform. One engine serves every mode: annotation (full, fast), read-only, review fix.
 */
export function createEditor(init: EditorInit) {
  const now = init.now ?? (() => Date.now());
  const first = init.steps[clampIndex(init.stepIndex ?? 0, init.steps.length)];
  const store: Store<EditorState> = createStore<EditorState>({
    trajectoryId: init.trajectoryId,
    steps: init.steps,
    stepIndex: clampIndex(init.stepIndex ?? 0, init.steps.length),
    doc: init.doc,
    server: init.server,
    conflicts: init.conflicts ?? {},
    history: EMPTY_HISTORY,
    tool: "point",
    isBoxSelected: false,
    snapPoint: null,
    drag: null,
    view: initialViewState(first ? { image: first.size, imageKey: first.id } : {}),
    isReadOnly: init.isReadOnly ?? false,
    isHelpOpen: false,
    isImageLoaded: false,
    mode: init.mode ?? "full",
    firstError: init.firstError ?? null,
  });
  const view = createView(lens(store, "view"));
  const get = store.get;
  const meta = () => get().steps[get().stepIndex]!;
  const current = () => get().doc.steps[meta().id]!;

  const core = { store, view, meta, current };
  const document = createDocument(core, now);
  const tools = createTools(core, document);
  const sync = createSync(core, document);
  const { cancel, setTool, pointerDown, pointerMove, pointerUp, cycleSnap } = tools;
  const { changeStep, undo, redo, setThoughtPart, setThoughtText, recomposeThought, setClearAction } = document;
  const { setToolCall, setActionType, setVerdict, setBox, deleteBox, nudgeBox, setOutcome, setDiscarded, toggleCutHere } = document;

  // ── Navigation and view (never recorded) ─────────────────────────────────────────────────────

  function goTo(index: number) {
    if (get().drag) cancel();
    const stepIndex = clampIndex(index, get().steps.length);
    if (stepIndex === get().stepIndex) return;
    store.set({ stepIndex, isBoxSelected: false, isImageLoaded: false });
    const m = meta();
    view.setImage(m.id, m.size);
  }

  return {
    ...store,
    // document
    setThoughtPart,
    setThoughtText,
    recomposeThought,
    setClearAction,
    setToolCall,
    setActionType,
    setVerdict,
    setBox,
    deleteBox,
    nudgeBox,
    setOutcome,
    setDiscarded,
    toggleCutHere,
    undo,
    redo,
    // tools
    setTool,
    pointerDown,
    pointerMove,
    pointerUp,
    cancel,
    cycleSnap,
    selectBox: (isBoxSelected: boolean) => store.set({ isBoxSelected: isBoxSelected && !!current().box }),
    // navigation and view
    goTo,
    next: () => goTo(get().stepIndex + 1),
    prev: () => goTo(get().stepIndex - 1),
    first: () => goTo(0),
    last: () => goTo(get().steps.length - 1),
    /** Zoom, pan and layers of the canvas (the same engine the viewer and review use). */
    view,
    zoomIn: view.zoomIn,
    zoomOut: view.zoomOut,
    zoomBy: view.zoomBy,
    zoomActual: view.zoomActual,
    zoomFit: view.fit,
    setViewport: view.setViewport,
    toggleHelp: () => store.set((s) => ({ isHelpOpen: !s.isHelpOpen })),
    ...sync,
    setReadOnly: (isReadOnly: boolean) => store.set({ isReadOnly }),
    // The fast lane (lib/domain/lane.ts): the mark is the person's answer, not an edit of the document, so it
    // is not an undo step; pressing the mark again on the marked step takes it back.
    setMode: (mode: EditorMode) => store.set({ mode }),
    // Shift+L switches the annotator's two modes; a review fix stays one.
    toggleMode: () => store.set((s) => (s.mode === "review-fix" ? {} : { mode: s.mode === "fast" ? "full" : "fast" })),
    markFirstError: () => {
      if (get().isReadOnly) return;
      store.set((s) => ({ firstError: s.firstError === s.stepIndex ? null : s.stepIndex }));
    },
    markNoError: () => {
      if (get().isReadOnly) return;
      store.set((s) => ({ firstError: s.firstError === "none" ? null : "none" }));
    },
    /** Several fields of the current step at once (an accepted suggestion): one undo step. */
    patchStep: (label: string, patch: Partial<StepAnnotation>) => changeStep(label, (a) => ({ ...a, ...patch })),
  };
}

export type Editor = ReturnType<typeof createEditor>;
