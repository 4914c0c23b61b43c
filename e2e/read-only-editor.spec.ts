import type { APIRequestContext } from "@playwright/test";
import type { TrajectoryView } from "@/lib/domain/views";
import { expect, test } from "./fixtures";

/** A registry key spec as Playwright presses it: "mod+shift+z" -> "Control+Shift+Z", " " -> "Space" (lib/canvas/shortcuts parseKbd). */
function playwrightKey(kbd: string): string {
  const parts = kbd === "+" ? ["+"] : kbd.split("+").filter(Boolean);
  const key = parts.pop() ?? "";
  const shift = parts.includes("shift");
  const name = key === " " ? "Space" : shift && key.length === 1 ? key.toUpperCase() : key;
  return [parts.includes("mod") && "Control", parts.includes("alt") && "Alt", shift && "Shift", name].filter(Boolean).join("+");
}

/** What a trainer would get from the trajectory: its annotation and every step's, with their versions. */
async function stored(request: APIRequestContext, id: string) {
  const t = (await (await request.get(`/api/trajectories/${id}`)).json()) as TrajectoryView;
  return {
    version: t.version,
    outcome: t.outcome,
    isDiscarded: t.isDiscarded,
    cutAfter: t.cutAfter,
    steps: t.steps.map((s) => ({
      version: s.version,
      thought: s.thought,
      clearAction: s.clearAction,
      toolCall: s.toolCall,
      box: s.box,
      verdict: s.verdict,
    })),
  };
}

test("read-only (the viewer): no key the registry marks as editing changes the stored annotation; moving and zooming still work", async ({
  page,
  viewer,
  request,
}) => {
  const rows = (await (await request.get("/api/trajectories?pageSize=200")).json()) as { rows: { id: string; stepCount: number }[] };
  const t = [...rows.rows].sort((a, b) => b.stepCount - a.stepCount)[0]!;
  const before = await stored(request, t.id);

  await viewer.goto(t.id, 2);
  // The page's own registry (the one its key listener reads), so a key added later as editing is pressed here too.
  const editing = (await page.evaluate(() => window.__studioEditor!.shortcuts())).filter((s) => !s.readonlyOk);
  // Tools, verdicts, action types, nudges, delete, cut, outcome, discard, undo/redo, save, submit, lane keys.
  expect(editing.map((s) => s.id)).toEqual(
    expect.arrayContaining(["tool.point", "verdict.good", "action.click", "box.delete", "trajectory.cut", "history.undo", "lane.toggle"]),
  );
  // The viewer is the editor engine, read-only (the test build exposes its state).
  const engine = () =>
    page.evaluate(() => {
      const s = window.__studioEditor!.state();
      return { isReadOnly: s.isReadOnly, doc: s.doc, undo: s.history.past.length, tool: s.tool, mode: s.mode, firstError: s.firstError };
    });
  const loaded = await engine();
  expect(loaded.isReadOnly).toBe(true);

  // A press and a drag over the screenshot only pan.
  const box = (await viewer.canvas.stage.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();

  for (const s of editing) {
    for (const kbd of s.kbd) {
      await viewer.press(playwrightKey(kbd));
      // A key that also means something read-only (→ is "next step" when no box is selected) may move: come back.
      await viewer.press("Home");
    }
  }
  const after = await engine();
  expect(after).toEqual(loaded);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  expect(await stored(request, t.id)).toEqual(before);

  // What read-only keeps: steps, zoom and the help.
  await viewer.expectStep(1);
  await viewer.press("ArrowRight");
  await viewer.expectStep(2);
  const zoom = await viewer.canvas.zoomLevel.textContent();
  await viewer.press("+");
  await expect(viewer.canvas.zoomLevel).not.toHaveText(zoom ?? "");
  await viewer.press("?");
  await expect(page.getByRole("dialog", { name: /Keyboard shortcuts/ })).toBeVisible();
});
