import { readFile } from "node:fs/promises";
import type { APIRequestContext, Browser } from "@playwright/test";
import type { TrajectoryView } from "@/lib/domain/views";
import { storageStateFor, type DemoRole } from "./accounts";
import { importViaApi, makeUiS1Zip } from "./datasets";
import { expect as baseExpect, test } from "./fixtures";
import { AuditPage } from "./pages/audit-page";
import { StepCanvasPart } from "./pages/step-canvas";

// A reviewer's fix runs on the editor engine (its review-fix mode): a point set on the canvas goes with the
// decision as the step's fix, is stored, and the audit names the reviewer. The spec seeds its own trajectory.

const expect = baseExpect.configure({ timeout: 15_000 });
const GOAL = `Review fix ${Date.now()}: open the search bar`;
const headers = (baseURL: string) => ({ origin: baseURL });

async function get<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}

async function person(browser: Browser, baseURL: string, role: DemoRole, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ baseURL, storageState: storageStateFor(role), viewport });
  return { context, page: await context.newPage(), request: context.request };
}

/** As the annotator: a complete annotation of both steps, the outcome, and the hand-in. */
async function annotateAndSubmit(request: APIRequestContext, baseURL: string, id: string) {
  const t = await get<TrajectoryView>(request, `/api/trajectories/${id}`);
  for (const s of t.steps) {
    const res = await request.put(`/api/steps/${s.id}/annotation`, {
      headers: headers(baseURL),
      data: {
        thought: {
          state: "The home screen.",
          nextAction: "Tap the search bar.",
          purpose: "To search.",
          text: "The home screen. Tap the search bar. To search.",
        },
        clearAction: "Tap the search bar.",
        toolCall: s.toolCall,
        box: s.box,
        verdict: "good",
        version: s.version,
      },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  const now = await get<TrajectoryView>(request, `/api/trajectories/${id}`);
  const save = await request.put(`/api/trajectories/${id}/annotation`, {
    headers: headers(baseURL),
    data: { outcome: "success", isDiscarded: false, cutAfter: null, version: now.version },
  });
  expect(save.status(), await save.text()).toBe(200);
  const submit = await request.post(`/api/trajectories/${id}/submit`, { headers: headers(baseURL) });
  expect(submit.status(), await submit.text()).toBe(200);
}

test("a reviewer fixes a step's point on the canvas and sends the decision: the stored step has the fix and the audit names the reviewer @storage", async ({
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const base = baseURL!;
  const viewport = { width: 1440, height: 900 };
  const admin = await person(browser, base, "admin", viewport);
  const annotator = await person(browser, base, "annotator", viewport);
  const reviewer = await person(browser, base, "reviewer", viewport);

  const zip = await makeUiS1Zip(testInfo.outputPath("fix"), GOAL);
  const upload = await importViaApi(admin.request, base, {
    format: "ui-s1",
    project: "review-fix",
    files: { name: "fix.zip", mimeType: "application/zip", buffer: await readFile(zip) },
  });
  expect(upload.state).toBe("succeeded");
  const list = await get<{ rows: { id: string; instruction: string }[] }>(admin.request, `/api/trajectories?q=${encodeURIComponent(GOAL)}`);
  const id = list.rows.find((r) => r.instruction === GOAL)!.id;
  const assign = await admin.request.post("/api/assignments", {
    headers: headers(base),
    data: { trajectoryIds: [id], assignee: "annotator@studio.local" },
  });
  expect(assign.status(), await assign.text()).toBe(200);
  await annotateAndSubmit(annotator.request, base, id);
  const before = await get<TrajectoryView>(reviewer.request, `/api/trajectories/${id}`);
  expect(before.steps[0]!.toolCall).toEqual({ action: "click", coordinate: [540, 1200] });

  // ── The reviewer opens the fix of step 1: the editor's canvas and step form, in the step's card. ──
  const rp = reviewer.page;
  await rp.goto(`/reviews/${id}`);
  const card = rp.getByRole("article", { name: "Step 1", exact: true });
  await card.getByRole("button", { name: "Fix step 1" }).click();
  const fix = card.getByRole("region", { name: /^Your fix of step 1/ });
  await expect(fix.getByRole("textbox", { name: "Clear action" })).toHaveValue("Tap the search bar.");
  const canvas = new StepCanvasPart(rp, fix.getByRole("region", { name: "Screenshot" }));
  await canvas.waitForScreenshot();
  await expect(fix.getByRole("button", { name: /^Point/ })).toHaveAttribute("aria-pressed", "true");
  // Opening the fix changes nothing: the verdict is the annotator's, no "fixed by you", nothing to send.
  await expect(fix.getByRole("radiogroup", { name: "Verdict" }).getByRole("radio", { name: /^Good/ })).toBeChecked();
  await expect(card.getByText("fixed by you")).toHaveCount(0);
  await expect(rp.getByRole("button", { name: "Approve", exact: true })).toBeVisible();
  // The fix takes the card's width: the canvas (with its tools) is most of the card and the drawing stage alone
  // about half of it, at a desktop's and a laptop's size (it was a quarter, beside an empty column).
  const share = async (part: typeof card) => {
    const [box, whole] = await Promise.all([part.boundingBox(), card.boundingBox()]);
    return box && whole ? box.width / whole.width : 0;
  };
  for (const size of [viewport, { width: 1280, height: 720 }]) {
    await rp.setViewportSize(size);
    await expect.poll(() => share(canvas.root)).toBeGreaterThan(0.6);
    await expect.poll(() => share(canvas.stage)).toBeGreaterThan(0.45);
  }
  await rp.setViewportSize(viewport);
  await canvas.waitForScreenshot();

  // A click with the Point tool at (450, 1150) original pixels (inside the target box [400, 1100, 680, 1300],
  // elsewhere than the model's 540, 1200), placed through the engine's own transform.
  const origin = (await canvas.stage.boundingBox())!;
  const t = await rp.evaluate(() => window.__studioEditor!.view());
  await rp.mouse.click(origin.x + t.x + 450 * t.scale, origin.y + t.y + 1150 * t.scale);
  const engine = await rp.evaluate(() => {
    const s = window.__studioEditor!.state();
    return { mode: s.mode, step: s.doc.steps[s.steps[0]!.id]! };
  });
  expect(engine.mode).toBe("review-fix");
  expect(engine.step.toolCall.action).toBe("click");
  const at = (engine.step.toolCall as { coordinate: [number, number] }).coordinate;
  expect(Math.abs(at[0] - 450)).toBeLessThanOrEqual(2);
  expect(Math.abs(at[1] - 1150)).toBeLessThanOrEqual(2);
  // The edit is what makes the step a fix, "corrected" (it was good).
  await expect(card.getByText("fixed by you")).toBeVisible();
  await expect(fix.getByRole("radiogroup", { name: "Verdict" }).getByRole("radio", { name: /^Corrected/ })).toBeChecked();
  // Nothing is saved before the decision.
  expect((await get<TrajectoryView>(reviewer.request, `/api/trajectories/${id}`)).steps[0]!.toolCall).toEqual(before.steps[0]!.toolCall);

  // How the fix looks, at a laptop's and a desktop's size (kept with the test's output).
  for (const size of [viewport, { width: 1280, height: 720 }]) {
    await rp.setViewportSize(size);
    await fix.scrollIntoViewIfNeeded();
    await rp.screenshot({ path: testInfo.outputPath(`review-fix-${size.width}x${size.height}.png`) });
  }
  await rp.setViewportSize(viewport);
  await fix.getByRole("button", { name: "Done" }).click();
  await rp.getByRole("button", { name: "Fix and approve (1)" }).click();
  await expect(rp).toHaveURL(/\?after=approve$/);

  const after = await get<TrajectoryView>(reviewer.request, `/api/trajectories/${id}`);
  expect(after.status).toBe("approved");
  expect(after.steps[0]!.toolCall).toEqual({ action: "click", coordinate: at });
  expect(after.steps[0]!.verdict).toBe("corrected");
  expect(after.steps[0]!.clearAction).toBe("Tap the search bar.");
  expect(after.steps[1]!.version).toBe(before.steps[1]!.version);

  // ── The audit trail records the reviewer's edit of that step. ──
  const audit = new AuditPage(admin.page);
  await audit.goto();
  await audit.filter({ entityId: after.steps[0]!.id });
  const edit = audit.rows.filter({ hasText: "Step saved" }).filter({ hasText: "reviewer@studio.local" });
  await expect(edit).toHaveCount(1);
  await expect(edit).toContainText(String(at[0]));

  // Deciding moved the reviewer on to the next review (a claim): leave it, so other specs find the queue as it was.
  const held = await get<{ rows: { id: string; reviewer: string | null }[] }>(reviewer.request, "/api/reviews");
  for (const r of held.rows.filter((x) => x.reviewer === "reviewer@studio.local"))
    await reviewer.request.delete(`/api/reviews/${r.id}/claim`, { headers: headers(base) });
  await admin.context.close();
  await annotator.context.close();
  await reviewer.context.close();
});
