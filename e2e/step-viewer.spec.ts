import type { APIRequestContext } from "@playwright/test";
import type { Box, Point } from "@/lib/domain/geometry";
import type { ToolCall } from "@/lib/domain/tool-call";
import { expect, test } from "./fixtures";

type Row = { id: string; instruction: string; stepCount: number };
type Step = { toolCall: ToolCall; original: { toolCall: ToolCall; box?: Box }; box: Box | null; candidateBoxes: Box[] };
/** The one palette: the model's output violet, the correction pink, in the viewer, the editor and review. */
const MODEL = "#7c5cff";
const CORRECTED = "#e6206a";

async function longestTrajectory(request: APIRequestContext): Promise<Row> {
  const page = (await (await request.get("/api/trajectories?pageSize=200")).json()) as { rows: Row[] };
  return [...page.rows].sort((a, b) => b.stepCount - a.stepCount)[0]!;
}

test("open a trajectory from the list and step through it with the keyboard", async ({ page, list, viewer, request }) => {
  const t = await longestTrajectory(request);
  expect(t.stepCount).toBeGreaterThanOrEqual(3);

  await list.goto();
  await list.search(t.instruction.slice(0, 40));
  await list.openTrajectory(t.instruction);
  await expect(page).toHaveURL(new RegExp(`/trajectories/${t.id}`));
  await expect(viewer.instruction).toHaveText(t.instruction);
  await viewer.waitForScreenshot();
  await viewer.expectStep(1, t.stepCount);

  await viewer.press("ArrowRight");
  await viewer.expectStep(2, t.stepCount);
  await viewer.press("ArrowRight");
  await viewer.expectStep(3, t.stepCount);
  await viewer.press("ArrowLeft");
  await viewer.expectStep(2, t.stepCount);

  await viewer.press("End");
  await viewer.expectStep(t.stepCount, t.stepCount);
  await viewer.press("ArrowRight"); // past the end stays on the last step
  await viewer.expectStep(t.stepCount, t.stepCount);
  await viewer.press("Home");
  await viewer.expectStep(1, t.stepCount);
  await viewer.press("j");
  await viewer.expectStep(2, t.stepCount);

  // A reload keeps the place.
  await page.reload();
  await viewer.waitForScreenshot();
  await viewer.expectStep(2, t.stepCount);

  await viewer.thumbnail(t.stepCount).click();
  await viewer.expectStep(t.stepCount, t.stepCount);
});

test("the canvas draws each step's model and corrected action and boxes at their original-pixel coordinates", async ({
  viewer,
  request,
}) => {
  const t = await longestTrajectory(request);
  const full = (await (await request.get(`/api/trajectories/${t.id}`)).json()) as { steps: Step[] };
  await viewer.goto(t.id);

  const seen = new Set<string>();
  for (let i = 0; i < full.steps.length; i++) {
    const expected = full.steps[i]!;
    await viewer.expectStep(i + 1);
    await viewer.waitForScreenshot();
    const drawn = await viewer.canvas.drawn();
    const shot = drawn.screenshot!;
    expect(shot.scale).toBeGreaterThan(0);
    const at = ([x, y]: Point): Point => [shot.x + x * shot.scale, shot.y + y * shot.scale];

    for (const [who, call, colour] of [
      ["model", expected.original.toolCall, MODEL],
      ["corrected", expected.toolCall, CORRECTED],
    ] as const) {
      const marks = drawn.marks.filter((m) => m.name === `${who}-action`);
      const points = gesturePoints(call);
      if (points.length === 0) {
        expect(marks, `step ${i + 1}: ${call.action} is told in the legend, not drawn over the screenshot`).toHaveLength(0);
        continue;
      }
      expect(marks).toHaveLength(1);
      expect(marks[0]!.stroke).toBe(colour);
      expect(marks[0]!.gesture).toBe(call.action === "click" ? "tap" : call.action);
      marks[0]!.points.forEach((p, k) => expectNear(p, at(points[k]!)));
    }
    if (expected.box) {
      const box = drawn.boxes.find((b) => b.name === "corrected-box")!;
      expect(box.stroke).toBe(CORRECTED);
      expectNear(box.corners[0], at([expected.box[0], expected.box[1]]));
      expectNear(box.corners[1], at([expected.box[2], expected.box[3]]));
    }
    // The box the step was imported with (the model's target) is drawn beside the corrected one.
    const importedBox = expected.original.box ?? expected.candidateBoxes[0];
    const imported = drawn.boxes.filter((b) => b.name === "imported-box");
    expect(imported).toHaveLength(importedBox ? 1 : 0);
    if (imported[0] && importedBox) {
      expect(imported[0].stroke).toBe(MODEL);
      expectNear(imported[0].corners[0], at([importedBox[0], importedBox[1]]));
      expectNear(imported[0].corners[1], at([importedBox[2], importedBox[3]]));
    }
    seen.add(expected.toolCall.action);
    if (i < full.steps.length - 1) await viewer.press("ArrowRight");
  }
  // The demo data must exercise a coordinate action, or this test proves little.
  expect([...seen].some((a) => a === "click" || a === "long_press" || a === "swipe")).toBe(true);
});

function gesturePoints(call: ToolCall): Point[] {
  switch (call.action) {
    case "click":
    case "long_press":
      return [call.coordinate];
    case "swipe":
      return [call.coordinate, call.coordinate2];
    default:
      return [];
  }
}

function expectNear(actual: Point, expected: Point) {
  expect(Math.abs(actual[0] - expected[0]), `x ${actual[0]} vs ${expected[0]}`).toBeLessThan(0.6);
  expect(Math.abs(actual[1] - expected[1]), `y ${actual[1]} vs ${expected[1]}`).toBeLessThan(0.6);
}

test("an unknown trajectory says so", async ({ page }) => {
  await page.goto("/trajectories/does-not-exist");
  await expect(page.getByRole("alert").filter({ hasText: "does-not-exist" })).toHaveText("trajectory does-not-exist does not exist");
});
