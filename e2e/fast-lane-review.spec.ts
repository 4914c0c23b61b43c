import type { APIRequestContext, Browser } from "@playwright/test";
import type { TrajectoryView } from "@/lib/domain/views";
import { storageStateFor, type DemoRole } from "./accounts";
import { expect as baseExpect, test } from "./fixtures";
import { demoDraft, getJson, seedDemoProjects } from "./lane-seed";
import { EditorPage } from "./pages/editor-page";

// Issue 36: fast-lane work is its own kind. The annotator has one hand-in per lane, enabled only when it can
// succeed, and sees the hand-in at once (no reload); My tasks counts the work by the first error it marked; the
// reviewer sees the lane, the first error and the cut, and no step after the cut reads "unreviewed". The spec
// seeds its own project (demo trajectories through the shared lane seed), so it passes alone and in any order.

const expect = baseExpect.configure({ timeout: 15_000 });
const RUN = `${Date.now()}`;
/** The demo lines used: at least five steps, so there are steps before and after the mark. */
const LINES = Array.from({ length: 30 }, (_, i) => i)
  .filter((i) => demoDraft(i).steps.length >= 5)
  .slice(0, 2);
/** The step marked as the first error (0-based): shown to people as step 3. */
const MARK = 2;

async function person(browser: Browser, baseURL: string, role: DemoRole) {
  const context = await browser.newContext({ baseURL, storageState: storageStateFor(role), viewport: { width: 1440, height: 900 } });
  return { context, page: await context.newPage(), request: context.request };
}

/** Each test its own project (the same demo lines in another project are other trajectories). */
async function seed(baseURL: string, dir: string, name: string) {
  const [project] = await seedDemoProjects(baseURL, dir, Math.max(...LINES) + 1, [{ name: `lane-${name}-${RUN}`, fastLaneAfter: "cut" }]);
  return LINES.map((i) => project!.trajectories[i]!);
}

