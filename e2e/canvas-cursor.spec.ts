import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { annotatorContext, resetSettings, seedAnnotatorTask } from "./layout-seed";
import { EditorPage } from "./pages/editor-page";

// Issue 21, item 2: input is accepted only on the screenshot, and the cursor says so. Beside the phone (the grey
// margin) a press pans and never edits, whatever the tool; the cursor there is the pan hand, over the picture the tool's.

/** The cursor the page shows at a point (what a person sees), from the element under it. */
const cursorAt = (page: Page, x: number, y: number) =>
  page.evaluate(([px, py]) => getComputedStyle(document.elementFromPoint(px!, py!)!).cursor, [x, y]);

test.describe.configure({ timeout: 120_000 });

test("a click in the margin beside the screenshot changes nothing with any tool; the cursor shows where input counts", async ({
  browser,
  request,
  baseURL,
}) => {
  const t = await seedAnnotatorTask(request, baseURL!, "cursor", [
    { args: { action: "system_button", button: "Home" }, colour: "#e8e4f3" },
    { args: { action: "terminate", status: "success" }, colour: "#f3ece4" },
  ]);
  const context = await annotatorContext(browser, baseURL!);
  const page = await context.newPage();
  const editor = new EditorPage(page);
  await editor.goto(t.id, 1);
  const before = await editor.current();
  expect(before.toolCall).toEqual({ action: "system_button", button: "Home" });

  const d = await editor.canvas.drawn();
  const shot = d.screenshot!;
  // The margin left of the phone (the picture is drawn centred in a wider stage), at the picture's mid height.
  expect(shot.x).toBeGreaterThan(40);
  const margin: [number, number] = [d.origin[0] + shot.x / 2, d.origin[1] + shot.y + (2400 * shot.scale) / 2];
  const [cx, cy] = await editor.toScreen([540, 1200]);

  for (const [key, onPicture] of [
    ["p", "crosshair"],
    ["s", "crosshair"],
    ["b", "crosshair"],
    ["v", "default"],
  ] as const) {
    await editor.press(key);
    await page.mouse.move(cx, cy, { steps: 2 });
    expect(await cursorAt(page, cx, cy), `tool ${key} over the picture`).toBe(onPicture);
    await page.mouse.move(margin[0], margin[1], { steps: 2 });
    expect(await cursorAt(page, margin[0], margin[1]), `tool ${key} in the margin`).toBe("grab");
    await page.mouse.click(margin[0], margin[1]);
    // A drag that starts in the margin and ends on the picture does not edit either.
    await page.mouse.move(margin[0], margin[1]);
    await page.mouse.down();
    await page.mouse.move(cx, cy, { steps: 4 });
    await page.mouse.up();
    expect(await editor.current(), `tool ${key}: the step is unchanged`).toEqual(before);
    // The drag panned the picture: fit it again for the next tool.
    await editor.press("f");
  }
  expect((await editor.state()).doc.steps[t.steps[0]!.id]).toEqual(before);

  await resetSettings(context.request, baseURL!);
  await context.close();
});
