import { storageStateFor } from "./accounts";
import { expect, test } from "./fixtures";
import { annotatorContext, resetSettings, seedAnnotatorTask } from "./layout-seed";
import { EditorPage } from "./pages/editor-page";

// Issue 21, item 7: a person's settings live on the server, so they follow the person to another browser (a fresh
// context has none of the first one's storage).

test.describe.configure({ timeout: 120_000 });

test("settings made in one browser are there in another for the same person, and only for them", async ({ browser, request, baseURL }) => {
  const t = await seedAnnotatorTask(request, baseURL!, "prefs", [
    { args: { action: "click", coordinate: [540, 1300] }, colour: "#dbe7f3" },
    { args: { action: "terminate", status: "success" }, colour: "#e4f3db" },
  ]);
  const first = await annotatorContext(browser, baseURL!);
  const page = await first.newPage();
  const editor = new EditorPage(page);
  await editor.goto(t.id, 1);
  // The editor draws its form only once the person's settings have arrived, so the first tick is the one that counts.
  const verdictBox = page.getByRole("checkbox", { name: "A verdict key also goes to the next step" });
  await verdictBox.click();
  await expect
    .poll(
      async () => ((await (await first.request.get("/api/me/settings")).json()) as { settings: { verdictAdvances?: boolean } }).settings,
    )
    .toMatchObject({ verdictAdvances: true });
  await expect(verdictBox).toBeChecked();
  await page.getByRole("button", { name: "Hide the legend and zoom column" }).click();
  await page.getByRole("button", { name: /^Next screen/ }).click();
  const splitter = page.getByRole("separator", { name: "Width of the step form" });
  await splitter.focus();
  await page.keyboard.press("Shift+ArrowLeft");
  await expect(splitter).toHaveAttribute("aria-valuenow", "464");
  await expect
    .poll(async () => (await (await first.request.get("/api/me/settings")).json()) as unknown)
    .toEqual({
      settings: { sidePanelWidth: 464, isLegendCollapsed: true, isNextScreenShown: true, isReviewCompact: false, verdictAdvances: true },
    });

  // Another browser: a new context with the same person's session and empty local storage.
  const second = await browser.newContext({ baseURL, viewport: { width: 1280, height: 720 }, storageState: storageStateFor("annotator") });
  const other = await second.newPage();
  expect(await other.evaluate(() => window.localStorage.length).catch(() => 0)).toBe(0);
  const editor2 = new EditorPage(other);
  await editor2.goto(t.id, 1);
  await expect(other.getByRole("checkbox", { name: "A verdict key also goes to the next step" })).toBeChecked();
  await expect(other.getByRole("button", { name: "Show the legend and zoom column" })).toBeVisible();
  await expect(other.getByRole("button", { name: /^Next screen/ })).toHaveAttribute("aria-pressed", "true");
  await expect(other.getByRole("separator", { name: "Width of the step form" })).toHaveAttribute("aria-valuenow", "464");
  // The verdict key acts on the setting in this browser too: G marks step 1 good and moves to step 2.
  await editor2.press("g");
  await editor2.expectStep(2);

  // Someone else (the admin) keeps their own defaults.
  const admin = await browser.newContext({ baseURL, storageState: storageStateFor("admin") });
  const adminSettings = (await (await admin.request.get("/api/me/settings")).json()) as { settings: Record<string, unknown> };
  expect(adminSettings.settings.isLegendCollapsed ?? false).toBe(false);

  await resetSettings(first.request, baseURL!);
  await Promise.all([first.close(), second.close(), admin.close()]);
});

test("the old browser-only verdict setting is carried over to the server once", async ({ browser, request, baseURL }) => {
  const t = await seedAnnotatorTask(request, baseURL!, "prefsold", [
    { args: { action: "click", coordinate: [540, 1300] }, colour: "#dbe7f3" },
    { args: { action: "terminate", status: "success" }, colour: "#e4f3db" },
  ]);
  const context = await annotatorContext(browser, baseURL!);
  // This browser still holds the setting the way the studio kept it before (on, in local storage); the server says off.
  const me = (await (await context.request.get("/api/me")).json()) as { person: { id: string } };
  const page = await context.newPage();
  await page.goto("/tasks");
  await page.evaluate((id) => window.localStorage.setItem(`studio.prefs.${id}.verdictAdvances`, "1"), me.person.id);
  const editor = new EditorPage(page);
  await editor.goto(t.id, 1);
  await expect(page.getByRole("checkbox", { name: "A verdict key also goes to the next step" })).toBeChecked();
  expect(await page.evaluate((id) => window.localStorage.getItem(`studio.prefs.${id}.verdictAdvances`), me.person.id)).toBeNull();
  await expect
    .poll(
      async () =>
        ((await (await context.request.get("/api/me/settings")).json()) as { settings: { verdictAdvances?: boolean } }).settings
          .verdictAdvances,
    )
    .toBe(true);

  await resetSettings(context.request, baseURL!);
  await context.close();
});

test("a setting's control waits for the person's settings: disabled and busy until they arrive, then it acts", async ({
  browser,
  request,
  baseURL,
}) => {
  const t = await seedAnnotatorTask(request, baseURL!, "prefswait", [
    { args: { action: "click", coordinate: [540, 1300] }, colour: "#dbe7f3" },
    { args: { action: "terminate", status: "success" }, colour: "#e4f3db" },
  ]);
  // The reviewer opens the annotator's work read-only; their settings are held back until the test lets them through.
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 720 }, storageState: storageStateFor("reviewer") });
  const page = await context.newPage();
  let letThrough!: () => void;
  const held = new Promise<void>((resolve) => (letThrough = resolve));
  let isReadAsked = false;
  await page.route("**/api/me/settings", async (route) => {
    if (route.request().method() === "GET") {
      isReadAsked = true;
      await held;
    }
    await route.continue();
  });
  const editor = new EditorPage(page);
  await editor.goto(t.id, 1);
  const toggle = page.getByRole("button", { name: "Hide the legend and zoom column" });
  await expect(toggle).toBeVisible();
  expect(isReadAsked).toBe(true);
  // Before the settings arrive, a click could only act on the default: the control is not offered yet.
  await expect(toggle).toBeDisabled();
  await expect(toggle).toHaveAttribute("aria-busy", "true");
  letThrough();
  await expect(toggle).toBeEnabled();
  await expect(toggle).toHaveAttribute("aria-busy", "false");
  await context.close();
});
