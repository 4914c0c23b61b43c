import { z } from "zod";

/** Qwen2.5-VL patch size x merge size: every resized side is a multiple of this. */
export const QWEN_FACTOR = 28;
/** Qwen2.5-VL processor defaults (preprocessor_config.json). */
export const QWEN_MIN_PIXELS = 3136;
export const QWEN_MAX_PIXELS = 12845056;
const MAX_ASPECT_RATIO = 200;

export const pointSchema = z.tuple([z.number().finite(), z.number().finite()]);
/** A point [x, y] in pixels of some frame (original screenshot pixels unless a name says otherwise). */
export type Point = z.infer<typeof pointSchema>;

export const boxSchema = z
  .tuple([z.number().finite(), z.number().finite(), z.number().finite(), z.number().finite()])
  .refine(([x1, y1, x2, y2]) => x1 <= x2 && y1 <= y2, { message: "box must be [x1, y1, x2, y2] with x1 <= x2 and y1 <= y2" });
/** An element box [x1, y1, x2, y2] in pixels, x1 <= x2, y1 <= y2. */
export type Box = z.infer<typeof boxSchema>;

export type Size = { width: number; height: number };

/**
 * Width in pixels of the display variant the server makes of every screenshot (a phone screenshot at
 * roughly screen density 1.5; never enlarged). The canvas fetches the original once a zoom needs more.
 */
export const DISPLAY_VARIANT_WIDTH = 720;

/**
 * Python's built-in round(): halves go to the even neighbour (round(2.5) == 2).
 * Qwen's reference code is Python, so coordinates and sizes must round the same way.
 */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/**
 * qwen-vl-utils smart_resize: the size (in pixels) the model actually sees for an image of
 * `size` original pixels. Sides become multiples of 28; the area is clamped to [minPixels, maxPixels].
 */
export function smartResize(size: Size, opts: { maxPixels?: number; minPixels?: number; factor?: number } = {}): Size {
  const factor = opts.factor ?? QWEN_FACTOR;
  const minPixels = opts.minPixels ?? QWEN_MIN_PIXELS;
  const maxPixels = opts.maxPixels ?? QWEN_MAX_PIXELS;
  const { width, height } = size;
  if (!(width > 0 && height > 0)) throw new RangeError(`image size must be positive, got ${width}x${height}`);
  if (Math.max(width, height) / Math.min(width, height) > MAX_ASPECT_RATIO) {
    throw new RangeError(`aspect ratio of ${width}x${height} exceeds ${MAX_ASPECT_RATIO}`);
  }
  let h = Math.max(factor, roundHalfEven(height / factor) * factor);
  let w = Math.max(factor, roundHalfEven(width / factor) * factor);
  if (h * w > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels);
    h = Math.max(factor, Math.floor(height / beta / factor) * factor);
    w = Math.max(factor, Math.floor(width / beta / factor) * factor);
  } else if (h * w < minPixels) {
    const beta = Math.sqrt(minPixels / (height * width));
    h = Math.ceil((height * beta) / factor) * factor;
    w = Math.ceil((width * beta) / factor) * factor;
  }
  return { width: w, height: h };
}

/** A pair of frames: the original screenshot and the resized image a model sees. */
export type FramePair = { original: Size; resized: Size };

export function framePair(original: Size, maxPixels = QWEN_MAX_PIXELS, minPixels = QWEN_MIN_PIXELS): FramePair {
  return { original, resized: smartResize(original, { maxPixels, minPixels }) };
}

/** Original screenshot pixels -> resized-frame pixels, rounded as Python rounds (UI-S1 deal_with_coordinate). */
export function toResizedPoint([x, y]: Point, frames: FramePair): Point {
  return [
    roundHalfEven((x * frames.resized.width) / frames.original.width),
    roundHalfEven((y * frames.resized.height) / frames.original.height),
  ];
}

/** Resized-frame pixels (what the model wrote) -> original screenshot pixels, unrounded. */
export function toOriginalPoint([x, y]: Point, frames: FramePair): Point {
  return [(x * frames.original.width) / frames.resized.width, (y * frames.original.height) / frames.resized.height];
}

/** Box in original pixels -> box in resized-frame pixels (Python rounding). */
export function toResizedBox([x1, y1, x2, y2]: Box, frames: FramePair): Box {
  const [a, b] = toResizedPoint([x1, y1], frames);
  const [c, d] = toResizedPoint([x2, y2], frames);
  return [a, b, c, d];
}

/** Is the point inside the box, borders included? Both in the same frame. */
export function isPointInBox([x, y]: Point, [x1, y1, x2, y2]: Box): boolean {
  return x >= x1 && x <= x2 && y >= y1 && y <= y2;
}

/** Is the point on the screen (0 <= x <= width, 0 <= y <= height)? */
export function isPointOnScreen([x, y]: Point, size: Size): boolean {
  return x >= 0 && y >= 0 && x <= size.width && y <= size.height;
}

/**
 * Does any part of the box lie on the screen? Element boxes from accessibility trees may reach past
 * the screen's edge (a scrollable list), so a box need only overlap the screenshot.
 */
export function boxOverlapsScreen([x1, y1, x2, y2]: Box, { width, height }: Size): boolean {
  return x2 >= 0 && y2 >= 0 && x1 <= width && y1 <= height;
}

/** Scale a box about its centre (UI-S1 enlarges candidate boxes 1.2x). */
export function scaleBox([x1, y1, x2, y2]: Box, factor: number): Box {
  const cx = (x1 + x2) / 2;
  const cy = (y1 + y2) / 2;
  const hw = ((x2 - x1) / 2) * factor;
  const hh = ((y2 - y1) / 2) * factor;
  return [cx - hw, cy - hh, cx + hw, cy + hh];
}

/** Order two corners into a box. */
export function boxFromCorners([ax, ay]: Point, [bx, by]: Point): Box {
  return [Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)];
}

/** Clamp a box to the screen. */
export function clampBox([x1, y1, x2, y2]: Box, { width, height }: Size): Box {
  const clamp = (v: number, max: number) => Math.min(Math.max(v, 0), max);
  return [clamp(x1, width), clamp(y1, height), clamp(x2, width), clamp(y2, height)];
}

export type SwipeDirection = "up" | "down" | "left" | "right";

/** Direction the finger moves from `from` to `to` (largest axis wins; screen y grows downwards). */
export function swipeDirection([x1, y1]: Point, [x2, y2]: Point): SwipeDirection {
  const dx = x2 - x1;
  const dy = y2 - y1;
  if (Math.abs(dx) > Math.abs(dy)) return dx > 0 ? "right" : "left";
  return dy > 0 ? "down" : "up";
}
