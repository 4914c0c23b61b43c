import { expect, test } from "./fixtures";
import { storageStateFor } from "./accounts";

test("the progress page charts work by app and status and lists each annotator's pipeline @storage", async ({ page, request }) => {
  const stats = (await (await request.get("/api/stats")).json()) as { byApp: { app: string }[] };
  await page.goto("/dashboard");
  const byApp = page.getByRole("region", { name: "Trajectories by app and status" });
  // The first page of a freshly started server loads its route modules first (a cold start): wait for the data.
  await expect(byApp.locator("svg.recharts-surface").first()).toBeVisible({ timeout: 20_000 });
  // One bar label per app on the chart's axis.
  for (const { app } of stats.byApp.slice(0, 3)) await expect(byApp.getByText(app, { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Annotators" })).toContainText("annotator@studio.local");
  // The verdict chart draws the verdicts people gave; on a studio where nobody has judged a step yet it says so instead.
  const verdicts = page.getByRole("region", { name: "Step verdicts" });
  await expect(verdicts.locator("svg.recharts-surface").first().or(verdicts.getByText("No step has a verdict yet"))).toBeVisible();
});

test("each table's CSV download holds the numbers the page shows @storage", async ({ page }) => {
  await page.goto("/dashboard");
  const region = page.getByRole("region", { name: "Annotators" });
  const link = region.getByRole("link", { name: "Download “Annotators” as CSV" });
  await expect(link).toHaveAttribute("href", "/api/dashboard/tables/annotators", { timeout: 20_000 });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toMatch(/^studio-annotators-\d{4}-\d{2}-\d{2}\.csv$/);
  const { readFile } = await import("node:fs/promises");
  const csv = (await readFile((await download.path())!, "utf8")).replace(/^\uFEFF/, "");
  const lines = csv.trim().split("\n");
  expect(lines[0]).toBe("email,assigned,in_progress,submitted,approved,sent_back,approved_share");
  // The page's row for each person has the CSV's counts, column for column.
  for (const line of lines.slice(1)) {
    const [email, ...counts] = line.split(",");
    const cells = await region.getByRole("row").filter({ hasText: email! }).getByRole("cell").allInnerTexts();
    expect(
      cells.slice(1, 6).map((c) => c.trim()),
      email,
    ).toEqual(counts.slice(0, 5));
  }
  // Every table on the page has its own link.
  for (const name of ["Trajectories by app and status", "Step verdicts", "Last 14 days", "Review outcomes"])
    await expect(page.getByRole("link", { name: `Download “${name}” as CSV` })).toBeVisible();
});

test.describe("as annotator", () => {
  test.use({ storageState: storageStateFor("annotator") });
  test("annotators do not get the progress page @storage", async ({ page }) => {
    await page.goto("/dashboard");
    await expect(page.getByText("Not allowed", { exact: true })).toBeVisible();
    expect((await page.request.get("/api/dashboard")).status()).toBe(403);
  });
});
