import { readFile } from "node:fs/promises";
import path from "node:path";
import { request as apiRequest, type APIRequestContext } from "@playwright/test";
import type { CanonicalTrajectory } from "@/lib/domain/trajectory";
import type { TrajectoryView } from "@/lib/domain/views";
import { storageStateFor } from "./accounts";
import { expect, test } from "./fixtures";
import { seedAnnotatorTask } from "./layout-seed";

// Issue 26 item 3 in Chromium: one trajectory given to two people (the demo annotator and the admin),
// each corrects it through the API and hands it in; the reviewer opens the adjudication page from the queue, sees
// where the copies differ, takes the action from copy 2 and the outcome from copy 1, edits the thought
// and approves (e2e/adjudication.spec.ts proves the rest of the page). The export holds the chosen values, with both copies as annotations[].

test.describe.configure({ timeout: 180_000 });

const parts = (text: string) => ({ state: "The notes list is open.", nextAction: text, purpose: "To write a note.", text });

async function correct(request: APIRequestContext, baseURL: string, id: string, at: [number, number], outcome: "success" | "failure") {
  const view = (await (await request.get(`/api/trajectories/${id}`)).json()) as TrajectoryView;
  const headers = { origin: baseURL };
  for (const s of view.steps) {
    const body =
      s.toolCall.action === "click"
        ? {
            thought: parts(`I tap the new note button at ${at[0]}.`),
            clearAction: "Tap the new note button.",
            toolCall: { action: "click", coordinate: at },
            box: [at[0] - 50, at[1] - 50, at[0] + 50, at[1] + 50],
          }
        : { thought: parts("The note is written."), clearAction: "Finish the task.", toolCall: s.toolCall, box: null };
    const res = await request.put(`/api/steps/${s.id}/annotation`, {
      headers,
      data: { ...body, verdict: "corrected", version: s.version },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  const saved = await request.put(`/api/trajectories/${id}/annotation`, {
    headers,
    data: { outcome, isDiscarded: false, cutAfter: null, version: view.version },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const submitted = await request.post(`/api/trajectories/${id}/submit`, { headers });
  expect(submitted.status(), await submitted.text()).toBe(200);
}

test("a reviewer adjudicates an overlapped trajectory field by field; the export holds the choice and the alternatives @storage", async ({
  browser,
  request,
  baseURL,
}) => {
  const t = await seedAnnotatorTask(request, baseURL!, "overlap", [
    { args: { action: "click", coordinate: [540, 1300] }, colour: "#dbe7f3" },
    { args: { action: "terminate", status: "success" }, colour: "#e4f3db" },
  ]);
  const admin = await apiRequest.newContext({ baseURL, storageState: storageStateFor("admin") });
  const annotator = await apiRequest.newContext({ baseURL, storageState: storageStateFor("annotator") });
  const headers = { origin: baseURL! };
  // Untouched work only: back to the pool, then two copies, one for the annotator and one for the admin.
  expect((await admin.post("/api/assignments", { headers, data: { trajectoryIds: [t.id], assignee: null } })).status()).toBe(200);
  const made = await admin.post("/api/overlap", { headers, data: { trajectoryIds: [t.id], copies: 2 } });
  expect(made.status(), await made.text()).toBe(200);
  const [c1, c2] = ((await made.json()) as { overlapped: { copies: string[] }[] }).overlapped[0]!.copies as [string, string];
  for (const [copy, who] of [
    [c1, "annotator@studio.local"],
    [c2, "admin@studio.local"],
  ] as const)
    expect((await admin.post("/api/assignments", { headers, data: { trajectoryIds: [copy], assignee: who } })).status()).toBe(200);
  await correct(annotator, baseURL!, c1, [300, 1300], "success");
  await correct(admin, baseURL!, c2, [800, 400], "failure");

  const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 }, storageState: storageStateFor("reviewer") });
  const page = await context.newPage();
  // The review queue offers the trajectory to adjudicate once both copies are in, never a copy on its own.
  await page.goto("/reviews");
  const row = page.getByRole("row").filter({ hasText: t.instruction });
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await row.getByRole("link", { name: "Adjudicate 2 copies" }).click();
  await expect(page).toHaveURL(new RegExp(`/reviews/${t.id}/adjudicate$`));
  const form = page.getByTestId("adjudication");
  await expect(form.getByRole("heading", { name: "Adjudicate the copies" })).toBeVisible();
  await expect(form.getByText("annotator@studio.local")).toBeVisible();
  await expect(form.getByText("admin@studio.local")).toBeVisible();
  // Only where the copies differ: step 1's action and thought, and the outcome; nothing is pre-chosen.
  const step1 = form.getByRole("region", { name: "Step 1", exact: true });
  await expect(form.getByRole("radiogroup")).toHaveCount(3);
  await expect(form.getByText("3 disagreements left to choose")).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("adjudicate-1440.png"), fullPage: false });
  // Field by field: the action from copy 2, the thought edited, the outcome from copy 1.
  await step1.getByRole("radio", { name: "Action and box from copy 2" }).check();
  const thought = step1.getByRole("radiogroup", { name: "Step 1: Thought" });
  await thought.getByRole("radio", { name: "Edit" }).check();
  await step1.getByRole("textbox", { name: "Edited Thought" }).fill("I tap the new note button in the top bar.");
  await form.getByRole("radio", { name: "Outcome from copy 1" }).check();
  await form.getByRole("button", { name: "Approve the chosen values" }).click();
  await expect(form.getByText("Approved:")).toBeVisible();

  const after = (await (await admin.get(`/api/trajectories/${t.id}`)).json()) as TrajectoryView;
  expect(after.status).toBe("approved");
  expect(after.outcome).toBe("success");
  expect(after.steps[0]!.toolCall).toEqual({ action: "click", coordinate: [800, 400] });
  expect(after.steps[0]!.thought.text).toBe("I tap the new note button in the top bar.");

  // The export: the chosen values train; both copies ride along as alternatives.
  const started = await admin.post("/api/exports", { headers, data: { status: "approved", project: after.project } });
  expect(started.status(), await started.text()).toBe(202);
  const { export: job } = (await started.json()) as { export: { id: string } };
  let outDir = "";
  await expect
    .poll(
      async () => {
        const e = ((await (await admin.get(`/api/exports/${job.id}`)).json()) as { export: { state: string; outDir: string } }).export;
        outDir = e.outDir;
        return e.state;
      },
      { timeout: 90_000 },
    )
    .toBe("succeeded");
  const record = (await readFile(path.join(outDir, "trajectories.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as CanonicalTrajectory)
    .find((r) => r.id === t.id)!;
  expect(record.steps[0]!.toolCall).toEqual({ action: "click", coordinate: [800, 400] });
  expect(record.annotations?.map((a) => [a.annotator, a.outcome, a.steps[0]!.toolCall]).sort()).toEqual([
    ["admin@studio.local", "failure", { action: "click", coordinate: [800, 400] }],
    ["annotator@studio.local", "success", { action: "click", coordinate: [300, 1300] }],
  ]);
  await Promise.all([context.close(), admin.dispose(), annotator.dispose()]);
});
