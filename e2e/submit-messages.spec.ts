import type { Browser } from "@playwright/test";
import type { TrajectoryView } from "@/lib/domain/views";
import { storageStateFor } from "./accounts";
import { expect, test } from "./fixtures";
import { EditorPage } from "./pages/editor-page";

test.use({ storageState: storageStateFor("annotator") });

/** A task nobody has touched yet, given to the annotator by the admin (other specs may have worked on theirs). */
async function freshTask(browser: Browser, baseURL: string): Promise<string> {
  const admin = await browser.newContext({ storageState: storageStateFor("admin"), baseURL });
  const list = (await (await admin.request.get("/api/trajectories?status=new&assignee=none&pageSize=100")).json()) as {
    rows: { id: string; assignee: string | null; stepCount: number }[];
  };
  const row = list.rows.find((r) => r.assignee === null && r.stepCount >= 3);
  expect(row, "an untouched task with three steps or more").toBeTruthy();
  const res = await admin.request.post("/api/assignments", {
    headers: { origin: baseURL },
    data: { trajectoryIds: [row!.id], assignee: "annotator@studio.local" },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await admin.close();
  return row!.id;
}

test("submit says in words what blocks it, asks for a verdict only once a step is worked on, then confirms and offers the next task", async ({
  page,
  request,
  baseURL,
  browser,
}) => {
  const editor = new EditorPage(page);
  const id = await freshTask(browser, baseURL!);
  const before = (await (await request.get(`/api/trajectories/${id}`)).json()) as TrajectoryView;
  const count = before.steps.length;
  expect(count).toBeGreaterThanOrEqual(3);
  await editor.goto(id, 1);
  const form = page.getByRole("complementary", { name: "Step annotation" });

  // Untouched: no "Choose a verdict" yet. Working on the step brings it.
  await expect(form.getByText("Choose a verdict.")).toHaveCount(0);
  await editor.writeClearAction("Open the search page.");
  await expect(form.getByText("Choose a verdict.")).toBeVisible();

  // A click off the screenshot, then Submit: the reasons are listed in words, 1-based.
  await form.getByRole("combobox", { name: "Action" }).selectOption("click");
  await form.getByRole("spinbutton", { name: "coordinate x" }).fill("99999");
  await editor.leaveField();
  await editor.submitButton.click();
  const blocked = page.getByRole("alert").filter({ hasText: "Not ready to submit yet" });
  await expect(blocked).toBeVisible();
  await expect(blocked).toContainText("Set the task outcome to submit.");
  await expect(blocked.getByRole("button", { name: /^Step 1: .*A point lies outside the screenshot\./ })).toBeVisible();
  await expect(blocked.getByRole("button", { name: /^Step 2: / })).toBeVisible();

  // Each reason leads to its step; after the attempt every open step asks for its verdict.
  await blocked.getByRole("button", { name: /^Step 2: / }).click();
  await editor.expectStep(2);
  await expect(form.getByText("Choose a verdict.")).toBeVisible();

  // Steps after the cut need no verdict, even after the attempt.
  await editor.press("x");
  await editor.press("j");
  await editor.expectStep(3);
  await expect(form.getByText("after cut")).toBeVisible();
  await expect(form.getByText("Choose a verdict.")).toHaveCount(0);
  await expect(blocked.getByRole("button", { name: /^Step 3: / })).toHaveCount(0);

  // Discarded work needs nothing else: Ctrl+Enter submits, the page confirms and offers the next task.
  await editor.press("Shift+D");
  await expect(blocked).toBeHidden();
  await editor.press("Control+Enter");
  const done = page.getByRole("status", { name: "Submitted for review. Thank you!" });
  await expect(done).toBeVisible();
  expect(((await (await request.get(`/api/trajectories/${id}`)).json()) as TrajectoryView).status).toBe("submitted");
  await done.getByRole("button", { name: "Start next task" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/trajectories/${id}`));
  await expect(page).toHaveURL(/\/trajectories\/[^/?]+/);
});

test("with the verdict setting on, a verdict key moves to the next step", async ({ page, baseURL, browser }) => {
  const editor = new EditorPage(page);
  const id = await freshTask(browser, baseURL!);
  // The setting is the person's, kept on the server: start from off, whatever another spec left.
  const off = await page.request.put("/api/me/settings", { headers: { origin: baseURL! }, data: { verdictAdvances: false } });
  expect(off.ok(), await off.text()).toBe(true);
  await editor.goto(id, 1);
  await editor.press("g");
  await editor.expectStep(1);
  await page.getByRole("checkbox", { name: "A verdict key also goes to the next step" }).check();
  await editor.leaveField();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await editor.press("n");
  await editor.expectStep(2);
  expect((await editor.state()).doc.steps[(await editor.state()).steps[0]!.id]!.verdict).toBe("neutral");
  // The setting is the person's: it survives a reload.
  await page.reload();
  await editor.waitForScreenshot();
  await expect(page.getByRole("checkbox", { name: "A verdict key also goes to the next step" })).toBeChecked();
});
