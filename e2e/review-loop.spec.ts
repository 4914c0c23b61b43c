import { createWriteStream } from "node:fs";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import sharp from "sharp";
import yazl from "yazl";
import type { TrajectoryView } from "@/lib/domain/views";
import { storageStateFor, type DemoRole } from "./accounts";
import { importViaApi } from "./datasets";
import { expect as baseExpect, test } from "./fixtures";
import { AuditPage } from "./pages/audit-page";
import { EditorPage } from "./pages/editor-page";
import { StepCanvasPart } from "./pages/step-canvas";

// The review loop with two people, annotator and reviewer, each in their own browser context. The spec seeds its own
// two trajectories (an upload as the admin, assigned to the annotator), so it passes alone and in any order.

/** The machine running the suite may be busy: server round trips get more than the default five seconds. */
const expect = baseExpect.configure({ timeout: 15_000 });

const RUN = `${Date.now()}`;
const GOAL_A = `Review loop A ${RUN}: search for headphones`;
const GOAL_B = `Review loop B ${RUN}: search for a charger`;

async function zipOf(file: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const line = (goal: string, prefix: string) =>
    JSON.stringify({
      goal,
      steps: [
        {
          action_content: { action: "click", coordinate: [540, 1200], bbox: [400, 1100, 680, 1300] },
          screenshot: `images/${prefix}_0.png`,
        },
        { action_content: { action: "terminate", status: "success" }, screenshot: `images/${prefix}_1.png` },
      ],
    });
  zip.addBuffer(Buffer.from(`${line(GOAL_A, `a${RUN}`)}\n${line(GOAL_B, `b${RUN}`)}\n`), "data.jsonl");
  let seed = Number(RUN) % 200;
  for (const name of [`a${RUN}_0`, `a${RUN}_1`, `b${RUN}_0`, `b${RUN}_1`]) {
    seed += 13;
    zip.addBuffer(
      await sharp({ create: { width: 1080, height: 2400, channels: 3, background: { r: seed, g: 200 - (seed % 100), b: 120 } } })
        .png()
        .toBuffer(),
      `images/${name}.png`,
    );
  }
  zip.end();
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(file)).on("close", resolve).on("error", reject));
  const { readFile } = await import("node:fs/promises");
  return readFile(file);
}

const headers = (baseURL: string) => ({ origin: baseURL });

async function get<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

