// The model in the editor, against a real OpenAI-compatible HTTP server started by this spec
// (lib/server/testing/fake-model-server): a suggestion asked for, accepted with the key, edited by
// typing, saved with its provenance and exported; a slow and a broken endpoint leave the editor working.
import { readFileSync } from "node:fs";
import path from "node:path";
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import type { TrajectoryView } from "@/lib/domain/views";
import { startFakeModelServer, type FakeModelServer } from "@/lib/server/testing/fake-model-server";
import { storageStateFor } from "./accounts";
import { expect, test } from "./fixtures";
import { EditorPage } from "./pages/editor-page";

test.use({ storageState: storageStateFor("annotator") });

let fake: FakeModelServer;
let admin: APIRequestContext;

test.beforeAll(async ({ baseURL }) => {
  fake = await startFakeModelServer();
  admin = await playwrightRequest.newContext({ baseURL, storageState: storageStateFor("admin"), extraHTTPHeaders: { origin: baseURL! } });
  const res = await admin.put("/api/model/settings", {
    data: { baseUrl: fake.baseUrl, model: "fake-qwen-vl", apiKey: "sk-e2e", concurrency: 2, timeoutMs: 2_000 },
  });
  expect(res.ok(), await res.text()).toBe(true);
});

test.afterAll(async () => {
  await admin?.dispose();
  await fake?.close();
});

