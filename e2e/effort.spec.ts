import { storageStateFor } from "./accounts";
import { expect, test } from "./fixtures";
import { annotatorContext, seedAnnotatorTask } from "./layout-seed";
import { EditorPage } from "./pages/editor-page";

// Issue 26 item 5: the editor counts a person's active time per step. Input events count the time
// since the previous one; a gap over a minute is idle and counts nothing. The page's clock is
// Playwright's fake clock, so "90 seconds idle" is 90 seconds of the page's time, not of the run's.

test.describe.configure({ timeout: 120_000 });

test("active time: 10 s and 5 s of work count, 90 s idle between them does not; the dashboard shows it", async ({
  browser,
  request,
  baseURL,
}) => {
  const app = `Effort-${Date.now().toString(36)}`; // no space: the dashboard chart wraps an axis label at spaces
  const t = await seedAnnotatorTask(
    request,
    baseURL!,
    "effort",
    [
      { args: { action: "click", coordinate: [540, 1300] }, colour: "#dbe7f3" },
      { args: { action: "terminate", status: "success" }, colour: "#e4f3db" },
    ],
    { app },
  );
  const context = await annotatorContext(browser, baseURL!);
  const page = await context.newPage();
  await page.clock.install();
  const editor = new EditorPage(page);
  await editor.goto(t.id, 1);
  await page.clock.pauseAt(Date.now() + 60_000);
  expect(await page.evaluate(() => document.hasFocus())).toBe(true);

  const shift = () => page.keyboard.press("Shift");
  await shift();
  await page.clock.fastForward(10_000);
  await shift(); // 10 s of work on step 1
  await page.clock.fastForward(90_000);
  await shift(); // 90 s away: idle, not counted
  await page.clock.fastForward(5_000);
  await shift(); // 5 s more
  await page.clock.fastForward(15_000); // the next report goes out

  const admin = await browser.newContext({ baseURL, storageState: storageStateFor("admin") });
  type Row = { app: string; steps: number; medianMs: number | null; totalMs: number };
  const mine = async () =>
    ((await (await admin.request.get("/api/dashboard/effort")).json()) as { byApp: Row[] }).byApp.find((r) => r.app === app) ?? null;
  await expect.poll(mine, { timeout: 20_000 }).toEqual({ app, steps: 1, medianMs: 15_000, totalMs: 15_000, edits: 0 });

  // The dashboard shows the app's median, and its CSV holds the same figure in milliseconds.
  const dash = await admin.newPage();
  await dash.goto("/dashboard");
  const panel = dash.getByTestId("effort");
  await panel.getByRole("button", { name: "App" }).click();
  const row = panel.getByRole("row").filter({ hasText: app });
  await expect(row).toContainText("15");
  const csv = await admin.request.get("/api/dashboard/tables/effort-by-app");
  expect(await csv.text()).toContain(`${app},1,15000,15000,0`);
  await expect(panel.getByRole("link", { name: /Download .* as CSV/ })).toHaveAttribute("href", "/api/dashboard/tables/effort-by-app");
  await Promise.all([context.close(), admin.close()]);
});
