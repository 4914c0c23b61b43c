import { expect, test } from "./fixtures";
import { storageStateFor } from "./accounts";

test("the progress page charts work by app and status and lists each annotator's pipeline", async ({ page, request }) => {
  const stats = (await (await request.get("/api/stats")).json()) as { byApp: { app: string }[] };
  await page.goto("/dashboard");
  const byApp = page.getByRole("region", { name: "Trajectories by app and status" });
  await expect(byApp.locator("svg.recharts-surface").first()).toBeVisible();
  // One bar label per app on the chart's axis.
  for (const { app } of stats.byApp.slice(0, 3)) await expect(byApp.getByText(app, { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Annotators" })).toContainText("annotator@studio.local");
  await expect(page.getByRole("region", { name: "Step verdicts" }).locator("svg.recharts-surface").first()).toBeVisible();
});

test.describe("as annotator", () => {
  test.use({ storageState: storageStateFor("annotator") });
  test("annotators do not get the progress page", async ({ page }) => {
    await page.goto("/dashboard");
    await expect(page.getByText("Not allowed", { exact: true })).toBeVisible();
    expect((await page.request.get("/api/dashboard")).status()).toBe(403);
  });
});
