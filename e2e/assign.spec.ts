import { expect, test } from "./fixtures";
import { storageStateFor } from "./accounts";

test("an admin gives unassigned work to the annotator, who then finds it in their list", async ({ page, browser, baseURL }) => {
  await page.goto("/trajectories?assignee=none");
  const firstRow = page.locator("tbody tr").first();
  const instruction = (await firstRow.locator("td.instruction").textContent())!.trim();
  await firstRow.getByRole("checkbox").check();
  const bar = page.getByRole("region", { name: "Assign selected trajectories" });
  await expect(bar).toContainText("1 selected");
  await bar.getByLabel("Assign to").selectOption("annotator@studio.local");
  await bar.getByRole("button", { name: "Assign" }).click();
  // The unassigned filter no longer lists it.
  await expect(page.locator("td.instruction", { hasText: instruction })).toHaveCount(0);

  const annotator = await browser.newContext({ baseURL, storageState: storageStateFor("annotator") });
  const theirs = await annotator.newPage();
  await theirs.goto(`/trajectories?q=${encodeURIComponent(instruction.slice(0, 40))}`);
  await expect(theirs.locator("td.instruction", { hasText: instruction })).toHaveCount(1);
  await annotator.close();

  const audit = await page.request.get("/api/audit?action=trajectory.assign");
  expect(audit.status()).toBe(200);
  expect(JSON.stringify(await audit.json())).toContain("annotator@studio.local");
});