/** As the annotator, through the API: hand the trajectory in through the fast lane, first error at MARK. */
async function handInFast(request: APIRequestContext, baseURL: string, id: string) {
  const t = await getJson<TrajectoryView>(request, `/api/trajectories/${id}`);
  const res = await request.post(`/api/trajectories/${id}/fast-lane`, {
    headers: { origin: baseURL },
    data: { version: t.version, outcome: "failure", firstError: MARK },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as TrajectoryView;
}

test("fast lane: one hand-in, enabled once the outcome and the first error are set; the editor shows the hand-in without a reload", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const [id] = await seed(baseURL!, test.info().outputPath("seed"), "hand-in");
  const annotator = await person(browser, baseURL!, "annotator");
  const page = annotator.page;
  const editor = new EditorPage(page);
  await page.goto(`/trajectories/${id}?lane=fast`);
  await editor.waitForScreenshot();

  const lane = page.getByRole("region", { name: "First-error fast lane" });
  const handIn = lane.getByRole("button", { name: "Hand in (fast lane)" });
  // One hand-in per lane: in the fast lane, "Submit for review" is not there to compete.
  await expect(handIn).toBeVisible();
  await expect(page.getByRole("button", { name: "Submit for review" })).toHaveCount(0);
  await expect(handIn).toBeDisabled();
  await expect(handIn).toHaveAccessibleDescription("Set the outcome and mark the first error (or none) first.");

  await page
    .getByRole("navigation", { name: "Steps" })
    .getByRole("button", { name: new RegExp(`^Step ${MARK + 1}:`) })
    .click();
  await editor.expectStep(MARK + 1);
  await lane.getByRole("button", { name: "Mark first error here" }).click();
  await expect(lane.getByTestId("fast-lane-first-error")).toHaveText(`step ${MARK + 1}`);
  await expect(handIn).toBeDisabled();
  await expect(handIn).toHaveAccessibleDescription("Set the outcome first.");
  await page.getByRole("group", { name: "Outcome" }).getByText("Failure", { exact: true }).click();
  await expect(handIn).toBeEnabled();

  // Back in the full lane the one hand-in is "Submit for review", and the fast lane's is gone.
  await page.getByRole("group", { name: "Work mode" }).getByText("Full correction", { exact: true }).click();
  await expect(page.getByRole("button", { name: "Submit for review" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Hand in (fast lane)" })).toHaveCount(0);
  await page.getByRole("group", { name: "Work mode" }).getByText("Fast lane", { exact: true }).click();

  const handedIn = page.waitForResponse((r) => r.url().endsWith(`/api/trajectories/${id}/fast-lane`) && r.request().method() === "POST");
  await handIn.click();
  expect((await handedIn).status()).toBe(200);
  await expect(lane.getByRole("status").filter({ hasText: "Handed in through the fast lane." })).toBeVisible();

  // No reload: the editor reads as handed in. Verdicts written, the cut in the strip, everything read-only.
  const strip = page.getByRole("navigation", { name: "Steps" });
  await expect(strip.getByRole("button", { name: /^Step 1:/ })).toHaveAccessibleName(/Good/);
  await expect(strip.getByRole("button", { name: new RegExp(`^Step ${MARK + 1}:`) })).toHaveAccessibleName(/Harmful/);
  await expect(strip.getByRole("button", { name: new RegExp(`^Step ${MARK + 2}:`) })).toHaveAccessibleName(/after cut/);
  await expect(page.getByRole("main").getByText("Submitted", { exact: true })).toBeVisible();
  await expect(lane.getByTestId("fast-lane-first-error")).toHaveText(`step ${MARK + 1}`);
  await expect(lane.getByRole("button", { name: "Mark first error here" })).toBeDisabled();
  await expect(handIn).toBeDisabled();
  await expect(page.getByText("Choose a verdict.")).toHaveCount(0);
  const verdicts = page.getByRole("radiogroup", { name: "Verdict" });
  await expect(verdicts.getByRole("radio", { name: /^Harmful/ })).toBeChecked();
  await page.screenshot({ path: test.info().outputPath("editor-handed-in-1440x900.png") });
  await annotator.context.close();
});

test("a reviewer sees fast-lane work as its own kind (lane, first error, cut; nothing after the cut reads unreviewed), and My tasks counts its first error", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const [, id] = await seed(baseURL!, test.info().outputPath("seed"), "review");
  const annotator = await person(browser, baseURL!, "annotator");
  const view = await handInFast(annotator.request, baseURL!, id!);
  const count = view.steps.length;
  expect(view).toMatchObject({ status: "submitted", lane: "fast", cutAfter: MARK });

  // My tasks: "first error at step 3 of n", not "3/n steps done".
  await annotator.page.goto("/tasks");
  const row = annotator.page.getByRole("row").filter({ has: annotator.page.locator(`a[href="/trajectories/${id}"]`) });
  await expect(row).toContainText(`first error at step ${MARK + 1} of ${count}`);
  await expect(row).toContainText("Fast lane");
  await expect(row).not.toContainText(`${MARK + 1}/${count}`);
  await annotator.page.screenshot({ path: test.info().outputPath("my-tasks-1440x900.png") });

  const reviewer = await person(browser, baseURL!, "reviewer");
  const page = reviewer.page;
  await page.goto(`/reviews/${id}`);
  const summary = page.getByRole("group", { name: "Fast lane" });
  await expect(summary).toContainText(`First error: step ${MARK + 1}`);
  await expect(summary).toContainText(`Cut after step ${MARK + 1}`);
  // Every step as a card (not the compact one-liners), whatever the reviewer chose last time.
  const compact = page.getByRole("button", { name: "Changed steps only" });
  if ((await compact.getAttribute("aria-pressed")) === "true") await compact.click();
  await expect(page.getByRole("article", { name: `Step ${MARK + 1}`, exact: true })).toContainText("first error");
  for (let n = MARK + 2; n <= count; n++) {
    const card = page.getByRole("article", { name: `Step ${n}`, exact: true });
    await expect(card).toContainText("after the cut: not trained on");
    await expect(card.getByText("unreviewed", { exact: true })).toHaveCount(0);
  }
  await expect(page.getByText("unreviewed", { exact: true })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath("review-fast-lane-1440x900.png") });

  // Opening the review claimed it: leave it, so other specs find the queue as it was.
  await reviewer.request.delete(`/api/reviews/${id}/claim`, { headers: { origin: baseURL! } });
  await annotator.context.close();
  await reviewer.context.close();
});
