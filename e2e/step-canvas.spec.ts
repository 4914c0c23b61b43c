import type { APIRequestContext, Page } from "@playwright/test";
import type { Point } from "@/lib/domain/geometry";
import type { TrajectoryView } from "@/lib/domain/views";
import { storageStateFor } from "./accounts";
import { expect, test } from "./fixtures";
import { EditorPage } from "./pages/editor-page";
import { StepCanvasPart } from "./pages/step-canvas";

// The one step canvas, read through the rendered Konva nodes (Konva.stages): where the screenshot
// and the marks are drawn, in which colour, and which stored image (display variant or original).

const MODEL = "#7c5cff";
const CORRECTED = "#e6206a";

type Row = { id: string; stepCount: number };

/** The longest trajectory whose screenshots are wider than the 720 px display variant (so 100 % needs the original). */
async function longest(request: APIRequestContext): Promise<TrajectoryView> {
  const page = (await (await request.get("/api/trajectories?pageSize=200")).json()) as { rows: Row[] };
  for (const row of [...page.rows].sort((a, b) => b.stepCount - a.stepCount)) {
    const t = (await (await request.get(`/api/trajectories/${row.id}`)).json()) as TrajectoryView;
    if (t.steps.length >= 3 && t.steps[0]!.screenshot.width > 720) return t;
  }
  throw new Error("the demo data has no trajectory with screenshots wider than 720 px");
}

function expectNear(actual: Point, expected: Point, tolerance = 1) {
  expect(Math.abs(actual[0] - expected[0]), `x ${actual[0]} vs ${expected[0]}`).toBeLessThanOrEqual(tolerance);
  expect(Math.abs(actual[1] - expected[1]), `y ${actual[1]} vs ${expected[1]}`).toBeLessThanOrEqual(tolerance);
}

async function scaleOf(canvas: StepCanvasPart): Promise<number> {
  return (await canvas.drawn()).screenshot!.scale;
}

test.use({ viewport: { width: 1280, height: 720 } });

test("viewer: wheel and keys zoom at the pointer, 100 % is one screenshot pixel per screen pixel and draws the original", async ({
  page,
  viewer,
  request,
}) => {
  const t = await longest(request);
  const { width, height } = t.steps[0]!.screenshot;
  expect(width, "the demo screenshots are wider than the 720 px display variant").toBeGreaterThan(720);
  await viewer.goto(t.id, 1);
  const canvas = viewer.canvas;

  // Fit: the whole screenshot, using the stage's height, drawn from the display variant.
  const fit = await canvas.drawn();
  expect(fit.screenshot!.variant).toBe("display");
  expect(fit.screenshot!.src).toContain("variant=display");
  expect(fit.screenshot!.naturalWidth).toBe(720);
  expect(height * fit.screenshot!.scale).toBeGreaterThan(fit.size.height - 20);
  expect(height * fit.screenshot!.scale).toBeLessThanOrEqual(fit.size.height);
  await expect(canvas.button("Fit")).toHaveAttribute("aria-pressed", "true");
  await expect(canvas.zoomLevel).toHaveText(`${Math.round(fit.screenshot!.scale * 100)} %`);

  // The wheel zooms about the pointer: the screenshot pixel under it stays under it.
  // The pointer sits on a whole CSS pixel; the screenshot point under it is what must stay put.
  const rough = await canvas.toPage([Math.round(width * 0.3), Math.round(height * 0.25)]);
  const at: Point = [Math.round(rough[0]), Math.round(rough[1])];
  const target = await canvas.imagePointAt(at);
  await page.mouse.move(at[0], at[1]);
  for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -200);
  await expect.poll(() => scaleOf(canvas)).toBeGreaterThan(fit.screenshot!.scale * 1.5);
  expectNear(await canvas.imagePointAt(at), target);
  await expect(canvas.button("Fit")).toHaveAttribute("aria-pressed", "false");

  // Keyboard zoom keeps the same point still (the last pointer position), not the stage centre.
  const before = await scaleOf(canvas);
  await viewer.press("+");
  await expect.poll(() => scaleOf(canvas)).toBeCloseTo(before * 1.25, 5);
  expectNear(await canvas.imagePointAt(at), target);

  // 100 %: one screenshot pixel per screen pixel (device pixel ratio 1 here); past the display
  // variant's 720 px the original is fetched and drawn.
  await viewer.press("Control+0");
  await expect.poll(() => scaleOf(canvas)).toBeCloseTo(1, 5);
  await expect(canvas.zoomLevel).toHaveText("100 %");
  await expect.poll(async () => (await canvas.drawn()).screenshot!.variant).toBe("original");
  const full = (await canvas.drawn()).screenshot!;
  expect(full.src).toContain("variant=original");
  expect(full.naturalWidth).toBe(width);
  expectNear(await canvas.imagePointAt(at), target);

  // Fit is its own control and goes back to the display variant.
  await canvas.button("Fit").click();
  await expect.poll(() => scaleOf(canvas)).toBeCloseTo(fit.screenshot!.scale, 5);
  expect((await canvas.drawn()).screenshot!.variant).toBe("display");

  // The 100 % button does the same as the key.
  await canvas.button("100 %").click();
  await expect.poll(() => scaleOf(canvas)).toBeCloseTo(1, 5);
});

