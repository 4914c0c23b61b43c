import { expect, test } from "./fixtures";

type Stats = { trajectories: number; steps: number; apps: number; byApp: { app: string; trajectories: number }[] };

test("the studio opens on the trajectory list with the database's counts", async ({ page, list, request }) => {
  const stats = (await (await request.get("/api/stats")).json()) as Stats;
  expect(stats.trajectories).toBeGreaterThan(0);

  await page.goto("/");
  await expect(page).toHaveURL(/\/trajectories$/);
  expect(await list.count("Trajectories")).toBe(stats.trajectories);
  expect(await list.count("Steps")).toBe(stats.steps);
  expect(await list.count("Apps")).toBe(stats.apps);
  await expect(list.matching).toHaveText(`${stats.trajectories} matching`);
  await expect(list.rows).toHaveCount(Math.min(stats.trajectories, 50));
});

test("filtering by app keeps only that app's trajectories, in the URL too", async ({ page, list, request }) => {
  const stats = (await (await request.get("/api/stats")).json()) as Stats;
  const target = stats.byApp.find((a) => a.trajectories < stats.trajectories) ?? stats.byApp[0]!;

  await list.goto();
  await list.filterByApp(target.app);
  await expect(list.matching).toHaveText(`${target.trajectories} matching`);
  await expect(list.rows).toHaveCount(Math.min(target.trajectories, 50));
  // By the column's header: admins have a selection column first.
  const appColumn = (await list.table.getByRole("columnheader").allTextContents()).indexOf("App");
  expect(appColumn).toBeGreaterThanOrEqual(0);
  const apps = await list.rows.evaluateAll((rows, i) => rows.map((r) => (r as HTMLTableRowElement).cells[i]?.textContent), appColumn);
  expect(new Set(apps)).toEqual(new Set([target.app]));

  // The filter lives in the URL: a reload shows the same list.
  await page.reload();
  await expect(list.appFilter).toHaveValue(target.app);
  await expect(list.matching).toHaveText(`${target.trajectories} matching`);

  await list.appFilter.selectOption("");
  await expect(list.matching).toHaveText(`${stats.trajectories} matching`);
});

test("searching instructions narrows the list and says when nothing matches", async ({ list }) => {
  await list.goto();
  const first = (await list.rows.first().getByRole("link").textContent())!.trim();
  await list.search(first.slice(0, 24));
  // Wait for the first search's navigation to land before typing the next one (the row was already there).
  await expect(list.page).toHaveURL(/\?.*q=/, { timeout: 15_000 });
  await expect(list.rows.getByRole("link", { name: first })).toBeVisible();
  await list.search("zz-no-instruction-has-this-zz");
  // The search is a navigation (the filters live in the URL): on a loaded machine it can take a few seconds.
  await expect(list.page).toHaveURL(/q=zz-no-instruction-has-this-zz/, { timeout: 15_000 });
  await expect(list.page.getByText("No trajectories match these filters")).toBeVisible({ timeout: 15_000 });
  await expect(list.rows).toHaveCount(0);
});
