import { request as apiRequest, type APIRequestContext, type Page } from "@playwright/test";
import type { TrajectoryView } from "@/lib/domain/views";
import { storageStateFor } from "./accounts";
import { expect, test } from "./fixtures";
import { seedAnnotatorTask } from "./layout-seed";

// Issue 36: adjudication offers a choice only where the copies disagree. A 7-step trajectory is given
// to two people (the demo annotator and the admin) who agree everywhere but on step 1's point, step 3's
// thought, step 5's clear action and the outcome. A reviewer of the spec's own (so their language can
// change without touching anyone else's) sees those four disagreements and nothing pre-chosen, both
// copies' taps on the Konva step canvas, chooses by keyboard, and approves with Ctrl+Enter.

test.describe.configure({ timeout: 180_000 });

const PASSWORD = "adjudication-spec-password";
const STEPS = 7;
const parts = (text: string) => ({ state: "The list is open.", nextAction: text, purpose: "To finish the task.", text });

type Copy = { at0: [number, number]; thought2: string; clear4: string; outcome: "success" | "failure" };
const A: Copy = { at0: [300, 300], thought2: "I tap the third row.", clear4: "Tap the fifth row.", outcome: "success" };
const B: Copy = { at0: [800, 400], thought2: "I tap the row that says Milk.", clear4: "Tap Milk in the fifth row.", outcome: "failure" };

