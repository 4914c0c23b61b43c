import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./accounts";

/** As the annotator: mark one of their tasks "unreasonable, discard" and submit it (no step work needed). */
async function submitDiscarded(request: APIRequestContext, baseURL: string, id: string) {
  const t = (await (await request.get(`/api/trajectories/${id}`)).json()) as { version: number };
  const save = await request.put(`/api/trajectories/${id}/annotation`, {
    data: { outcome: null, isDiscarded: true, cutAfter: null, version: t.version },
    headers: { origin: baseURL },
  });
  expect(save.status(), await save.text()).toBe(200);
  const submit = await request.post(`/api/trajectories/${id}/submit`, { headers: { origin: baseURL } });
  expect(submit.status(), await submit.text()).toBe(200);
}

test("a reviewer sends work back with a reason the annotator then sees, and approves the resubmission", async ({ browser, baseURL }) => {
  const annotator = await browser.newContext({ baseURL, storageState: storageStateFor("annotator") });
  const reviewer = await browser.newContext({ baseURL, storageState: storageStateFor("reviewer") });
  const tasks = (await (await annotator.request.get("/api/tasks")).json()) as { tasks: { id: string; status: string }[] };
  const task = tasks.tasks.find((x) => x.status === "new" || x.status === "in_progress")!;
  await submitDiscarded(annotator.request, baseURL!, task.id);

  const page = await reviewer.newPage();
  await page.goto("/reviews");
  await page.locator(`a[href="/reviews/${task.id}"]`).click();
  await expect(page.getByText("Marked as unreasonable: discard")).toBeVisible();
  await page.getByLabel("Why it goes back (the annotator sees this)").fill("The instruction is fine: annotate it.");
  await page.getByRole("button", { name: "Request changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Sent back\./ })).toBeVisible();

  const work = await annotator.newPage();
  await work.goto(`/trajectories/${task.id}`);
  await expect(work.getByRole("region", { name: "Comments" })).toContainText("The instruction is fine: annotate it.");

  await submitDiscarded(annotator.request, baseURL!, task.id);
  // Opening the review claims it; "Leave without deciding" hands it back to the queue undecided.
  await page.goto(`/reviews/${task.id}`);
  const claimOf = async () =>
    ((await (await reviewer.request.get("/api/reviews")).json()) as { rows: { id: string; reviewer: string | null }[] }).rows.find(
      (r) => r.id === task.id,
    )?.reviewer ?? null;
  await expect.poll(claimOf).toBe("reviewer@studio.local");
  await page.getByRole("button", { name: "Leave without deciding" }).click();
  await expect(page).toHaveURL(/\/reviews$/);
  await expect.poll(claimOf).toBeNull();
  expect(((await (await reviewer.request.get(`/api/trajectories/${task.id}`)).json()) as { status: string }).status).toBe("submitted");

  await page.goto(`/reviews/${task.id}`);
  await page.getByRole("heading", { level: 1 }).click(); // focus the page, not a field
  await page.keyboard.press("a");
  await expect(page.getByRole("status").filter({ hasText: /^Approved\./ })).toBeVisible();
  const after = (await (await reviewer.request.get(`/api/trajectories/${task.id}`)).json()) as { status: string };
  expect(after.status).toBe("approved");
  // Deciding moved the reviewer on to the next review (a claim): leave it, so other specs find the queue as it was.
  const held = (await (await reviewer.request.get("/api/reviews")).json()) as { rows: { id: string; reviewer: string | null }[] };
  for (const r of held.rows.filter((x) => x.reviewer === "reviewer@studio.local"))
    await reviewer.request.delete(`/api/reviews/${r.id}/claim`, { headers: { origin: baseURL! } });
  await annotator.close();
  await reviewer.close();
});
