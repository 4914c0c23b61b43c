import { describe, expect, it } from "vitest";
import { matchShortcut } from "./shortcuts";
import { viewShortcuts } from "./view-shortcuts";
import {
  createView,
  DISPLAY_VARIANT_WIDTH,
  fitTransform,
  MAX_DEVICE_SCALE,
  toImage,
  toStage,
  variantFor,
  zoomAt,
  zoomPercent,
  type Transform,
} from "./view";

const PHONE = { width: 1080, height: 2400 };

function phoneView(dpr = 1) {
  const v = createView();
  v.setDpr(dpr);
  v.setImage("step-1", PHONE);
  v.setViewport({ width: 800, height: 616 }); // fit: (616 - 16) / 2400 = 0.25
  return v;
}

describe("fit", () => {
  it("fits the whole screenshot inside the padded stage, centred, using the full height of a tall image", () => {
    const t = fitTransform(PHONE, { width: 800, height: 616 });
    expect(t.scale).toBeCloseTo(0.25);
    expect(t.y).toBeCloseTo(8);
    expect(t.x).toBeCloseTo((800 - 270) / 2);
  });
  it("uses the width when the stage is the narrow side, and enlarges a small image to fill the stage", () => {
    expect(fitTransform(PHONE, { width: 286, height: 5000 }).scale).toBeCloseTo(0.25);
    expect(fitTransform({ width: 100, height: 100 }, { width: 416, height: 416 }).scale).toBeCloseTo(4);
  });
  it("is empty, not NaN, before the stage has a size", () => {
    expect(fitTransform(PHONE, { width: 0, height: 0 })).toEqual({ scale: 0, x: 0, y: 0 });
  });
});

describe("zoom at the cursor", () => {
  it("keeps the image point under the anchor still", () => {
    const t: Transform = { scale: 0.25, x: 265, y: 8 };
    const anchor: [number, number] = [300, 200];
    const before = toImage(t, anchor);
    const z = zoomAt(t, 3, anchor, { min: 0.01, max: 10 });
    expect(z.scale).toBeCloseTo(0.75);
    const after = toImage(z, anchor);
    expect(after[0]).toBeCloseTo(before[0]);
    expect(after[1]).toBeCloseTo(before[1]);
  });
  it("keeps the anchor still when the limit clamps the factor", () => {
    const t: Transform = { scale: 0.25, x: 265, y: 8 };
    const z = zoomAt(t, 1000, [400, 300], { min: 0.1, max: 2 });
    expect(z.scale).toBe(2);
    const p = toImage(t, [400, 300]);
    const q = toStage(z, p);
    expect(q[0]).toBeCloseTo(400);
    expect(q[1]).toBeCloseTo(300);
  });
  it("wheel and keys zoom at the last pointer position, else at the stage centre", () => {
    const v = phoneView();
    const centre = toImage(v.transform(), [400, 308]);
    v.zoomIn();
    const c = toImage(v.transform(), [400, 308]);
    expect(c[0]).toBeCloseTo(centre[0]);
    expect(c[1]).toBeCloseTo(centre[1]);

    v.setPointer([300, 100]);
    const under = toImage(v.transform(), [300, 100]);
    v.zoomIn(); // a key press: no position of its own
    v.wheel(-120, [300, 100]);
    const after = toImage(v.transform(), [300, 100]);
    expect(after[0]).toBeCloseTo(under[0]);
    expect(after[1]).toBeCloseTo(under[1]);
    expect(v.transform().scale).toBeGreaterThan(0.25 * 1.25 * 1.25);
  });
  it("stops at half the fit and at MAX_DEVICE_SCALE device pixels per original pixel", () => {
    const v = phoneView(2);
    for (let i = 0; i < 40; i++) v.zoomOut();
    expect(v.transform().scale).toBeCloseTo(0.125);
    for (let i = 0; i < 80; i++) v.zoomIn();
    expect(v.transform().scale).toBeCloseTo(MAX_DEVICE_SCALE / 2);
  });
});

