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
 * The body every copy of smart_resize shares (qwen-vl-utils, and UI-S1's own in x/qwen/image.py): a long side over
 * `maxLongSide` first shrinks the image (truncating, as UI-S1 does), then each side is rounded half to even to a
 * multiple of `factor` and the area is scaled into [minPixels, maxPixels]. `floorAtFactor` keeps a side at least one
 * factor, as qwen-vl-utils does and UI-S1's copy does not. Sizes in pixels; the callers check their own errors first.
 */
export function resizeToFactor(
  { width, height }: Size,
  opts: { factor: number; minPixels: number; maxPixels: number; floorAtFactor: boolean; maxLongSide?: number },
): Size {
  const { factor, minPixels, maxPixels } = opts;
  if (opts.maxLongSide !== undefined && Math.max(width, height) > opts.maxLongSide) {
    const beta = Math.max(width, height) / opts.maxLongSide;
    [width, height] = [Math.trunc(width / beta), Math.trunc(height / beta)];
  }
  const atLeast = (side: number) => (opts.floorAtFactor ? Math.max(factor, side) : side);
  let h = atLeast(roundHalfEven(height / factor) * factor);
  let w = atLeast(roundHalfEven(width / factor) * factor);
  if (h * w > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels);
    h = atLeast(Math.floor(height / beta / factor) * factor);
    w = atLeast(Math.floor(width / beta / factor) * factor);
  } else if (h * w < minPixels) {
    const beta = Math.sqrt(minPixels / (height * width));
    h = Math.ceil((height * beta) / factor) * factor;
    w = Math.ceil((width * beta) / factor) * factor;
  }
  return { width: w, height: h };
}

/**
 * qwen-vl-utils smart_resize: the size (in pixels) the model actually sees for an image of
 * `size` original pixels. Sides become multiples of 28; the area is clamped to [minPixels, maxPixels].
 */
export function smartResize(size: Size, opts: { maxPixels?: number; minPixels?: number; factor?: number } = {}): Size {
  const { width, height } = size;
  if (!(width > 0 && height > 0)) throw new RangeError(`image size must be positive, got ${width}x${height}`);
  if (Math.max(width, height) / Math.min(width, height) > MAX_ASPECT_RATIO) {
    throw new RangeError(`aspect ratio of ${width}x${height} exceeds ${MAX_ASPECT_RATIO}`);
  }
  return resizeToFactor(size, {
    factor: opts.factor ?? QWEN_FACTOR,
    minPixels: opts.minPixels ?? QWEN_MIN_PIXELS,
    maxPixels: opts.maxPixels ?? QWEN_MAX_PIXELS,
    floorAtFactor: true,
  });
}

