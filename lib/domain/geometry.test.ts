import { describe, expect, it } from "vitest";
import {
  COORDINATE_CONVENTIONS,
  conventionFrame,
  framePair,
  fromConventionBox,
  fromConventionPoint,
  roundTripBound,
  toConventionBox,
  toConventionPoint,
  isPointInBox,
  roundHalfEven,
  scaleBox,
  smartResize,
  swipeDirection,
  toOriginalPoint,
  toResizedBox,
  toResizedPoint,
} from "./geometry";

describe("smartResize (golden values from shared/reference and FORMATS.md §3.2)", () => {
  it.each([
    [1080, 2400, undefined, 1092, 2408],
    [720, 1280, undefined, 728, 1288],
    [1080, 2400, 1003520, 672, 1484],
    [1080, 2340, undefined, 1092, 2352],
    [1080, 2340, 1003520, 672, 1456],
    [1440, 3200, undefined, 1428, 3192],
    [1440, 3200, 1003520, 672, 1484],
    [720, 1280, 1003520, 728, 1288],
    [1080, 2400, 10035200, 1092, 2408],
  ])("%ix%i at max_pixels %s -> %ix%i", (w, h, maxPixels, ew, eh) => {
    expect(smartResize({ width: w, height: h }, { maxPixels })).toEqual({ width: ew, height: eh });
  });

  it("rounds a half to even like Python (a side of 70 px is 56, not 84)", () => {
    expect(smartResize({ width: 70, height: 700 }).width).toBe(56);
    expect(smartResize({ width: 98, height: 700 }).width).toBe(112); // 3.5 -> 4
  });

  it("scales tiny images up to min_pixels", () => {
    const r = smartResize({ width: 20, height: 20 });
    expect(r.width * r.height).toBeGreaterThanOrEqual(3136);
    expect(r.width % 28).toBe(0);
  });

  it("rejects extreme aspect ratios and empty images", () => {
    expect(() => smartResize({ width: 1, height: 500 })).toThrow(/aspect ratio/);
    expect(() => smartResize({ width: 0, height: 500 })).toThrow(/positive/);
  });
});

describe("roundHalfEven", () => {
  it.each([
    [0.5, 0],
    [1.5, 2],
    [2.5, 2],
    [2.4999, 2],
    [2.5001, 3],
    [-0.5, 0],
    [3, 3],
  ])("round(%d) = %d", (x, r) => expect(roundHalfEven(x)).toBe(r));
});

describe("frame conversion", () => {
  const frames = framePair({ width: 1080, height: 2400 });
  it("maps the cookbook click back and forth", () => {
    // The cookbook model clicked (935, 406) in the 1092x2408 frame.
    const orig = toOriginalPoint([935, 406], frames);
    expect(orig[0]).toBeCloseTo(924.725, 2);
    expect(toResizedPoint(orig, frames)).toEqual([935, 406]);
  });
  it("uses Python rounding on the way to the trainer's frame", () => {
    const halving = { original: { width: 100, height: 100 }, resized: { width: 50, height: 50 } };
    expect(toResizedPoint([5, 7], halving)).toEqual([2, 4]); // 2.5 -> 2, 3.5 -> 4, as Python's round()
  });
  it("converts boxes corner by corner", () => {
    expect(toResizedBox([0, 0, 1080, 2400], frames)).toEqual([0, 0, 1092, 2408]);
  });
});

