import { readFile } from "node:fs/promises";
import { request as apiRequest, type Browser, type Page } from "@playwright/test";
import { storageStateFor } from "./accounts";
import { importViaApi, makeUiS1Zip } from "./datasets";
import { expect, test } from "./fixtures";

// Overlap copies as an admin works with them: a trajectory of the spec's own project is given to two
// chosen people from the list's selection bar; the copies are rows of the list under the copies filter,
// marked as copies of it; the admin gives one of them to a third person with the ordinary assign bar;
// each person's "Start next task" opens their own copy, and their list shows it with no copy mark.

test.describe.configure({ timeout: 240_000 });

const PASSWORD = "copies-spec-password";

/** A new browser signed in through the form as a person the spec created. */
async function signIn(browser: Browser, baseURL: string, email: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/trajectories$/, { timeout: 30_000 });
  return page;
}

test.describe("overlap copies in the list", { tag: "@storage" }, () => {
  test("an admin gives a trajectory to chosen people, sees and reassigns the copies; each person's next task is their copy", async ({
    browser,
    baseURL,
    list,
    page,
  }, testInfo) => {
    const run = Date.now().toString(36);
    const project = `E2E copies ${run}`;
    const goal = `Order a coffee ${run}`;
    const admin = await apiRequest.newContext({ baseURL, storageState: storageStateFor("admin") });
    const headers = { origin: baseURL! };
    const [ana, ben, cai] = ["ana", "ben", "cai"].map((n) => `copies-${n}-${run}@example.com`) as [string, string, string];
    for (const email of [ana, ben, cai]) {
      const made = await admin.post("/api/users", { headers, data: { email, role: "annotator", password: PASSWORD } });
      expect(made.status(), await made.text()).toBe(201);
    }
    const zip = await makeUiS1Zip(testInfo.outputPath("zip"), goal);
    const upload = await importViaApi(admin, baseURL, {
      format: "ui-s1",
      project,
      files: { name: "copies.zip", mimeType: "application/zip", buffer: await readFile(zip) },
    });
    expect(upload).toMatchObject({ state: "succeeded", trajectories: 1 });

    // ── The admin gives the trajectory to ana and ben in one step. ──
    // The first page a fresh server renders may take a while on loaded cores.
    await page.goto(`/trajectories?project=${encodeURIComponent(project)}`);
    await expect(list.rows).toHaveCount(1, { timeout: 30_000 });
    const bar = page.getByRole("region", { name: "Assign selected trajectories" });
    await list.rows.first().getByRole("checkbox").check();
    await bar.getByRole("button", { name: "Give to chosen people…" }).click();
    const dialog = bar.getByRole("dialog", { name: "Give to chosen people" });
    const submit = dialog.getByRole("button", { name: "Make copies and give them" });
    await dialog.getByRole("combobox", { name: "Person 1" }).selectOption({ value: ana });
    await expect(submit).toBeDisabled(); // one person is not overlap
    await dialog.getByRole("combobox", { name: "Person 2" }).selectOption({ value: ben });
    await submit.click();
    await expect(bar.getByText("Given to 2 people each: 2 copies made.")).toBeVisible();

    // ── The copies are rows of the list, marked, each with its person. ──
    await expect(list.rows).toHaveCount(1); // by default, the trajectories themselves
    await list.rows.first().getByRole("link", { name: "2 copies" }).click();
    await expect(page).toHaveURL(/[?&]copyOf=/);
    await expect(list.rows).toHaveCount(2);
    await page.goto(`/trajectories?project=${encodeURIComponent(project)}`);
    await page.getByRole("combobox", { name: "People's copies" }).selectOption("only");
    await expect(page).toHaveURL(/[?&]copies=only/);
    await expect(list.rows).toHaveCount(2);
    for (const email of [ana, ben])
      await expect(list.rows.filter({ hasText: email }).getByRole("link", { name: "Copy", exact: true })).toBeVisible();
    await page.getByRole("combobox", { name: "People's copies" }).selectOption("all");
    await expect(list.rows).toHaveCount(3);

    // ── Ben's copy goes to cai instead, through the ordinary assign bar. ──
    await page.getByRole("combobox", { name: "People's copies" }).selectOption("only");
    await expect(list.rows).toHaveCount(2);
    await list.rows.filter({ hasText: ben }).getByRole("checkbox").check();
    await bar.getByRole("combobox", { name: "Assign to" }).selectOption({ value: cai });
    await bar.getByRole("button", { name: "Assign", exact: true }).click();
    await expect(bar.getByText("1 assigned")).toBeVisible();
    await expect(list.rows.filter({ hasText: cai })).toHaveCount(1);
    await expect(list.rows.filter({ hasText: ben })).toHaveCount(0);
    const copies = await list.rows.getByRole("link", { name: goal }).evaluateAll((links) => links.map((a) => a.getAttribute("href")));

    // ── Each person's "Start next task" opens their own copy; their list has no copy mark. ──
    const opened: string[] = [];
    for (const email of [ana, cai]) {
      const them = await signIn(browser, baseURL!, email);
      await them.goto("/tasks");
      await them.getByRole("button", { name: /Start next task/ }).click();
      await expect(them).toHaveURL(/\/trajectories\/[^/?]+$/);
      opened.push(new URL(them.url()).pathname);
      await them.goto("/trajectories");
      await expect(them.getByRole("table").getByRole("link", { name: goal })).toHaveCount(1);
      await expect(them.getByRole("table").getByRole("link", { name: "Copy", exact: true })).toHaveCount(0);
      await expect(them.getByRole("combobox", { name: "People's copies" })).toHaveCount(0);
      await them.context().close();
    }
    expect(opened.sort()).toEqual([...copies].sort());
    await admin.dispose();
  });
});