/** As the annotator: a complete annotation of both steps and the outcome (the work the editor's own tests cover). */
async function annotate(request: APIRequestContext, baseURL: string, id: string) {
  const t = await get<TrajectoryView>(request, `/api/trajectories/${id}`);
  const texts = [
    {
      state: "The shopping app's home screen is open.",
      nextAction: "Tap the search bar.",
      purpose: "To type the product name.",
      clear: "Tap the search bar.",
    },
    { state: "The results are listed.", nextAction: "Finish the task.", purpose: "The search is done.", clear: "Finish the task." },
  ];
  for (const [i, s] of t.steps.entries()) {
    const x = texts[i]!;
    const res = await request.put(`/api/steps/${s.id}/annotation`, {
      headers: headers(baseURL),
      data: {
        thought: { state: x.state, nextAction: x.nextAction, purpose: x.purpose, text: `${x.state} ${x.nextAction} ${x.purpose}` },
        clearAction: x.clear,
        toolCall: s.toolCall,
        box: s.box,
        verdict: "good",
        version: s.version,
      },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  const now = await get<TrajectoryView>(request, `/api/trajectories/${id}`);
  const res = await request.put(`/api/trajectories/${id}/annotation`, {
    headers: headers(baseURL),
    data: { outcome: "success", isDiscarded: false, cutAfter: null, version: now.version },
  });
  expect(res.status(), await res.text()).toBe(200);
}

async function person(browser: Browser, baseURL: string, role: DemoRole) {
  const context = await browser.newContext({ baseURL, storageState: storageStateFor(role), viewport: { width: 1440, height: 900 } });
  return { context, page: await context.newPage(), request: context.request };
}

async function submitInEditor(page: Page, id: string) {
  const editor = new EditorPage(page);
  await editor.goto(id);
  await editor.waitSaved();
  await page.getByRole("button", { name: /^Submit for review/ }).click();
  await expect
    .poll(async () => (await get<TrajectoryView>(page.request, `/api/trajectories/${id}`)).status, { timeout: 20_000 })
    .toBe("submitted");
}

test("two people close the review loop: comment on a step, send back, fix, reply, resubmit, see what changed, approve; fix and approve audited as the reviewer's @storage", async ({
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(180_000);
  const base = baseURL!;
  const admin = await person(browser, base, "admin");
  const annotator = await person(browser, base, "annotator");
  const reviewer = await person(browser, base, "reviewer");

  // ── Seed: two trajectories, assigned to the annotator, fully annotated. ──
  const upload = await importViaApi(admin.request, base, {
    format: "ui-s1",
    project: "review-loop",
    files: { name: "loop.zip", mimeType: "application/zip", buffer: await zipOf(testInfo.outputPath("loop.zip")) },
  });
  expect(upload.state).toBe("succeeded");
  const list = await get<{ rows: { id: string; instruction: string }[] }>(
    admin.request,
    `/api/trajectories?q=${encodeURIComponent(`Review loop`)}&pageSize=100`,
  );
  const idA = list.rows.find((r) => r.instruction === GOAL_A)!.id;
  const idB = list.rows.find((r) => r.instruction === GOAL_B)!.id;
  const assign = await admin.request.post("/api/assignments", {
    headers: headers(base),
    data: { trajectoryIds: [idA, idB], assignee: "annotator@studio.local" },
  });
  expect(assign.status(), await assign.text()).toBe(200);
  await annotate(annotator.request, base, idA);
  await annotate(annotator.request, base, idB);
  // Work other specs left in review is held by the admin for now (a review claim), so "Start next review" reaches ours.
  // (The reviewer first leaves any review another spec left them holding: their own claim would come first.)
  const queue = await get<{ rows: { id: string; reviewer: string | null }[] }>(admin.request, "/api/reviews");
  for (const r of queue.rows.filter((x) => x.reviewer === "reviewer@studio.local"))
    expect((await reviewer.request.delete(`/api/reviews/${r.id}/claim`, { headers: headers(base) })).status()).toBe(200);
  for (const r of queue.rows) await admin.request.post(`/api/reviews/${r.id}/claim`, { headers: headers(base) });

  // ── The annotator submits A. ──
  await submitInEditor(annotator.page, idA);

  // ── The reviewer starts the next review: A. Opens step 1, comments on it, requests changes. ──
  const rp = reviewer.page;
  await rp.goto("/reviews");
  await rp.getByRole("button", { name: /Start next review/ }).click();
  await expect(rp).toHaveURL(new RegExp(`/reviews/${idA}$`));
  await expect(rp.getByRole("heading", { level: 1, name: GOAL_A })).toBeVisible();
  await expect(rp.getByRole("button", { name: "Approve" })).toBeEnabled();
  await expect(rp.getByText(/^You are reviewing this until/)).toBeVisible();
  // The review page's keys come from the shortcut registry: the overlay lists them.
  await rp.keyboard.press("?");
  const help = rp.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toContainText("Start next review");
  await expect(help).toContainText("Decide: request changes when a reason is written");
  // The fix's keys (tools, box, undo) are listed with the review's, and when they apply.
  await expect(help.locator('[data-shortcut="tool.box"]')).toHaveCount(1);
  await expect(help).toContainText("Tool, box and undo keys work while a step's fix is open (F opens it).");
  await help.getByRole("button", { name: "Close" }).click();
  const step1 = rp.getByRole("article", { name: "Step 1", exact: true });
  // Chips name what a person changed: thought and clear action, not the imported box nobody touched.
  await expect(step1.locator(".chip-changed", { hasText: "Clear action" })).toBeVisible();
  await expect(step1.locator(".chip-changed", { hasText: "Box" })).toHaveCount(0);
  // Inspect step 1 on the step canvas: open it for room, then 100 % draws the full-resolution original.
  const canvas = new StepCanvasPart(rp, step1);
  await canvas.waitForScreenshot();
  // Closed the picture is 720 px tall (a phone about 320 px wide, readable on a laptop); opening the step gives it 980.
  const small = (await canvas.stage.boundingBox())!.height;
  await step1.getByRole("button", { name: "Open step 1" }).click();
  await expect.poll(async () => (await canvas.stage.boundingBox())!.height, { timeout: 20_000 }).toBeGreaterThan(small + 200);
  await canvas.button("100 %").click();
  await expect.poll(async () => (await canvas.drawn()).screenshot?.variant, { timeout: 20_000 }).toBe("original");
  expect((await canvas.drawn()).screenshot!.naturalWidth).toBe(1080);
  await step1.getByRole("textbox", { name: "Comment on step 1…" }).fill("Say which search bar: the one at the top of the page.");
  await step1.getByRole("button", { name: "Comment", exact: true }).click();
  await expect(step1.getByRole("article", { name: /Say which search bar/ })).toBeVisible();
  // Another reviewer cannot decide it meanwhile: the admin opening it sees who holds it.
  await admin.page.goto(`/reviews/${idA}`);
  await expect(admin.page.getByRole("alert").filter({ hasText: "reviewer@studio.local is reviewing this" })).toBeVisible();
  await expect(admin.page.getByRole("button", { name: "Approve" })).toBeDisabled();
  await admin.page.goto("about:blank"); // leave, so its heartbeat does not claim A once it is resubmitted
  await rp.getByRole("textbox", { name: "Why it goes back (the annotator sees this)" }).fill("Step 1 is vague; see my comment.");
  await rp.getByRole("button", { name: "Request changes" }).click();
  await expect(rp).toHaveURL(/\/reviews\?after=reject$/);
  await expect(rp.getByRole("status").filter({ hasText: "Sent back. Nothing else is waiting for review." })).toBeVisible();

  // ── The annotator: My tasks shows A first with the reason; the comment sits on step 1 (strip mark, side panel). ──
  const ap = annotator.page;
  await ap.goto("/tasks");
  const firstRow = ap.getByRole("table", { name: "My tasks" }).getByRole("row").nth(1);
  await expect(firstRow).toContainText(GOAL_A);
  await expect(firstRow).toContainText("Sent back by reviewer@studio.local: Step 1 is vague; see my comment.");
  await firstRow.getByRole("link", { name: GOAL_A }).click();
  const editor = new EditorPage(ap);
  await editor.waitForScreenshot();
  await expect(ap.getByRole("navigation", { name: "Steps" }).getByRole("button", { name: /^Step 1:.*1 open comment(?!s)/ })).toBeVisible();
  const notes = ap.getByRole("region", { name: "Comments" });
  await expect(notes).toBeVisible();
  await expect(notes.getByText("Why it came back")).toBeVisible();
  const onStep = notes.getByRole("group", { name: "Comments on step 1" });
  await expect(onStep).toContainText("Say which search bar: the one at the top of the page.");
  // Not hidden behind the canvas or the toolbar: it is on screen with a real height.
  expect((await notes.boundingBox())!.height).toBeGreaterThan(40);
  await editor.field("Clear action").fill("Tap the search bar at the top of the page.");
  await editor.leaveField();
  await editor.waitSaved();
  await onStep.getByRole("textbox", { name: "Reply to reviewer@studio.local…" }).fill("Done: it names the bar at the top now.");
  await onStep.getByRole("button", { name: "Reply" }).click();
  await expect(onStep).toContainText("Done: it names the bar at the top now.");
  await onStep.getByRole("button", { name: "Resolve" }).click();
  await expect(ap.getByRole("navigation", { name: "Steps" }).getByRole("button", { name: /^Step 1:/ })).not.toHaveAccessibleName(
    /open comments/,
  );
  await ap.getByRole("button", { name: /^Submit for review/ }).click();
  await expect
    .poll(async () => (await get<TrajectoryView>(ap.request, `/api/trajectories/${idA}`)).status, { timeout: 20_000 })
    .toBe("submitted");
  // And B goes in after it.
  await submitInEditor(ap, idB);

  // ── The reviewer: next review is A again, with what changed since the send-back; approves and moves on to B. ──
  await rp.getByRole("button", { name: /Start next review/ }).click();
  await expect(rp).toHaveURL(new RegExp(`/reviews/${idA}$`));
  await expect(rp.getByText(/Sent back by reviewer@studio\.local on .*: Step 1 is vague; see my comment\./)).toBeVisible();
  const since = rp.getByRole("region", { name: "Changed since the last decision" });
  await expect(since).toContainText("Step 1");
  await expect(since).toContainText("Clear action");
  await expect(since.locator("ins")).toContainText(["at the top of the page"]);
  await expect(rp.getByRole("article", { name: "Step 1", exact: true }).getByText("changed since last decision")).toBeVisible();
  await expect(rp.getByRole("article", { name: "Step 2", exact: true }).getByText("changed since last decision")).toHaveCount(0);
  await expect(rp.getByRole("article", { name: "Step 1", exact: true })).toContainText("Done: it names the bar at the top now.");
  await rp.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(rp).toHaveURL(new RegExp(`/reviews/${idB}\\?after=approve$`));
  await expect(rp.getByRole("status").filter({ hasText: "Approved. Here is the next one." })).toBeVisible();
  expect((await get<TrajectoryView>(rp.request, `/api/trajectories/${idA}`)).status).toBe("approved");

  // ── B: the reviewer fixes step 1 themselves and approves in one action (Ctrl+Enter decides). ──
  await expect(rp.getByRole("heading", { level: 1, name: GOAL_B })).toBeVisible();
  const b1 = rp.getByRole("article", { name: "Step 1", exact: true });
  await b1.getByRole("button", { name: "Fix step 1" }).click();
  await b1.getByRole("textbox", { name: "Clear action" }).fill("Tap the search bar at the top of the home screen.");
  await expect(rp.getByRole("button", { name: "Fix and approve (1)" })).toBeEnabled();
  await b1.getByRole("textbox", { name: "Clear action" }).press("Control+Enter");
  await expect(rp).toHaveURL(/\/reviews\?after=approve$/);
  await expect(rp.getByRole("status").filter({ hasText: "Approved. Nothing else is waiting for review." })).toBeVisible();
  const b = await get<TrajectoryView>(rp.request, `/api/trajectories/${idB}`);
  expect([b.status, b.steps[0]!.clearAction]).toEqual(["approved", "Tap the search bar at the top of the home screen."]);

  // ── The audit trail names the reviewer for that edit. ──
  const audit = new AuditPage(admin.page);
  await audit.goto();
  await audit.filter({ entityId: b.steps[0]!.id });
  const edit = audit.rows.filter({ hasText: "Step saved" }).filter({ hasText: "reviewer@studio.local" });
  await expect(edit).toHaveCount(1);
  await expect(edit).toContainText("Tap the search bar at the top of the home screen.");

  await admin.context.close();
  await annotator.context.close();
  await reviewer.context.close();
});
