import { request as playwrightRequest, type Locator } from "@playwright/test";
import { storageStateFor } from "./accounts";
import { expect, test } from "./fixtures";
import { importTrajectories } from "./model-seed";

// The list's sorting compared with the same rows sorted here: on a project of this spec's own, so that rows other
// specs leave in the list (more than a page of them, or names that sort between these) never change what is compared.
const RUN = `${Date.now()}`;
const SEED = [
  { app: "Maps", steps: 4 },
  { app: "Clock", steps: 2 },
  { app: "Notes", steps: 6 },
  { app: "Camera", steps: 3 },
  { app: "Maps", steps: 5 },
  { app: "Alarm", steps: 2 },
].map((t, i) => ({ ...t, goal: `Open the ${t.app} app and check item ${String.fromCharCode(70 - i)} (${RUN})` }));
let query = "";

test.beforeAll(async ({ baseURL }) => {
  const admin = await playwrightRequest.newContext({
    baseURL,
    storageState: storageStateFor("admin"),
    extraHTTPHeaders: { origin: baseURL! },
  });
  await importTrajectories(admin, `sort-${RUN}`, SEED);
  await admin.dispose();
  query = `?project=${encodeURIComponent(`model-e2e-sort-${RUN}`)}`;
});

/** A column's cell texts, found by the header's text (admins have a selection column first). */
async function columnTexts(table: Locator, rows: Locator, header: string): Promise<string[]> {
  const index = (await table.getByRole("columnheader").allTextContents()).indexOf(header);
  expect(index, `a "${header}" column`).toBeGreaterThanOrEqual(0);
  return rows.evaluateAll((trs, i) => trs.map((tr) => ((tr as HTMLTableRowElement).cells[i]?.textContent ?? "").trim()), index);
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

test("clicking a column's header sorts by it, a second click reverses it, and the order survives a reload @storage", async ({
  page,
  list,
}) => {
  await list.goto(query);
  await expect(list.rows).toHaveCount(SEED.length);
  const header = (name: string) => list.table.getByRole("columnheader", { name, exact: true });
  const sortButton = (name: string) => header(name).getByRole("button", { name, exact: true });
  await expect(header("App")).toHaveAttribute("aria-sort", "none");

  await sortButton("App").click();
  await expect(page).toHaveURL(/[?&]sort=app&dir=asc/);
  await expect(header("App")).toHaveAttribute("aria-sort", "ascending");
  await expect
    .poll(async () => columnTexts(list.table, list.rows, "App"))
    .toEqual([...(await columnTexts(list.table, list.rows, "App"))].sort(byText));
  const apps = await columnTexts(list.table, list.rows, "App");
  expect(apps).toEqual(SEED.map((t) => t.app).sort(byText));

  await sortButton("App").click();
  await expect(page).toHaveURL(/[?&]sort=app&dir=desc/);
  await expect(header("App")).toHaveAttribute("aria-sort", "descending");
  await expect.poll(async () => columnTexts(list.table, list.rows, "App")).toEqual([...apps].sort(byText).reverse());

  // Numbers sort as numbers, and only one header says it sorts.
  await sortButton("Steps").click();
  await expect(header("Steps")).toHaveAttribute("aria-sort", "ascending");
  await expect(header("App")).toHaveAttribute("aria-sort", "none");
  const steps = async () => (await columnTexts(list.table, list.rows, "Steps")).map((s) => Number(s.replace(/,/g, "")));
  const stepCounts = SEED.map((t) => t.steps).sort((a, b) => a - b);
  await expect.poll(steps).toEqual(stepCounts);

  await page.reload();
  await expect(header("Steps")).toHaveAttribute("aria-sort", "ascending");
  expect(await steps()).toEqual(stepCounts);
});

test("the sort headers work from the keyboard and keep the filters @storage", async ({ page, list }) => {
  await list.goto(query);
  await expect(list.rows).toHaveCount(SEED.length);
  await page.getByRole("combobox", { name: "Status", exact: true }).selectOption("new");
  await expect(page).toHaveURL(/[?&]status=new/);
  const header = (name: string) => list.table.getByRole("columnheader", { name, exact: true });
  const button = header("Instruction").getByRole("button", { name: "Instruction", exact: true });
  await button.focus();
  await page.keyboard.press("Enter");
  await expect(header("Instruction")).toHaveAttribute("aria-sort", "ascending");
  await expect(page).toHaveURL(/status=new.*sort=instruction&dir=asc/);
  await expect(button).toBeFocused();
  const ascending = await columnTexts(list.table, list.rows, "Instruction");
  expect(ascending).toEqual(SEED.map((t) => t.goal).sort(byText));
  await page.keyboard.press("Space");
  await expect(header("Instruction")).toHaveAttribute("aria-sort", "descending");
  await expect.poll(async () => columnTexts(list.table, list.rows, "Instruction")).toEqual([...ascending].reverse());
  expect(new Set(await columnTexts(list.table, list.rows, "Status"))).toEqual(new Set(["New"]));
});