/** Boxes without repeats (the same four numbers kept once, first first): candidate boxes as UI-S1 lists them. */
export function uniqueBoxes(boxes: Box[]): Box[] {
  const seen = new Set<string>();
  return boxes.filter((b) => {
    const k = b.join(",");
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
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

/**
 * The coordinate conventions a training row can be written in (`bridge sft|grpo|traj|score --coords`,
 * `studio import --frame`). Stored data is always original screenshot pixels; a convention only says how
 * a model reads and writes points:
 * - `qwen25-abs`: absolute pixels of the smart-resized image the model sees (Qwen2.5-VL, UI-S1, Mobile-R1);
 *   the frame depends on the trainer's max_pixels / min_pixels. One unit is original/resized pixels
 *   (about 1 original pixel for phone screenshots at the default max_pixels).
 * - `qwen3-rel1000`: integers 0..1000 relative to the image, x_rel = round(x / width * 1000), the same for y,
 *   independent of any resize (Qwen3-VL, GUI-Owl 1.5 / Mobile-Agent-v3.5, whose prompt announces a
 *   1000x1000 screen). One unit is width/1000 original pixels (2.4 px on a 2400 px side).
 * Both round as Python's round() does (roundHalfEven).
 */
export const COORDINATE_CONVENTIONS = {
  "qwen25-abs": { kind: "resized-pixels", scale: null, models: "Qwen2.5-VL, UI-S1, Mobile-R1" },
  "qwen3-rel1000": { kind: "relative", scale: 1000, models: "Qwen3-VL, GUI-Owl 1.5 (Mobile-Agent-v3.5)" },
} as const;
export const coordinateConventionSchema = z.enum(["qwen25-abs", "qwen3-rel1000"]);
/** A key of COORDINATE_CONVENTIONS. */
export type CoordinateConvention = z.infer<typeof coordinateConventionSchema>;
export const COORDINATE_CONVENTION_NAMES = coordinateConventionSchema.options;
/** Today's rows: absolute pixels in the smart-resized frame. */
export const DEFAULT_COORDINATE_CONVENTION: CoordinateConvention = "qwen25-abs";
/** The side of the relative frame Qwen3-VL reads and writes (0..1000 on each axis). */
export const REL1000_SCALE = COORDINATE_CONVENTIONS["qwen3-rel1000"].scale;

/**
 * The size of the frame a convention's coordinates live in: the resized image (pixels) for `qwen25-abs`,
 * 1000x1000 for `qwen3-rel1000`. It is what the system prompt announces as the screen's resolution and
 * what a reward divides a prediction by to normalise it to [0, 1].
 */
export function conventionFrame(convention: CoordinateConvention, frames: FramePair): Size {
  return convention === "qwen3-rel1000" ? { width: REL1000_SCALE, height: REL1000_SCALE } : frames.resized;
}

/**
 * Original screenshot pixels -> the convention's coordinates, rounded as Python rounds: resized-frame pixels
 * (toResizedPoint) or round(x / width * 1000), round(y / height * 1000).
 */
export function toConventionPoint(p: Point, convention: CoordinateConvention, frames: FramePair): Point {
  if (convention === "qwen25-abs") return toResizedPoint(p, frames);
  const { width, height } = frames.original;
  return [roundHalfEven((p[0] / width) * REL1000_SCALE), roundHalfEven((p[1] / height) * REL1000_SCALE)];
}

/** The convention's coordinates (what a model wrote or a row holds) -> original screenshot pixels, unrounded. */
export function fromConventionPoint(p: Point, convention: CoordinateConvention, frames: FramePair): Point {
  if (convention === "qwen25-abs") return toOriginalPoint(p, frames);
  const { width, height } = frames.original;
  return [(p[0] / REL1000_SCALE) * width, (p[1] / REL1000_SCALE) * height];
}

/** Box in original pixels -> box in the convention's coordinates, corner by corner (Python rounding). */
export function toConventionBox([x1, y1, x2, y2]: Box, convention: CoordinateConvention, frames: FramePair): Box {
  const [a, b] = toConventionPoint([x1, y1], convention, frames);
  const [c, d] = toConventionPoint([x2, y2], convention, frames);
  return [a, b, c, d];
}

/** Box in the convention's coordinates -> box in original pixels, unrounded. */
export function fromConventionBox([x1, y1, x2, y2]: Box, convention: CoordinateConvention, frames: FramePair): Box {
  const [a, b] = fromConventionPoint([x1, y1], convention, frames);
  const [c, d] = fromConventionPoint([x2, y2], convention, frames);
  return [a, b, c, d];
}

/**
 * How far (original pixels, per axis) a round trip original -> convention -> original can move a point:
 * half of one unit of the convention. `qwen25-abs`: original/resized / 2 (0.49 px for 1080 -> 1092);
 * `qwen3-rel1000`: side/1000 / 2 (1.2 px on a 2400 px side).
 */
export function roundTripBound(convention: CoordinateConvention, frames: FramePair): { x: number; y: number } {
  const unit = conventionFrame(convention, frames);
  return { x: frames.original.width / unit.width / 2, y: frames.original.height / unit.height / 2 };
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
