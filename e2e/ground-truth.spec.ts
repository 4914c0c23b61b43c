import { storageStateFor } from "./accounts";
import { expect, test } from "./fixtures";
import { EditorPage } from "./pages/editor-page";

test.use({ storageState: storageStateFor("annotator") });

test("a click outside the step's own box blocks the step with a reason that names the numbers", async ({ page }) => {
  const editor = new EditorPage(page);
  await page.goto("/tasks");
  await page.getByRole("button", { name: /Start next task/ }).click();
  await expect(page).toHaveURL(/\/trajectories\/[^/?]+/);
  await editor.waitForScreenshot();
  await editor.writeThought({ state: "The home screen is open.", nextAction: "Tap the search bar.", purpose: "To search." });
  await editor.writeClearAction("Tap the search bar.");
  await editor.tapAt([300, 600]);
  // The box is drawn on another element: the ground truth contradicts itself.
  await editor.drawBox([600, 1400, 800, 1600]);
  await editor.press("Escape");
  await editor.setVerdict("corrected");
  const reason = page.locator(".problem.is-blocking", { hasText: "outside this step's own target box" });
  await expect(reason).toBeVisible();
  // The numbers only, the same in every language: (x, y) ∉ [x1, y1, x2, y2].
  await expect(reason).toContainText(/\(\d+(\.\d+)?, \d+(\.\d+)?\) ∉ \[\d/);
  // Redrawing the box around the click clears it.
  await editor.drawBox([240, 560, 360, 640]);
  await editor.press("Escape");
  await expect(reason).toHaveCount(0);
});