async function correct(request: APIRequestContext, baseURL: string, id: string, c: Copy) {
  const view = (await (await request.get(`/api/trajectories/${id}`)).json()) as TrajectoryView;
  const headers = { origin: baseURL };
  for (const s of view.steps) {
    const i = s.index;
    const at: [number, number] = i === 0 ? c.at0 : [540, 300 + 250 * i];
    const body =
      s.toolCall.action === "click"
        ? {
            thought: parts(i === 2 ? c.thought2 : `I tap row ${i + 1}.`),
            clearAction: i === 4 ? c.clear4 : `Tap row ${i + 1}.`,
            toolCall: { action: "click", coordinate: at },
            box: [at[0] - 60, at[1] - 40, at[0] + 60, at[1] + 40],
          }
        : { thought: parts("The list is done."), clearAction: "Finish the task.", toolCall: s.toolCall, box: null };
    const res = await request.put(`/api/steps/${s.id}/annotation`, {
      headers,
      data: { ...body, verdict: "corrected", version: s.version },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  const saved = await request.put(`/api/trajectories/${id}/annotation`, {
    headers,
    data: { outcome: c.outcome, isDiscarded: false, cutAfter: null, version: view.version },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  expect((await request.post(`/api/trajectories/${id}/submit`, { headers })).status()).toBe(200);
}

/** The copies' marks on the canvas, read through Konva: copy number and point (original pixels). */
async function copyTaps(page: Page) {
  return page
    .getByTestId("adjudication")
    .locator(".step-canvas-stage")
    .evaluate((host) => {
      type KNode = {
        getAttr: (k: string) => unknown;
        x: () => number;
        y: () => number;
        container: () => HTMLElement;
        find: (s: string) => KNode[];
      };
      const stage = (window as unknown as { Konva: { stages: KNode[] } }).Konva.stages.find((s) => host.contains(s.container()));
      return (stage?.find(".copy-action") ?? []).map((n) => [n.getAttr("copy"), Math.round(n.x()), Math.round(n.y())]);
    });
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
  if (process.env.ADJ_SHOTS_DIR) await page.screenshot({ path: `${process.env.ADJ_SHOTS_DIR}/${name}.png` });
}

test("adjudication offers only the disagreements, nothing pre-chosen, on the step canvas; keys choose and Ctrl+Enter approves", async ({
  browser,
  request,
  baseURL,
}) => {
  const t = await seedAnnotatorTask(
    request,
    baseURL!,
    "adjud",
    Array.from({ length: STEPS }, (_, i) =>
      i < STEPS - 1
        ? { args: { action: "click", coordinate: [540, 300 + 250 * i] }, colour: i % 2 ? "#dbe7f3" : "#f3e7db" }
        : { args: { action: "terminate", status: "success" }, colour: "#e4f3db" },
    ),
  );
  const admin = await apiRequest.newContext({ baseURL, storageState: storageStateFor("admin") });
  const annotator = await apiRequest.newContext({ baseURL, storageState: storageStateFor("annotator") });
  const headers = { origin: baseURL! };
  expect((await admin.post("/api/assignments", { headers, data: { trajectoryIds: [t.id], assignee: null } })).status()).toBe(200);
  const made = await admin.post("/api/overlap", { headers, data: { trajectoryIds: [t.id], copies: 2 } });
  expect(made.status(), await made.text()).toBe(200);
  const [c1, c2] = ((await made.json()) as { overlapped: { copies: string[] }[] }).overlapped[0]!.copies as [string, string];
  for (const [copy, who] of [
    [c1, "annotator@studio.local"],
    [c2, "admin@studio.local"],
  ] as const)
    expect((await admin.post("/api/assignments", { headers, data: { trajectoryIds: [copy], assignee: who } })).status()).toBe(200);
  await correct(annotator, baseURL!, c1, A);
  await correct(admin, baseURL!, c2, B);
  const reviewerEmail = `adjudicator-${Date.now().toString(36)}@example.com`;
  const created = await admin.post("/api/users", { headers, data: { email: reviewerEmail, role: "reviewer", password: PASSWORD } });
  expect(created.status(), await created.text()).toBe(201);

  const context = await browser.newContext({ baseURL, viewport: { width: 1440, height: 900 }, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(reviewerEmail);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/trajectories$/, { timeout: 30_000 });
  await page.goto(`/reviews/${t.id}/adjudicate`);
  const form = page.getByTestId("adjudication");
  // The first page a fresh server renders may take a while on loaded cores.
  await expect(form.getByRole("heading", { name: "Adjudicate the copies" })).toBeVisible({ timeout: 30_000 });

  // Only the four disagreements are offered, each marked with its field; nothing is chosen yet.
  const status = form.getByRole("status").filter({ hasText: "left to choose" });
  await expect(status).toHaveText("4 disagreements left to choose");
  const approve = form.getByRole("button", { name: "Approve the chosen values" });
  await expect(approve).toBeDisabled();
  const groups = form.getByRole("radiogroup");
  await expect(groups).toHaveCount(4);
  await expect(groups.nth(0)).toHaveAccessibleName("Step 1: Action and box");
  await expect(groups.nth(1)).toHaveAccessibleName("Step 3: Thought");
  await expect(groups.nth(2)).toHaveAccessibleName("Step 5: Clear action");
  await expect(groups.nth(3)).toHaveAccessibleName("Outcome");
  for (const radio of await form.getByRole("radio").all()) await expect(radio).not.toBeChecked();
  const step1 = form.getByRole("region", { name: "Step 1", exact: true });
  await expect(step1.getByText("Copies differ: another point or value, another box")).toBeVisible();
  // A field the copies agree on is no choice: step 1's thought, and the whole of step 2.
  await expect(step1.getByRole("radio", { name: "Thought from copy 1" })).toHaveCount(0);
  await expect(step1.getByText("3 fields agree")).toBeVisible();
  // Both copies' taps of step 1 on the Konva step canvas; no SVG drawing.
  const canvas = form.getByRole("region", { name: "Step 1 on the canvas" });
  await expect(canvas.locator(".step-canvas canvas").first()).toBeVisible();
  await expect(form.locator("svg")).toHaveCount(0);
  await expect
    .poll(() => copyTaps(page))
    .toEqual([
      [1, 300, 300],
      [2, 800, 400],
    ]);
  await expect(canvas.getByText("annotator@studio.local")).toBeVisible();
  await expect(canvas.getByText("admin@studio.local")).toBeVisible();
  const step2 = form.getByRole("region", { name: "Step 2", exact: true });
  await expect(step2.getByRole("radio")).toHaveCount(0);
  await step2.getByText("Step 2: all 4 fields agree").click();
  await expect(step2.getByText("Tap row 2.", { exact: true })).toBeVisible();
  await expect(form.getByRole("region", { name: "Step 2 on the canvas" })).toBeVisible();
  // J and K move between disagreements, and the canvas follows.
  await page.keyboard.press("j");
  await expect(form.getByRole("region", { name: "Step 3 on the canvas" })).toBeVisible();
  await page.keyboard.press("k");
  await expect(canvas).toBeVisible();

  // A 7-step trajectory fits in under three screens at 1440x900.
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(3 * 900);
  await shoot(page, "adjudicate-en-1440x900");
  await page.setViewportSize({ width: 1280, height: 720 });
  await shoot(page, "adjudicate-en-1280x720");

  // The same page in Chinese (the reviewer's own setting).
  const setLocale = async (locale: "en" | "zh") =>
    expect((await page.request.patch("/api/me", { data: { locale }, headers })).status()).toBe(200);
  await setLocale("zh");
  await page.reload();
  await expect(form.getByRole("status").filter({ hasText: "待选择" })).toHaveText("还有 4 处不一致待选择", { timeout: 30_000 });
  await shoot(page, "adjudicate-zh-1280x720");
  await page.setViewportSize({ width: 1440, height: 900 });
  await shoot(page, "adjudicate-zh-1440x900");
  await setLocale("en");
  await page.reload();
  await expect(status).toHaveText("4 disagreements left to choose", { timeout: 30_000 });

  // By keyboard: a copy's number chooses it and moves on; K and J move between disagreements.
  await page.keyboard.press("2");
  await expect(form.getByRole("radio", { name: "Action and box from copy 2" })).toBeChecked();
  await expect(form.getByRole("region", { name: "Step 3 on the canvas" })).toBeVisible();
  await page.keyboard.press("1");
  await expect(form.getByRole("radio", { name: "Thought from copy 1" })).toBeChecked();
  await page.keyboard.press("k");
  await page.keyboard.press("2");
  await expect(form.getByRole("radio", { name: "Thought from copy 2" })).toBeChecked();
  await expect(form.getByRole("radio", { name: "Thought from copy 1" })).not.toBeChecked();
  await expect(status).toHaveText("2 disagreements left to choose");
  await expect(approve).toBeDisabled();
  await page.keyboard.press("2");
  await page.keyboard.press("1");
  await expect(form.getByRole("radio", { name: "Outcome from copy 1" })).toBeChecked();
  await expect(form.getByText("Every disagreement has a choice.")).toBeVisible();
  await expect(approve).toBeEnabled();
  await shoot(page, "adjudicate-en-1440x900-chosen");
  await page.keyboard.press("Control+Enter");
  await expect(form.getByText("Approved: the chosen values are the trajectory's annotation")).toBeVisible();
  await expect(approve).toBeDisabled();

  // The trajectory holds the choices, and the agreed fields as both copies had them.
  const after = (await (await admin.get(`/api/trajectories/${t.id}`)).json()) as TrajectoryView;
  expect(after.status).toBe("approved");
  expect(after.outcome).toBe("success");
  expect(after.steps[0]!.toolCall).toEqual({ action: "click", coordinate: [800, 400] });
  expect(after.steps[0]!.box).toEqual([740, 360, 860, 440]);
  expect(after.steps[2]!.thought.text).toBe(B.thought2);
  expect(after.steps[4]!.clearAction).toBe(B.clear4);
  expect(after.steps[1]!.clearAction).toBe("Tap row 2.");
  expect(after.steps[6]!.toolCall).toEqual({ action: "terminate", status: "success" });
  await Promise.all([context.close(), admin.dispose(), annotator.dispose()]);
});