describe("coordinate conventions (hand-computed)", () => {
  const phone = framePair({ width: 1080, height: 2400 }); // resized 1092x2408
  it("lists both conventions as data", () => {
    expect(Object.keys(COORDINATE_CONVENTIONS)).toEqual(["qwen25-abs", "qwen3-rel1000"]);
    expect(COORDINATE_CONVENTIONS["qwen3-rel1000"].scale).toBe(1000);
  });
  it.each([
    // [original point, qwen25-abs (1092x2408 frame), qwen3-rel1000]
    [
      [540, 1200],
      [546, 1204],
      [500, 500],
    ],
    [
      [0, 0],
      [0, 0],
      [0, 0],
    ],
    [
      [1080, 2400],
      [1092, 2408],
      [1000, 1000],
    ],
    // 924.725 x 1092/1080 = 935.0; 924.725 / 1080 x 1000 = 856.2 -> 856. 402.67 x 2408/2400 = 404.0; /2400 x 1000 = 167.8 -> 168
    [
      [924.725, 402.67],
      [935, 404],
      [856, 168],
    ],
  ] as const)("%j -> abs %j, rel1000 %j", (orig, abs, rel) => {
    expect(toConventionPoint([...orig], "qwen25-abs", phone)).toEqual(abs);
    expect(toConventionPoint([...orig], "qwen3-rel1000", phone)).toEqual(rel);
  });
  it("rounds a half to even like Python's round() (2000 px wide: x 1, 3, 5 are 0.5, 1.5, 2.5 units)", () => {
    const wide = framePair({ width: 2000, height: 1000 });
    expect([1, 3, 5].map((x) => toConventionPoint([x, 0], "qwen3-rel1000", wide)[0])).toEqual([0, 2, 2]);
  });
  it("converts back to original pixels", () => {
    expect(fromConventionPoint([500, 500], "qwen3-rel1000", phone)).toEqual([540, 1200]);
    expect(fromConventionPoint([1000, 250], "qwen3-rel1000", phone)).toEqual([1080, 600]);
    expect(fromConventionPoint([546, 1204], "qwen25-abs", phone)).toEqual([540, 1200]);
  });
  it("converts boxes corner by corner, both ways", () => {
    expect(toConventionBox([108, 240, 540, 1200], "qwen3-rel1000", phone)).toEqual([100, 100, 500, 500]);
    expect(fromConventionBox([100, 100, 500, 500], "qwen3-rel1000", phone)).toEqual([108, 240, 540, 1200]);
    expect(toConventionBox([0, 0, 1080, 2400], "qwen25-abs", phone)).toEqual([0, 0, 1092, 2408]);
  });
  it("names the frame a prompt announces and a reward divides by", () => {
    expect(conventionFrame("qwen25-abs", phone)).toEqual({ width: 1092, height: 2408 });
    expect(conventionFrame("qwen3-rel1000", phone)).toEqual({ width: 1000, height: 1000 });
  });
  it("bounds a round trip by half a unit in original pixels", () => {
    expect(roundTripBound("qwen3-rel1000", phone)).toEqual({ x: 0.54, y: 1.2 });
    const abs = roundTripBound("qwen25-abs", phone);
    expect(abs.x).toBeCloseTo(1080 / 1092 / 2, 12);
    expect(abs.y).toBeCloseTo(2400 / 2408 / 2, 12);
  });
});

describe("isPointInBox", () => {
  it("counts the border as inside", () => {
    expect(isPointInBox([10, 10], [10, 10, 20, 20])).toBe(true);
    expect(isPointInBox([20, 20], [10, 10, 20, 20])).toBe(true);
    expect(isPointInBox([20.01, 20], [10, 10, 20, 20])).toBe(false);
  });
  it("handles a degenerate (zero-area) box", () => {
    expect(isPointInBox([5, 5], [5, 5, 5, 5])).toBe(true);
    expect(isPointInBox([5, 6], [5, 5, 5, 5])).toBe(false);
  });
  it("scaleBox enlarges about the centre", () => {
    expect(scaleBox([0, 0, 10, 20], 1.2)).toEqual([-1, -2, 11, 22]);
  });
});

describe("swipeDirection", () => {
  it("follows the finger, largest axis first", () => {
    expect(swipeDirection([540, 1800], [540, 600])).toBe("up");
    expect(swipeDirection([540, 600], [540, 1800])).toBe("down");
    expect(swipeDirection([900, 1000], [100, 1100])).toBe("left");
    expect(swipeDirection([100, 1000], [900, 900])).toBe("right");
  });
});
