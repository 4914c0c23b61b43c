import { createStore, type Store } from "./store";

/**
 * The step viewer's state: which step is shown. Zoom, pan and layers live in the canvas view
 * (lib/canvas/view); what is drawn is derived from the step data, never read back from Konva nodes.
 */
export type ViewerState = {
  stepIndex: number;
  stepCount: number;
  isImageLoaded: boolean;
};

export type ViewerStore = Store<ViewerState> & {
  goTo: (index: number) => void;
  next: () => void;
  prev: () => void;
  first: () => void;
  last: () => void;
};

export function createViewerStore(init: { stepIndex: number; stepCount: number }): ViewerStore {
  const store = createStore<ViewerState>({ ...init, stepIndex: clamp(init.stepIndex, init.stepCount), isImageLoaded: false });
  const goTo = (index: number) => store.set((s) => ({ stepIndex: clamp(index, s.stepCount) }));
  return {
    ...store,
    goTo,
    next: () => goTo(store.get().stepIndex + 1),
    prev: () => goTo(store.get().stepIndex - 1),
    first: () => goTo(0),
    last: () => goTo(store.get().stepCount - 1),
  };
}

function clamp(i: number, count: number): number {
  if (!Number.isFinite(i)) return 0;
  return Math.max(0, Math.min(Math.trunc(i), Math.max(count - 1, 0)));
}
