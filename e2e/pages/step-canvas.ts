import { expect, type Locator, type Page } from "@playwright/test";
import type { Point } from "@/lib/domain/geometry";

/** A mark as Konva drew it, in stage pixels (CSS pixels from the stage's top-left corner). */
export type DrawnMark = { name: string; gesture: string; stroke: string; dash: number[]; points: Point[] };
export type DrawnBox = { name: string; stroke: string; dash: number[]; corners: [Point, Point] };
/** What the step canvas's Konva stage holds right now, read from the nodes themselves. */
export type DrawnCanvas = {
  /** Where the stage sits on the page (CSS pixels). */
  origin: Point;
  size: { width: number; height: number };
  /** The screenshot node: its transform (stage px per original px, top-left), and the image element it draws. */
  screenshot: { scale: number; x: number; y: number; variant: string; src: string; naturalWidth: number } | null;
  marks: DrawnMark[];
  boxes: DrawnBox[];
  handles: number;
};

/**
 * The one step canvas (viewer, editor, review), read through Konva.stages: positions, colours and
 * which image is drawn come from the rendered nodes, never from a copy of the state.
 */
export class StepCanvasPart {
  constructor(
    readonly page: Page,
    /** The element holding the canvas (its .step-canvas). */
    readonly root: Locator,
  ) {}

  get stage(): Locator {
    return this.root.locator(".step-canvas-stage");
  }

  get zoomLevel(): Locator {
    return this.root.getByRole("status", { name: "Zoom level" });
  }

  button(name: "Zoom in" | "Zoom out" | "Fit" | "100 %"): Locator {
    return this.root.getByRole("group", { name: "Zoom" }).getByRole("button", { name, exact: true });
  }

  layerToggle(name: "Model's action" | "Corrected action" | "Imported box" | "Corrected box"): Locator {
    return this.root.getByRole("checkbox", { name });
  }

  async drawn(): Promise<DrawnCanvas> {
    return this.stage.evaluate((host) => {
      type KNode = {
        name: () => string;
        getAttr: (k: string) => unknown;
        getAbsoluteTransform: () => { point: (p: { x: number; y: number }) => { x: number; y: number }; getMatrix: () => number[] };
        getAbsolutePosition: () => { x: number; y: number };
        findOne: (sel: string) => KNode | undefined;
        find: (sel: string) => KNode[];
        width: () => number;
        height: () => number;
        isVisible: () => boolean;
      };
      type KStage = KNode & { container: () => HTMLElement };
      const konva = (window as unknown as { Konva?: { stages: KStage[] } }).Konva;
      const stage = konva?.stages.find((s) => host.contains(s.container()));
      if (!stage) throw new Error("no Konva stage inside the canvas host");
      const rect = stage.container().getBoundingClientRect();
      const shot = stage.findOne(".screenshot");
      const m = shot?.getAbsoluteTransform().getMatrix();
      const img = shot?.getAttr("image") as HTMLImageElement | undefined;
      const pt = (n: KNode, x: number, y: number): [number, number] => {
        const p = n.getAbsoluteTransform().point({ x, y });
        return [p.x, p.y];
      };
      const marks = [
        ...stage.find(".model-action"),
        ...stage.find(".corrected-action"),
        ...stage.find(".suggested-action"),
        ...stage.find(".failed-prediction-action"),
      ].map((g) => {
        const ring = g.findOne(".ring")!;
        const gesture = String(g.getAttr("gesture"));
        const pts = ring.getAttr("points") as number[] | undefined;
        const points: [number, number][] =
          gesture === "swipe" && pts
            ? [pt(ring, pts[0]!, pts[1]!), pt(ring, pts[2]!, pts[3]!)]
            : [[g.getAbsolutePosition().x, g.getAbsolutePosition().y]];
        const dash = (ring.getAttr("dash") as number[] | undefined) ?? [];
        return { name: g.name(), gesture, stroke: String(ring.getAttr("stroke")), dash, points };
      });
      const boxes = [...stage.find(".imported-box"), ...stage.find(".candidate-box"), ...stage.find(".corrected-box")].map((b) => ({
        name: b.name(),
        stroke: String(b.getAttr("stroke")),
        dash: (b.getAttr("dash") as number[] | undefined) ?? [],
        corners: [pt(b, 0, 0), pt(b, b.width(), b.height())] as [[number, number], [number, number]],
      }));
      return {
        origin: [rect.x, rect.y] as [number, number],
        size: { width: rect.width, height: rect.height },
        screenshot:
          m && img
            ? { scale: m[0]!, x: m[4]!, y: m[5]!, variant: String(shot!.getAttr("variant")), src: img.src, naturalWidth: img.naturalWidth }
            : null,
        marks,
        boxes,
        handles: stage.find(".box-handle").length,
      };
    });
  }

  /** Wait until the screenshot is drawn (any variant). */
  async waitForScreenshot() {
    await expect
      .poll(async () => (await this.drawn().catch(() => null))?.screenshot?.naturalWidth ?? 0, { timeout: 15_000 })
      .toBeGreaterThan(0);
  }

  /** Stage pixels of a point in original screenshot pixels, as drawn now. */
  async toStage([x, y]: Point): Promise<Point> {
    const d = await this.drawn();
    if (!d.screenshot) throw new Error("the screenshot is not drawn yet");
    return [d.screenshot.x + x * d.screenshot.scale, d.screenshot.y + y * d.screenshot.scale];
  }

  /** Page coordinates of a point in original screenshot pixels, as drawn now. */
  async toPage(p: Point): Promise<Point> {
    const d = await this.drawn();
    const [sx, sy] = await this.toStage(p);
    return [d.origin[0] + sx, d.origin[1] + sy];
  }

  /** The original-pixel point under a page position, as drawn now. */
  async imagePointAt([px, py]: Point): Promise<Point> {
    const d = await this.drawn();
    const s = d.screenshot!;
    return [(px - d.origin[0] - s.x) / s.scale, (py - d.origin[1] - s.y) / s.scale];
  }
}