test("viewer: space+drag pans the screenshot and never scrolls the side panel", async ({ page, viewer, request }) => {
  const t = await longest(request);
  await viewer.goto(t.id, 1);
  const canvas = viewer.canvas;
  const panel = viewer.panel;
  expect(
    await panel.evaluate((el) => el.scrollHeight > el.clientHeight),
    "the step panel must be scrollable for this test to mean anything",
  ).toBe(true);
  await canvas.button("100 %").click();
  // The panel has the keyboard's scrolling focus (as after reading it): Space over it scrolls it...
  await panel.evaluate((el) => {
    el.tabIndex = -1;
    el.focus();
  });
  const side = (await panel.boundingBox())!;
  await page.mouse.move(side.x + side.width / 2, side.y + side.height / 2);
  await page.keyboard.press(" ");
  await expect
    .poll(() => panel.evaluate((el) => el.scrollTop), { message: "Space over the panel scrolls it (the setup can scroll)" })
    .toBeGreaterThan(0);
  // Let the smooth scroll finish before putting the panel back at the top.
  const settled = () =>
    panel.evaluate(
      (el) =>
        new Promise<boolean>((done) => {
          const top = el.scrollTop;
          setTimeout(() => done(el.scrollTop === top), 250);
        }),
    );
  await expect.poll(settled).toBe(true);
  await panel.evaluate((el) => el.scrollTo({ top: 0, behavior: "instant" }));
  await expect.poll(settled).toBe(true);
  expect(await panel.evaluate((el) => el.scrollTop)).toBe(0);
  const start = (await canvas.drawn()).screenshot!;

  const box = (await canvas.stage.boundingBox())!;
  const from: Point = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(from[0], from[1]);
  await page.keyboard.down(" ");
  await page.mouse.down();
  await page.mouse.move(from[0] - 40, from[1] - 60, { steps: 4 });
  await page.mouse.move(from[0] - 80, from[1] - 120, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up(" ");

  const end = (await canvas.drawn()).screenshot!;
  expect(end.scale).toBe(start.scale);
  expect(end.x - start.x).toBeCloseTo(-80, 0);
  expect(end.y - start.y).toBeCloseTo(-120, 0);
  // ...but over the canvas, Space is the pan key: neither the panel nor the page moved.
  expect(await panel.evaluate((el) => el.scrollTop)).toBe(0);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await viewer.expectStep(1);
});

test("viewer: each layer has its own toggle, and both boxes are drawn together", async ({ viewer, request }) => {
  const t = await longest(request);
  const index = t.steps.findIndex(
    (s) =>
      s.box && s.original.box && (s.toolCall.action === "click" || s.toolCall.action === "long_press" || s.toolCall.action === "swipe"),
  );
  expect(index, "the demo needs a step with a gesture and an imported box (recorded as original.box)").toBeGreaterThanOrEqual(0);
  await viewer.goto(t.id, index + 1);
  const canvas = viewer.canvas;
  const names = async () => {
    const d = await canvas.drawn();
    return [...d.marks.map((m) => m.name), ...d.boxes.filter((b) => b.name !== "candidate-box").map((b) => b.name)].sort();
  };
  const all = ["corrected-action", "corrected-box", "imported-box", "model-action"];
  expect(await names()).toEqual(all);
  const drawn = await canvas.drawn();
  expect(drawn.boxes.find((b) => b.name === "imported-box")!.stroke).toBe(MODEL);
  expect(drawn.boxes.find((b) => b.name === "imported-box")!.dash.length).toBeGreaterThan(0);
  expect(drawn.boxes.find((b) => b.name === "corrected-box")!.stroke).toBe(CORRECTED);

  const toggles = [
    ["Model's action", "model-action"],
    ["Corrected action", "corrected-action"],
    ["Imported box", "imported-box"],
    ["Corrected box", "corrected-box"],
  ] as const;
  for (const [label, name] of toggles) {
    await canvas.layerToggle(label).uncheck();
    await expect.poll(names).toEqual(all.filter((n) => n !== name));
    await canvas.layerToggle(label).check();
    await expect.poll(names).toEqual(all);
  }
});

test.describe("editor", () => {
  test.use({ storageState: storageStateFor("annotator") });

  async function openTask(page: Page, baseURL: string) {
    const editor = new EditorPage(page);
    const next = await page.request.post("/api/tasks/next", { headers: { origin: baseURL } });
    expect(next.status(), await next.text()).toBe(200);
    const { id } = (await next.json()) as { id: string };
    await editor.goto(id, 1);
    await editor.canvas.waitForScreenshot();
    return editor;
  }

  test("a tap and a box drawn in the editor appear in the correction's colour, beside the model's action", async ({ page, baseURL }) => {
    const editor = await openTask(page, baseURL!);
    await editor.tapAt([300, 600]);
    await editor.drawBox([240, 560, 360, 640]);
    const drawn = await editor.canvas.drawn();
    const tap = drawn.marks.find((m) => m.name === "corrected-action")!;
    expect(tap.stroke).toBe(CORRECTED);
    expectNear(tap.points[0]!, await editor.canvas.toStage([300, 600]), 1);
    const box = drawn.boxes.find((b) => b.name === "corrected-box")!;
    expect(box.stroke).toBe(CORRECTED);
    expectNear(box.corners[0], await editor.canvas.toStage([240, 560]), 1.5);
    expectNear(box.corners[1], await editor.canvas.toStage([360, 640]), 1.5);
    expect(drawn.handles, "the new box is selected, with its eight handles").toBe(8);
    for (const m of drawn.marks.filter((x) => x.name === "model-action")) expect(m.stroke).toBe(MODEL);

    // Zoomed to 100 %, a tap still lands on the screenshot pixel under the pointer.
    await editor.press("Escape");
    await editor.canvas.button("100 %").click();
    // The next task may be a real 720 px screenshot (the Qwen cookbook's), which the display variant already covers at 100 %.
    const engine = await editor.state();
    const needed = engine.steps[engine.stepIndex]!.size.width;
    await expect
      .poll(async () => (await editor.canvas.drawn()).screenshot!.variant, { timeout: 20_000 })
      .toBe(needed > 720 ? "original" : "display");
    const stage = (await editor.canvas.stage.boundingBox())!;
    const under = await editor.canvas.imagePointAt([stage.x + stage.width / 2, stage.y + stage.height / 2]);
    const p: Point = [Math.round(under[0]), Math.round(under[1])];
    await editor.tapAt(p);
    const call = (await editor.current()).toolCall;
    expect(call.action).toBe("click");
    expect(call.action === "click" && call.coordinate).toBeTruthy();
    if (call.action === "click" && call.coordinate) expectNear(call.coordinate, p, 1);
    expectNear(
      (await editor.canvas.drawn()).marks.find((m) => m.name === "corrected-action")!.points[0]!,
      await editor.canvas.toStage(p),
      1,
    );
  });

  test("Box tool as the help says: B selects the box, its handle resizes it, its body moves it, Esc then a drag draws anew", async ({
    page,
    baseURL,
  }) => {
    const editor = await openTask(page, baseURL!);
    await editor.drawBox([200, 500, 600, 900]);
    const drag = async (from: Point, to: Point) => {
      const [ax, ay] = await editor.toScreen(from);
      const [bx, by] = await editor.toScreen(to);
      await page.mouse.move(ax, ay);
      await page.mouse.down();
      await page.mouse.move((ax + bx) / 2, (ay + by) / 2, { steps: 4 });
      await page.mouse.move(bx, by, { steps: 4 });
      await page.mouse.up();
    };
    const box = async () => (await editor.current()).box!;
    const near = async (expected: [number, number, number, number]) => {
      const b = await box();
      for (let i = 0; i < 4; i++) expect(Math.abs(b[i]! - expected[i]!), `${b} vs ${expected}`).toBeLessThanOrEqual(3);
    };
    await near([200, 500, 600, 900]);
    await editor.press("Escape");
    await editor.press("b");
    expect((await editor.state()).isBoxSelected, "B selects the box").toBe(true);
    // The south-east handle: a resize (not a tiny new box).
    await drag([600, 900], [700, 1000]);
    await near([200, 500, 700, 1000]);
    // The body: a move, the size kept.
    await drag([400, 700], [450, 760]);
    await near([250, 560, 750, 1060]);
    // Esc drops the selection: the same press now draws a new box from inside the old one.
    await editor.press("Escape");
    await drag([400, 700], [500, 800]);
    await near([400, 700, 500, 800]);
    // Each gesture is one undo step.
    await editor.press("Control+z");
    await near([250, 560, 750, 1060]);
  });

  test("zoom keys never change a focused form control, and do not zoom while it has the focus", async ({ page, baseURL }) => {
    const editor = await openTask(page, baseURL!);
    const select = page.getByRole("combobox", { name: "Action" });
    const value = await select.inputValue();
    const level = await editor.canvas.zoomLevel.textContent();
    await select.focus();
    for (const key of ["-", "+", "=", "Control+0", "f"]) await page.keyboard.press(key);
    await expect(select).toHaveValue(value);
    await expect(editor.canvas.zoomLevel).toHaveText(level!);
    // Out of the field, the same key zooms.
    await editor.leaveField();
    await page.keyboard.press("+");
    await expect(editor.canvas.zoomLevel).not.toHaveText(level!);
  });
});

test.describe("review", () => {
  test.use({ storageState: storageStateFor("reviewer") });

  test("each step is on the step canvas: both actions and boxes in the same colours, Ctrl+wheel zooms at the pointer, 100 % draws the original", async ({
    page,
    request,
  }) => {
    const t = await longest(request);
    const index = t.steps.findIndex((s) => s.toolCall.action === "click" && s.original.box);
    expect(index).toBeGreaterThanOrEqual(0);
    const step = t.steps[index]!;
    await page.goto(`/reviews/${t.id}`);
    const article = page.getByRole("article", { name: `Step ${index + 1}` });
    await article.scrollIntoViewIfNeeded();
    const canvas = new StepCanvasPart(page, article);
    await canvas.waitForScreenshot();

    const drawn = await canvas.drawn();
    const shot = drawn.screenshot!;
    const at = ([x, y]: Point): Point => [shot.x + x * shot.scale, shot.y + y * shot.scale];
    const corrected = drawn.marks.find((m) => m.name === "corrected-action")!;
    expect(corrected.stroke).toBe(CORRECTED);
    if (step.toolCall.action === "click" && step.toolCall.coordinate) expectNear(corrected.points[0]!, at(step.toolCall.coordinate), 0.6);
    const imported = drawn.boxes.find((b) => b.name === "imported-box")!;
    expect(imported.stroke).toBe(MODEL);
    expectNear(imported.corners[0], at([step.original.box![0], step.original.box![1]]), 0.6);

    // A plain wheel scrolls the page; Ctrl+wheel zooms about the pointer.
    const box = (await canvas.stage.boundingBox())!;
    const pointer: Point = [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 3)];
    await page.mouse.move(pointer[0], pointer[1]);
    const under = await canvas.imagePointAt(pointer);
    await page.keyboard.down("Control");
    await page.mouse.wheel(0, -300);
    await page.keyboard.up("Control");
    await expect.poll(async () => (await canvas.drawn()).screenshot!.scale).toBeGreaterThan(shot.scale * 1.3);
    expectNear(await canvas.imagePointAt(pointer), under, 1);

    await canvas.button("100 %").click();
    await expect(canvas.zoomLevel).toHaveText("100 %");
    await expect.poll(async () => (await canvas.drawn()).screenshot!.variant).toBe("original");
    expect((await canvas.drawn()).screenshot!.naturalWidth).toBe(step.screenshot.width);

    // The keyboard zooms the current step's picture too: 0 fits (F is "fix" here), + zooms in, Ctrl+0 is 100 %.
    await page.keyboard.press("0");
    await expect(canvas.zoomLevel).not.toHaveText("100 %");
    await expect.poll(async () => (await canvas.drawn()).screenshot!.scale).toBeCloseTo(shot.scale, 3);
    await page.keyboard.press("+");
    await expect.poll(async () => (await canvas.drawn()).screenshot!.scale).toBeGreaterThan(shot.scale * 1.1);
    await page.keyboard.press("Control+0");
    await expect(canvas.zoomLevel).toHaveText("100 %");
  });
});