describe("100 % and fit", () => {
  it("100 % is one screenshot pixel per device pixel, about the pointer", () => {
    const v = phoneView(1);
    v.setPointer([420, 300]);
    const under = toImage(v.transform(), [420, 300]);
    v.zoomActual();
    expect(v.transform().scale).toBeCloseTo(1);
    expect(zoomPercent(v.transform(), 1)).toBeCloseTo(100);
    const after = toImage(v.transform(), [420, 300]);
    expect(after[0]).toBeCloseTo(under[0]);
    expect(after[1]).toBeCloseTo(under[1]);
  });
  it("on a 2x screen 100 % is half a stage pixel per screenshot pixel", () => {
    const v = phoneView(2);
    v.zoomActual();
    expect(v.transform().scale).toBeCloseTo(0.5);
    expect(zoomPercent(v.transform(), 2)).toBeCloseTo(100);
  });
  it("fit is its own state: it follows the stage as it resizes, until someone zooms", () => {
    const v = phoneView();
    expect(zoomPercent(v.transform(), 1)).toBeCloseTo(25);
    v.setViewport({ width: 800, height: 1216 });
    expect(v.transform().scale).toBeCloseTo(0.5);
    v.zoomIn();
    v.setViewport({ width: 800, height: 616 });
    expect(v.transform().scale).toBeCloseTo(0.625);
    v.fit();
    expect(v.transform().scale).toBeCloseTo(0.25);
  });
  it("a pan moves the image by the pointer's travel; a new screenshot starts fitted, the same one keeps its zoom", () => {
    const v = phoneView();
    const t0 = v.transform();
    v.beginPan([100, 100]);
    v.movePan([160, 70]);
    v.endPan();
    expect(v.transform()).toMatchObject({ scale: t0.scale, x: t0.x + 60, y: t0.y - 30 });
    v.setImage("step-1", PHONE);
    expect(v.transform().x).toBeCloseTo(t0.x + 60);
    v.setImage("step-2", PHONE);
    expect(v.transform()).toEqual(t0);
  });
});

describe("which image variant", () => {
  it("draws the 720 px display variant while it has a pixel for every device pixel", () => {
    const density = DISPLAY_VARIANT_WIDTH / PHONE.width; // 0.667 display pixels per original pixel
    expect(variantFor(0.25, PHONE, 1)).toBe("display");
    expect(variantFor(density, PHONE, 1)).toBe("display");
    expect(variantFor(density * 1.01, PHONE, 1)).toBe("original");
    expect(variantFor(1, PHONE, 1)).toBe("original");
  });
  it("counts device pixels: at fit on a 3x screen the display variant is already too coarse", () => {
    expect(variantFor(0.25, PHONE, 2)).toBe("display");
    expect(variantFor(0.25, PHONE, 3)).toBe("original");
  });
  it("a screenshot no wider than the display variant is never fetched twice", () => {
    expect(variantFor(8, { width: 720, height: 1600 }, 2)).toBe("display");
  });
});

describe("zoom keys in a page's registry", () => {
  const key = (k: string, mod = false) => ({ key: k, ctrlKey: mod, metaKey: false, shiftKey: false, altKey: false });
  it("zoom at the last pointer position, and never fire while a form control has the focus", () => {
    const v = phoneView();
    const keys = viewShortcuts<void>(v);
    v.setPointer([300, 100]);
    const under = toImage(v.transform(), [300, 100]);
    matchShortcut(key("+"), keys, undefined, false)!.run(undefined);
    expect(v.transform().scale).toBeCloseTo(0.25 * 1.25);
    expect(toImage(v.transform(), [300, 100])[0]).toBeCloseTo(under[0]);
    for (const k of [key("+"), key("-"), key("="), key("f"), key("0", true)])
      expect(matchShortcut(k, keys, undefined, true)).toBeUndefined();
    matchShortcut(key("0", true), keys, undefined, false)!.run(undefined);
    expect(v.transform().scale).toBeCloseTo(1);
  });
  it("lists Space for panning but never takes the key from the page (the canvas handles the hold itself)", () => {
    const keys = viewShortcuts<void>(phoneView());
    expect(keys.map((s) => s.id)).toContain("view.pan");
    expect(matchShortcut(key(" "), keys, undefined, false)).toBeUndefined();
  });
});
