import { DISPLAY_VARIANT_WIDTH, type Point, type Size } from "@/lib/domain/geometry";
import { createStore, type Store } from "./store";

export { DISPLAY_VARIANT_WIDTH };

/**
 * The step canvas's view: where the screenshot sits on the stage (zoom and pan), which layers are
 * shown, and which image variant the zoom needs. Pure data and pure functions, no DOM: the viewer,
 * the editor and review all drive the same engine, and vitest drives it without a browser.
 *
 * Spaces: "original" pixels are the screenshot's own pixels (every stored point and box); "stage"
 * pixels are CSS pixels of the Konva stage; "device" pixels are the screen's pixels (stage pixels x
 * devicePixelRatio). "100 %" is one original pixel per device pixel.
 */

/** Stage transform: stage pixels per original pixel, and the image's top-left corner in stage pixels. */
export type Transform = { scale: number; x: number; y: number };

/** The four things drawn over a screenshot; each can be hidden on its own. */
export const LAYERS = ["model", "corrected", "importedBox", "correctedBox"] as const;
export type Layer = (typeof LAYERS)[number];
export type Layers = Record<Layer, boolean>;
export const ALL_LAYERS: Layers = { model: true, corrected: true, importedBox: true, correctedBox: true };

export type ViewState = {
  /** Size of the stage, stage pixels. */
  viewport: Size;
  /** Size of the current screenshot, original pixels. */
  image: Size;
  /** Which screenshot is shown (a step id or hash): zoom and pan belong to one screenshot. */
  imageKey: string;
  /** null: fit the screenshot in the stage (and keep fitting it as the stage resizes). */
  camera: Transform | null;
  /** A pan in progress: where it was grabbed (stage pixels) and the transform then. */
  panning: { grab: Point; start: Transform } | null;
  /** Device pixels per stage pixel (window.devicePixelRatio). */
  dpr: number;
  layers: Layers;
};

/** Empty margin kept around the fitted screenshot, stage pixels. */
export const FIT_PADDING = 8;
/** Zoom limits in device pixels per original pixel (16 = 1600 %). */
export const MAX_DEVICE_SCALE = 16;
/** Zooming out stops at half the fit scale. */
export const MIN_FIT_FRACTION = 0.5;
/** One zoom-in / zoom-out step (keyboard and buttons). */
export const ZOOM_STEP = 1.25;

export type ImageVariant = "display" | "original";

/** The transform that fits `image` (original px) inside `viewport` (stage px), centred, with FIT_PADDING around it. */
export function fitTransform(image: Size, viewport: Size, padding = FIT_PADDING): Transform {
  const w = viewport.width - 2 * padding;
  const h = viewport.height - 2 * padding;
  if (image.width <= 0 || image.height <= 0 || w <= 0 || h <= 0) return { scale: 0, x: 0, y: 0 };
  const scale = Math.min(w / image.width, h / image.height);
  return { scale, x: (viewport.width - image.width * scale) / 2, y: (viewport.height - image.height * scale) / 2 };
}

/** The transform in force: the camera, or the fit when there is none. */
export function transformOf(s: Pick<ViewState, "camera" | "image" | "viewport">): Transform {
  return s.camera ?? fitTransform(s.image, s.viewport);
}

/** Stage pixels -> original pixels. */
export function toImage(t: Transform, [x, y]: Point): Point {
  const s = t.scale || 1;
  return [(x - t.x) / s, (y - t.y) / s];
}

/** Original pixels -> stage pixels. */
export function toStage(t: Transform, [x, y]: Point): Point {
  return [t.x + x * t.scale, t.y + y * t.scale];
}

/** Allowed scales (stage px per original px) for this image, stage and screen density. */
export function scaleLimits(s: Pick<ViewState, "image" | "viewport" | "dpr">): { min: number; max: number } {
  const fit = fitTransform(s.image, s.viewport).scale;
  const max = MAX_DEVICE_SCALE / s.dpr;
  return { min: Math.min(fit * MIN_FIT_FRACTION, max), max };
}

/**
 * Scale `t` by `factor`, keeping the image point under `anchor` (stage pixels) where it is. The
 * result is clamped to `limits`; the anchor stays still after clamping too.
 */
export function zoomAt(t: Transform, factor: number, anchor: Point, limits: { min: number; max: number }): Transform {
  if (!(t.scale > 0) || !Number.isFinite(factor) || factor <= 0) return t;
  const scale = Math.min(limits.max, Math.max(limits.min, t.scale * factor));
  const k = scale / t.scale;
  return { scale, x: anchor[0] - (anchor[0] - t.x) * k, y: anchor[1] - (anchor[1] - t.y) * k };
}

/** Zoom as people read it: device pixels per original pixel, in percent (100 = one screenshot pixel per screen pixel). */
export function zoomPercent(t: Transform, dpr: number): number {
  return t.scale * dpr * 100;
}

/**
 * Which stored image to draw at this scale: the display variant (DISPLAY_VARIANT_WIDTH wide, never
 * enlarged) while it has at least one pixel per device pixel, the original once the zoom needs more.
 */