async function trajectory(request: APIRequestContext, id: string): Promise<TrajectoryView> {
  const res = await request.get(`/api/trajectories/${id}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as TrajectoryView;
}

test("a suggested thought is accepted with the key, edited by typing, saved with its provenance and exported @storage", async ({
  page,
  request,
}) => {
  const editor = new EditorPage(page);
  await page.goto("/tasks");
  await page.getByRole("button", { name: /Start next task/ }).click();
  await expect(page).toHaveURL(/\/trajectories\/[^/?]+/);
  await editor.waitForScreenshot();
  const id = new URL(page.url()).pathname.split("/").pop()!;
  fake.setMode({ mode: "ok" });

  await page.getByRole("button", { name: "Suggest thought" }).click();
  const card = page.getByTestId("suggestion");
  await expect(card).toContainText("The settings page is open.");
  await expect(card).toContainText("fake-qwen-vl · prompt suggest-thought.v2");
  // The model was sent the screenshot as a data: URL.
  const sent = fake.requests.at(-1)!.body;
  expect(JSON.stringify(sent)).toContain("data:image/");
  // Asking changed nothing yet.
  expect((await editor.current()).thought.state).not.toBe("The settings page is open.");

  const provenance = page.getByRole("region", { name: "Model suggestion" });
  await expect(provenance.getByText(/^Thought: /)).not.toHaveText(/suggested/);
  await editor.press("a");
  await expect(editor.field("State")).toHaveValue("The settings page is open.");
  await expect(editor.field("Next action")).toHaveValue("Tap the Wi-Fi entry.");
  await expect(card).toBeHidden();
  // The provenance line follows the save at once, without a reload.
  await editor.waitSaved();
  await expect(provenance.getByText("Thought: suggested, accepted")).toBeVisible();
  await expect(provenance.getByText("Clear action: as imported")).toBeVisible();
  // Editing it is normal typing.
  await editor.field("Purpose").fill("So that Wi-Fi is on.");
  await editor.leaveField();
  await editor.waitSaved();
  await expect(provenance.getByText("Thought: suggested, edited")).toBeVisible();

  const step = (await trajectory(request, id)).steps[0]!;
  expect(step.thought.state).toBe("The settings page is open.");
  expect(step.provenance["thought.state"]).toMatchObject({
    source: "suggested-accepted",
    prompt: "suggest-thought.v2",
    model: "fake-qwen-vl",
  });
  expect(step.provenance["thought.purpose"]).toMatchObject({ source: "suggested-edited" });

  // Undo takes the accepted suggestion back in one step.
  await editor.press("Control+z");
  await editor.press("Control+z");
  await expect(editor.field("State")).not.toHaveValue("The settings page is open.");
  await editor.press("Control+Shift+z");
  await editor.press("Control+Shift+z");
  await expect(editor.field("Purpose")).toHaveValue("So that Wi-Fi is on.");
  await editor.waitSaved();

  // The canonical export carries the provenance.
  const started = await admin.post("/api/exports", { data: { status: "all" } });
  expect(started.status(), await started.text()).toBe(202);
  const { export: job } = (await started.json()) as { export: { id: string; outDir: string } };
  await expect
    .poll(async () => ((await (await admin.get(`/api/exports/${job.id}`)).json()) as { export: { state: string } }).export.state, {
      timeout: 60_000,
    })
    .toBe("succeeded");
  const line = readFileSync(path.join(job.outDir, "trajectories.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { id: string; steps: { provenance?: Record<string, { source: string }> }[] })
    .find((l) => l.id === id)!;
  expect(line.steps[0]!.provenance!["thought.state"]!.source).toBe("suggested-accepted");
  expect(line.steps[0]!.provenance!["thought.purpose"]!.source).toBe("suggested-edited");
});

test("a slow endpoint and a broken one leave the editor working and lose nothing @storage", async ({ page, request }) => {
  const editor = new EditorPage(page);
  await page.goto("/tasks");
  await page.getByRole("button", { name: /Start next task/ }).click();
  await expect(page).toHaveURL(/\/trajectories\/[^/?]+/);
  await editor.waitForScreenshot();
  const id = new URL(page.url()).pathname.split("/").pop()!;

  // Slow: the person keeps typing while the model is asked; the timeout is a clear message.
  fake.setMode({ mode: "slow", delayMs: 20_000 });
  await page.getByRole("button", { name: "Suggest thought" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Asking the model" })).toBeVisible();
  await editor.writeClearAction("Typed while the model was thinking.");
  await expect(page.getByRole("alert").filter({ hasText: "did not answer in time" })).toBeVisible({ timeout: 15_000 });
  await expect(editor.field("Clear action")).toHaveValue("Typed while the model was thinking.");

  // Broken: a 500 is named, nothing changes.
  fake.setMode({ mode: "fail" });
  const before = await editor.current();
  await page.getByRole("button", { name: "Suggest action" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /could not make a suggestion.*answered HTTP 500/ })).toBeVisible();
  expect(await editor.current()).toEqual(before);
  await editor.press("a");
  expect(await editor.current()).toEqual(before);

  await editor.waitSaved();
  expect((await trajectory(request, id)).steps[0]!.clearAction).toBe("Typed while the model was thinking.");
  fake.setMode({ mode: "ok" });
});

test("a suggested action is drawn on the screenshot in its own colour before it is accepted, with rounded numbers @storage", async ({
  page,
}) => {
  const editor = new EditorPage(page);
  await page.goto("/tasks");
  await page.getByRole("button", { name: /Start next task/ }).click();
  await expect(page).toHaveURL(/\/trajectories\/[^/?]+/);
  await editor.waitForScreenshot();
  fake.setMode({ mode: "ok" });
  const suggested = async () => (await editor.canvas.drawn()).marks.filter((m) => m.name === "suggested-action");

  await page.getByRole("button", { name: "Suggest action" }).click();
  const card = page.getByTestId("suggestion");
  await expect(card).toBeVisible();
  // The text a person reads: the action with whole pixels, not the raw JSON of a converted point.
  const text = (await card.locator("code").textContent())!;
  expect(text).toMatch(/^click \(\d+, \d+\)$/);
  const [x, y] = text.match(/\d+/g)!.map(Number) as [number, number];
  // Drawn before anything is accepted, where the text says, in the suggestion's colour, with its legend entry.
  await expect.poll(async () => (await suggested()).length).toBe(1);
  const [mark] = await suggested();
  expect(mark!.stroke).toBe("#0891b2");
  const at = await editor.canvas.toStage([x, y]);
  expect(Math.abs(mark!.points[0]![0] - at[0])).toBeLessThan(1);
  expect(Math.abs(mark!.points[0]![1] - at[1])).toBeLessThan(1);
  const legend = page.locator('.step-canvas-legend li[data-layer="suggested"]');
  await expect(legend).toContainText("Suggested action");
  await expect(legend).toContainText(text);
  expect((await editor.current()).toolCall).not.toMatchObject({ coordinate: [x, y] });
  await page.screenshot({ path: test.info().outputPath("suggest-drawn-1280.png") });

  // Dismissed: gone from the canvas and the legend, the step unchanged.
  await card.getByRole("button", { name: "Dismiss" }).click();
  await expect.poll(async () => (await suggested()).length).toBe(0);
  await expect(legend).toHaveCount(0);

  // Accepted: the suggestion becomes the step's corrected action, drawn as such.
  await page.getByRole("button", { name: "Suggest action" }).click();
  await expect.poll(async () => (await suggested()).length).toBe(1);
  await card.getByRole("button", { name: /Accept/ }).click();
  await expect.poll(async () => (await suggested()).length).toBe(0);
  const call = (await editor.current()).toolCall as { action: string; coordinate: [number, number] };
  expect(call.action).toBe("click");
  expect(Math.round(call.coordinate[0])).toBe(x);
  expect(Math.round(call.coordinate[1])).toBe(y);
  const corrected = (await editor.canvas.drawn()).marks.find((m) => m.name === "corrected-action")!;
  expect(Math.abs(corrected.points[0]![0] - at[0])).toBeLessThan(1.5);
  await page.screenshot({ path: test.info().outputPath("suggest-accepted-1280.png") });
});
