import type { APIRequestContext } from "@playwright/test";
import type { StepView, TrajectoryView } from "@/lib/domain/views";
import { storageStateFor } from "./accounts";
import { expect, test } from "./fixtures";
import { EditorPage } from "./pages/editor-page";

test.use({ storageState: storageStateFor("annotator") });

async function trajectory(request: APIRequestContext, id: string): Promise<TrajectoryView> {
  const res = await request.get(`/api/trajectories/${id}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as TrajectoryView;
}

test("an annotator corrects a trajectory step by step with the keyboard and submits it", async ({ page, request }) => {
  const editor = new EditorPage(page);
  await page.goto("/tasks");
  await expect(page.getByRole("heading", { name: "My tasks" })).toBeVisible();
  await page.getByRole("button", { name: /Start next task/ }).click();
  await expect(page).toHaveURL(/\/trajectories\/[^/?]+/);
  await editor.waitForScreenshot();
  const id = new URL(page.url()).pathname.split("/").pop()!;
  const before = await trajectory(request, id);
  expect(before.steps.length).toBeGreaterThanOrEqual(3);
  await editor.expectStep(1);

  // Rewrite the thought in the three fields; the composed text follows.
  await editor.writeThought({
    state: "The home screen of the app is open.",
    nextAction: "Tap the search bar at the top.",
    purpose: "To look up the product.",
  });
  await expect(editor.field("Thought (composed)")).toHaveValue(
    "The home screen of the app is open. Tap the search bar at the top. To look up the product.",
  );
  await editor.writeClearAction("Tap the search bar at the top.");

  // Clicking on the screenshot makes the action a click there (original pixels).
  await editor.tapAt([300, 600]);
  const tap = (await editor.current()).toolCall;
  expect(tap.action).toBe("click");
  expect(tap.action === "click" && tap.coordinate).toBeTruthy();
  if (tap.action === "click" && tap.coordinate) {
    expect(Math.abs(tap.coordinate[0] - 300)).toBeLessThanOrEqual(2);
    expect(Math.abs(tap.coordinate[1] - 600)).toBeLessThanOrEqual(2);
  }

  // Draw the target box, then nudge it: three 1 px steps right, one 10 px step down.
  await editor.drawBox([240, 560, 360, 640]);
  const drawn = (await editor.current()).box!;
  expect(drawn[2] - drawn[0]).toBeGreaterThan(100);
  for (let i = 0; i < 3; i++) await editor.press("ArrowRight");
  await editor.press("Shift+ArrowDown");
  const nudged: typeof drawn = [drawn[0] + 3, drawn[1] + 10, drawn[2] + 3, drawn[3] + 10];
  expect((await editor.current()).box).toEqual(nudged);

  // Undo takes back the whole run of nudges (one gesture), redo brings it back.
  await editor.press("Control+z");
  expect((await editor.current()).box).toEqual(drawn);
  await editor.press("Control+Shift+z");
  expect((await editor.current()).box).toEqual(nudged);
  await editor.press("Escape");
  await editor.setVerdict("corrected");

  // Reload: everything is still there (saved, and nothing left only in the browser).
  await editor.waitSaved();
  await page.reload();
  await editor.waitForScreenshot();
  await expect(editor.field("State")).toHaveValue("The home screen of the app is open.");
  await expect(editor.field("Clear action")).toHaveValue("Tap the search bar at the top.");
  const reloaded = await editor.current();
  expect(reloaded.box).toEqual(nudged);
  expect(reloaded.toolCall).toEqual(tap);
  expect(reloaded.verdict).toBe("corrected");

  // Step 2 is harmful (kept as context); cut after step 3 when there is a step 4, else after step 2.
  const cutAt = before.steps.length >= 4 ? 3 : 2;
  await editor.press("j");
  await editor.expectStep(2);
  await editor.completeStep({ tap: [500, 900], verdict: "harmful", label: "Back" });
  if (cutAt === 3) {
    await editor.press("j");
    await editor.expectStep(3);
    await editor.completeStep({ tap: [540, 1200], verdict: "good", label: "Search" });
  }
  await editor.press("x");
  await expect(
    page
      .getByRole("navigation", { name: "Steps" })
      .getByRole("button", { name: /after cut/ })
      .first(),
  ).toBeVisible();

  // The task outcome, then submit.
  await editor.setOutcome("Success");
  await editor.waitSaved();
  await expect(editor.submitButton).toBeEnabled();
  await editor.submitButton.click();
  await expect(page.locator(".editor-head .badge").first()).toHaveText("Submitted");

  const after = await trajectory(request, id);
  expect(after.status).toBe("submitted");
  expect(after.outcome).toBe("success");
  expect(after.cutAfter).toBe(cutAt - 1);
  expect(after.steps[0]).toMatchObject({
    verdict: "corrected",
    box: nudged,
    clearAction: "Tap the search bar at the top.",
  } satisfies Partial<StepView>);
  expect(after.steps[0]!.thought).toMatchObject({
    state: "The home screen of the app is open.",
    nextAction: "Tap the search bar at the top.",
    purpose: "To look up the product.",
  });
  expect(after.steps[1]!.verdict).toBe("harmful");
});

test("the help overlay lists the shortcuts from the registry", async ({ page }) => {
  const editor = new EditorPage(page);
  await page.goto("/tasks");
  await page.getByRole("button", { name: /Start next task/ }).click();
  await editor.waitForScreenshot();
  await editor.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  await expect(help.getByText("Nudge the box 10 px")).toBeVisible();
  await expect(help.getByText("Undo")).toBeVisible();
  await editor.press("Escape");
  await expect(help).toBeHidden();
});

test("unsaved edits survive a dropped connection and a reload", async ({ page, context }) => {
  const editor = new EditorPage(page);
  await page.goto("/tasks");
  await page.getByRole("button", { name: /Start next task/ }).click();
  await editor.waitForScreenshot();
  await context.setOffline(true);
  await editor.field("Purpose").fill("Written while offline.");
  await editor.leaveField();
  await expect(editor.syncStatus).toHaveText("Offline — kept on this device", { timeout: 10_000 });
  await context.setOffline(false);
  await page.reload();
  await editor.waitForScreenshot();
  await expect(editor.field("Purpose")).toHaveValue("Written while offline.");
  await editor.waitSaved();
  await page.reload();
  await editor.waitForScreenshot();
  await expect(editor.field("Purpose")).toHaveValue("Written while offline.");
});