export function variantFor(scale: number, image: Size, dpr: number, displayWidth = DISPLAY_VARIANT_WIDTH): ImageVariant {
  if (image.width <= displayWidth) return "display";
  const displayDensity = displayWidth / image.width; // display-variant pixels per original pixel
  return scale * dpr > displayDensity + 1e-9 ? "original" : "display";
}

/** The anchor keyboard zoom keeps still: the last pointer position over the stage, else its centre. */
export function zoomAnchor(pointer: Point | null, viewport: Size): Point {
  if (pointer && pointer[0] >= 0 && pointer[1] >= 0 && pointer[0] <= viewport.width && pointer[1] <= viewport.height) return pointer;
  return [viewport.width / 2, viewport.height / 2];
}

export function initialViewState(over: Partial<ViewState> = {}): ViewState {
  return {
    viewport: { width: 0, height: 0 },
    image: { width: 0, height: 0 },
    imageKey: "",
    camera: null,
    panning: null,
    dpr: 1,
    layers: ALL_LAYERS,
    ...over,
  };
}

/**
 * Commands over a view state. `backing` is any store holding a ViewState: the viewer's own, or a
 * lens into the editor's store (so the editor's hit tests read the same transform it draws with).
 */
export function createView(backing: Store<ViewState> = createStore(initialViewState())) {
  const get = backing.get;
  const set = backing.set;
  const current = () => transformOf(get());
  /**
   * Last pointer position over the stage (stage pixels), where keyboard zoom anchors. Kept out of the
   * state: it changes on every pointer move and nothing is drawn from it, so no listener runs for it.
   */
  let pointer: Point | null = null;

  function zoomBy(factor: number, at?: Point) {
    const s = get();
    const t = current();
    if (!(t.scale > 0)) return;
    const next = zoomAt(t, factor, at ?? zoomAnchor(pointer, s.viewport), scaleLimits(s));
    if (next.scale === t.scale && next.x === t.x && next.y === t.y) return;
    set({ camera: next });
  }

  return {
    ...backing,
    transform: current,
    /** Stage pixels -> original pixels under the transform in force. */
    toImagePoint: (p: Point) => toImage(current(), p),
    zoomBy,
    zoomIn: (at?: Point) => zoomBy(ZOOM_STEP, at),
    zoomOut: (at?: Point) => zoomBy(1 / ZOOM_STEP, at),
    /** One screenshot pixel per screen (device) pixel, keeping the point under the pointer still. */
    zoomActual: (at?: Point) => {
      const t = current();
      if (t.scale > 0) zoomBy(1 / get().dpr / t.scale, at);
    },
    /** Back to fitting the stage; follows the stage as it resizes. */
    fit: () => set({ camera: null, panning: null }),
    /** Wheel: zoom at the pointer; `deltaY` in pixels (negative zooms in). */
    wheel: (deltaY: number, at: Point) => zoomBy(Math.exp(-Math.max(-200, Math.min(200, deltaY)) * 0.002), at),
    beginPan: (at: Point) => set({ panning: { grab: at, start: current() } }),
    movePan: (at: Point) => {
      const p = get().panning;
      if (p) set({ camera: { ...p.start, x: p.start.x + at[0] - p.grab[0], y: p.start.y + at[1] - p.grab[1] } });
    },
    endPan: () => set({ panning: null }),
    panBy: (dx: number, dy: number) => {
      const t = current();
      set({ camera: { ...t, x: t.x + dx, y: t.y + dy } });
    },
    setPointer: (p: Point | null) => void (pointer = p),
    setViewport: (viewport: Size) =>
      set((s) => (s.viewport.width === viewport.width && s.viewport.height === viewport.height ? {} : { viewport })),
    setDpr: (dpr: number) => set({ dpr: dpr > 0 && Number.isFinite(dpr) ? dpr : 1 }),
    /** Show a screenshot: a different one (by key) starts fitted; the same one keeps its zoom and pan. */
    setImage: (imageKey: string, image: Size) =>
      set((s) =>
        s.imageKey === imageKey && s.image.width === image.width && s.image.height === image.height
          ? {}
          : { imageKey, image, camera: null, panning: null },
      ),
    setLayer: (layer: Layer, isShown: boolean) => set((s) => ({ layers: { ...s.layers, [layer]: isShown } })),
    toggleLayer: (layer: Layer) => set((s) => ({ layers: { ...s.layers, [layer]: !s.layers[layer] } })),
  };
}

export type View = ReturnType<typeof createView>;

/** A store over one field of a bigger store (the editor keeps its view beside its document). */
export function lens<T extends object, K extends keyof T>(store: Store<T>, key: K): Store<T[K] & object> {
  return {
    get: () => store.get()[key] as T[K] & object,
    set: (patch) =>
      store.set((s) => {
        const cur = s[key] as T[K] & object;
        const p = typeof patch === "function" ? patch(cur) : patch;
        if (Object.entries(p).every(([k, v]) => Object.is(cur[k as keyof typeof cur], v))) return {};
        return { [key]: { ...cur, ...p } } as unknown as Partial<T>;
      }),
    subscribe: store.subscribe,
  };
}
