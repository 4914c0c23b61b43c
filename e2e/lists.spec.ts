import type { APIRequestContext } from "@playwright/test";
import { makeUiS1Zip } from "./datasets";
import { expect as baseExpect, test } from "./fixtures";

/** Imports run in the background on a machine that may be busy: server round trips get more than five seconds. */
const expect = baseExpect.configure({ timeout: 20_000 });

// Issue 21 item 4: lists that hold still while rows are ticked, a project column and filter, and
// imports that say so when the same data already lives in another project.

const stats = async (request: APIRequestContext) => (await (await request.get("/api/stats")).json()) as { trajectories: number };

test("ticking three rows by where they were before the first click selects those three; no row moves @storage", async ({ page, list }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto("/trajectories");
  const rows = list.rows;
  // The first page of a freshly started server can take a while on a loaded machine.
  await expect(rows.nth(3)).toBeVisible({ timeout: 20_000 });
  const boxes = [];
  const points = [];
  for (const i of [0, 1, 2]) {
    const box = (await rows.nth(i).boundingBox())!;
    const check = (await rows.nth(i).getByRole("checkbox").boundingBox())!;
    boxes.push(box);
    points.push({ x: check.x + check.width / 2, y: check.y + check.height / 2 });
  }
  // Click where the checkboxes were at the start, as a person moving down the list does.
  for (const p of points) await page.mouse.click(p.x, p.y);
  const bar = page.getByRole("region", { name: "Assign selected trajectories" });
  await expect(bar).toContainText("3 selected");
  for (const i of [0, 1, 2]) {
    await expect(rows.nth(i).getByRole("checkbox")).toBeChecked();
    expect(await rows.nth(i).boundingBox()).toEqual(boxes[i]);
  }
  await page.screenshot({ path: test.info().outputPath("list-selected-1280.png") });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: test.info().outputPath("list-selected-1440.png") });
});

test("the list shows each trajectory's project and filters by it, in the URL @storage", async ({
  page,
  list,
  importPage,
  request,
}, testInfo) => {
  const project = `e2e-col-${Date.now()}`;
  const goal = `E2E project column ${Date.now()}`;
  const zip = await makeUiS1Zip(testInfo.outputPath("zip"), goal);
  await importPage.goto();
  await importPage.upload([zip], { format: "ui-s1", project });
  await expect(importPage.result).toContainText("Import succeeded");

  await list.goto();
  const projectColumn = (await list.table.getByRole("columnheader").allTextContents()).indexOf("Project");
  expect(projectColumn).toBeGreaterThanOrEqual(0);
  const filter = page.getByRole("combobox", { name: "Project", exact: true });
  await filter.selectOption(project);
  await expect(page).toHaveURL(new RegExp(`[?&]project=${project}`));
  await expect(list.matching).toHaveText("1 matching");
  await expect(list.rows).toHaveCount(1);
  const cells = await list.rows.evaluateAll((rs, i) => rs.map((r) => (r as HTMLTableRowElement).cells[i]?.textContent), projectColumn);
  expect(cells).toEqual([project]);
  await page.reload();
  await expect(filter).toHaveValue(project);
  await expect(list.rows).toHaveCount(1);
  expect((await stats(request)).trajectories).toBeGreaterThan(1);

  // A name no project has is refused by the API's bounds only when too long; an unknown one matches nothing.
  const tooLong = await request.get(`/api/trajectories?project=${"x".repeat(300)}`);
  expect(tooLong.status()).toBe(422);
});

test("importing data already in another project asks first: cancel, skip those, import anyway; the form remembers the project @storage", async ({
  page,
  importPage,
  request,
}, testInfo) => {
  // Four imports through the web form, each a background job followed to its end.
  test.setTimeout(180_000);
  const stamp = Date.now();
  const projectA = `e2e-a-${stamp}`;
  const projectB = `e2e-b-${stamp}`;
  const zip = await makeUiS1Zip(testInfo.outputPath("zip"), `E2E copies ${stamp}`);
  await importPage.goto();
  await importPage.upload([zip], { format: "ui-s1", project: projectA });
  await expect(importPage.result).toContainText("Import succeeded");
  const afterA = (await stats(request)).trajectories;

  // Into B: the import stops before writing and asks, naming the count and A.
  const ask = page.getByRole("alertdialog", { name: "Already in another project" });
  const intoB = async () => {
    await importPage.upload([zip], { format: "ui-s1", project: projectB });
    await expect(ask).toBeVisible();
    await expect(ask).toContainText(`1 trajectory of this file is already in project ${projectA}`);
    expect((await stats(request)).trajectories).toBe(afterA);
  };
  await importPage.goto();
  // The form remembers the project last imported into.
  await expect(page.getByRole("textbox", { name: "Project" })).toHaveValue(projectA);
  await intoB();
  await page.screenshot({ path: test.info().outputPath("import-copies-question.png") });

  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(ask).toBeHidden();
  await expect(importPage.result).toBeHidden();
  expect((await stats(request)).trajectories).toBe(afterA);

  await importPage.goto();
  await intoB();
  await ask.getByRole("button", { name: "Skip those" }).click();
  await expect(importPage.result).toContainText("Import succeeded");
  await expect(importPage.result).toContainText(`Imported 0 trajectories and 0 steps into project ${projectB}`);
  await expect(importPage.result).toContainText("1 already in other projects, skipped.");
  expect((await stats(request)).trajectories).toBe(afterA);

  await importPage.goto();
  await intoB();
  await ask.getByRole("button", { name: "Import anyway" }).click();
  await expect(importPage.result).toContainText(`Imported 1 trajectory and 2 steps into project ${projectB}`);
  await expect(importPage.result).toContainText("1 already in other projects, imported as copies.");
  expect((await stats(request)).trajectories).toBe(afterA + 1);

  // The last project used is filled in on the next visit.
  await importPage.goto();
  await expect(page.getByRole("textbox", { name: "Project" })).toHaveValue(projectB);
});

test("the import page says where the demo trajectories came from @storage", async ({ page, request }) => {
  const { seeded } = (await (await request.get("/api/imports")).json()) as { seeded: number };
  expect(seeded).toBeGreaterThan(0);
  await page.goto("/import");
  const recent = page.getByRole("region", { name: "Recent imports" });
  await expect(recent).toContainText(
    `${seeded} ${seeded === 1 ? "demo trajectory" : "demo trajectories"} came from the seed, not from an import.`,
  );
});
