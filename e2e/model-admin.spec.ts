// The admin's model page in Chromium, against a real OpenAI-compatible HTTP server this spec starts
// (lib/server/testing/fake-model-server): the endpoint saved through the form with its key never shown
// back (page, HTML, API answers, audit), "Test connection" showing what came back, and batch
// pre-annotation started from the trajectory list's selection (and from its filters), followed on
// /admin/model to done, paused, resumed and cancelled, with its token count.
import { request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import type { TrajectoryView } from "@/lib/domain/views";
import { startFakeModelServer, type FakeModelServer } from "@/lib/server/testing/fake-model-server";
import { storageStateFor } from "./accounts";
import { expect as baseExpect, test } from "./fixtures";
import { assignTo, getJson, importTrajectories, saveStep } from "./model-seed";

/** The machine running the suite may be busy: server round trips get more than the default five seconds. */
const expect = baseExpect.configure({ timeout: 15_000 });

const RUN = `${Date.now()}`;
const KEY = `sk-model-e2e-${RUN}-do-not-show`;
const MODEL = "fake-qwen-vl-admin";

let fake: FakeModelServer;
let admin: APIRequestContext;

test.beforeAll(async ({ baseURL }) => {
  fake = await startFakeModelServer();
  admin = await playwrightRequest.newContext({ baseURL, storageState: storageStateFor("admin"), extraHTTPHeaders: { origin: baseURL! } });
});

test.afterAll(async () => {
  await admin?.dispose();
  await fake?.close();
});

/** The id of the job the next POST /api/model/jobs starts. */
async function startedJobId(page: Page): Promise<string> {
  const res = await page.waitForResponse((r) => r.url().endsWith("/api/model/jobs") && r.request().method() === "POST");
  expect(res.status(), await res.text()).toBe(202);
  return ((await res.json()) as { job: { id: string } }).job.id;
}

const settingsSection = (page: Page) => page.getByRole("region", { name: "Endpoint" });
const jobsTable = (page: Page) => page.getByRole("table", { name: "Background jobs" });

/** Save the endpoint through the form on /admin/model. */
async function saveEndpoint(page: Page, opts: { concurrency: number; timeoutS: number; key?: string }) {
  await page.goto("/admin/model");
  const form = settingsSection(page);
  await form.getByLabel("Base URL").fill(fake.baseUrl);
  await form.getByLabel("Model name").fill(MODEL);
  if (opts.key) await form.getByLabel("API key").fill(opts.key);
  await form.getByLabel("Requests at a time").fill(String(opts.concurrency));
  await form.getByLabel("Timeout (seconds)").fill(String(opts.timeoutS));
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/model/settings") && r.request().method() === "PUT");
  await form.getByRole("button", { name: "Save" }).click();
  const res = await saved;
  expect(res.status()).toBe(200);
  await expect(form.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  return res;
}

test("the endpoint is saved with its key never shown back, and Test connection shows what the server answered @storage", async ({
  page,
}) => {
  fake.setMode({ mode: "ok" });
  const putAnswer = await saveEndpoint(page, { concurrency: 2, timeoutS: 5, key: KEY });
  expect(await putAnswer.text()).not.toContain(KEY);

  // After a reload the page says a key is set, and nowhere shows it: not in the field, not in the HTML.
  await page.reload();
  const form = settingsSection(page);
  await expect(form.getByText("A key is set (saved here); it is never shown.")).toBeVisible();
  await expect(form.getByLabel("API key")).toHaveValue("");
  await expect(form.getByLabel("Base URL")).toHaveValue(fake.baseUrl);
  expect(await page.content()).not.toContain(KEY);
  const served = await admin.get("/admin/model");
  expect(await served.text()).not.toContain(KEY);
  const api = await admin.get("/api/model/settings");
  const apiText = await api.text();
  expect(apiText).not.toContain(KEY);
  expect(JSON.parse(apiText)).toMatchObject({ settings: { baseUrl: fake.baseUrl, model: MODEL, hasKey: true, concurrency: 2 } });
  const audit = await admin.get("/api/audit?action=model.settings");
  expect(audit.status()).toBe(200);
  const auditText = await audit.text();
  expect(auditText).toContain("replaced");
  expect(auditText).not.toContain(KEY);

  // Test connection: one real request, carrying the key; the page shows the reply, the model and the tokens.
  fake.requests.length = 0;
  const testButton = form.getByRole("button", { name: "Test connection" });
  const testAnswer = page.waitForResponse((r) => r.url().endsWith("/api/model/test"));
  await testButton.click();
  expect(await (await testAnswer).text()).not.toContain(KEY);
  const result = page.getByTestId("model-test");
  await expect(result).toContainText(new RegExp(`${MODEL} answered in [\\d.,]+ m?s:`));
  await expect(result.getByText("pong", { exact: true })).toBeVisible();
  await expect(result).toContainText(/\d+ prompt \+ \d+ completion tokens?/);
  expect(fake.requests).toHaveLength(1);
  expect(fake.requests[0]!.authorization).toBe(`Bearer ${KEY}`);
  expect(fake.requests[0]!.body.model).toBe(MODEL);

  // A broken endpoint: the page says what came back instead.
  fake.setMode({ mode: "fail" });
  await testButton.click();
  await expect(result).toContainText(/The test request failed after [\d.,]+ m?s:/);
  await expect(result).toContainText("HTTP 500 · The endpoint answered with an error status.");
  // Status and a reason only: nothing the endpoint wrote is shown.
  await expect(result).not.toContainText("The model server broke");
  expect(await page.content()).not.toContain(KEY);
  fake.setMode({ mode: "ok" });
});

test("pre-annotation started from the list's selection runs to done on /admin/model; one from the filters is paused, resumed and cancelled @storage", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const goal = (n: number) => `Model prefill ${RUN} #${n}: open the calendar`;
  const ids = await importTrajectories(admin, RUN, [
    { goal: goal(1), app: "Calendar", steps: 2 },
    { goal: goal(2), app: "Calendar", steps: 2 },
    { goal: goal(3), app: "Calendar", steps: 4 },
  ]);
  // A person has already written step 1 of #1: the job must leave it as it is.
  await assignTo(admin, [ids[0]!], "admin@studio.local");
  const before = await getJson<TrajectoryView>(admin, `/api/trajectories/${ids[0]}`);
  await saveStep(admin, before.steps[0]!, "Person");
  await saveEndpoint(page, { concurrency: 1, timeoutS: 10 });
  fake.setMode({ mode: "ok" });
  fake.requests.length = 0;

  // ── The list: select #1 and #2, "Pre-annotate…", the selection. ──
  await page.goto(`/trajectories?q=${encodeURIComponent(`Model prefill ${RUN}`)}`);
  await page.getByRole("checkbox", { name: `Select ${goal(1)}` }).check();
  await page.getByRole("checkbox", { name: `Select ${goal(2)}` }).check();
  const bar = page.getByRole("region", { name: "Assign selected trajectories" });
  await expect(bar).toContainText("2 selected");
  await bar.getByRole("button", { name: "Pre-annotate…" }).click();
  const dialog = page.getByRole("dialog", { name: "Pre-annotate with the model" });
  await expect(dialog.getByRole("radio", { name: "The 2 selected" })).toBeChecked();
  const firstId = startedJobId(page);
  await dialog.getByRole("button", { name: "Start pre-annotation" }).click();
  await expect(dialog.getByRole("status")).toContainText("Started over 2 trajectories (4 steps).");
  await dialog.getByRole("link", { name: "Follow it on the Model page" }).click();
  await expect(page).toHaveURL(/\/admin\/model$/);

  // ── /admin/model: the job runs to done; the person's step is counted as left alone. ──
  const first = jobsTable(page).getByTestId(`model-job-${await firstId}`);
  await expect(first).toContainText("2 trajectories");
  await expect(first).toContainText("finished", { timeout: 30_000 });
  await expect(first).toContainText("4 of 4");
  await expect(first).toContainText("1 left alone · 0 failed");
  const tokens = (await first.getByRole("cell").nth(3).textContent())!;
  const [tin, tout] = tokens.match(/\d+/g)!.map(Number);
  expect(tin).toBeGreaterThan(0);
  expect(tout).toBeGreaterThan(0);
  expect(fake.requests).toHaveLength(3);
  const one = await getJson<TrajectoryView>(admin, `/api/trajectories/${ids[0]}`);
  expect(one.steps[0]!.thought.state).toBe("Person state.");
  expect(one.steps[0]!.provenance["thought.state"]?.source).toBe("typed");
  expect(one.steps[1]!.thought.state).toBe("The settings page is open.");
  expect(one.steps[1]!.provenance["thought.state"]).toMatchObject({ source: "prefilled", prompt: "suggest-thought.v2", model: MODEL });
  const three = await getJson<TrajectoryView>(admin, `/api/trajectories/${ids[2]}`);
  expect(three.steps.every((s) => !s.provenance["thought.state"])).toBe(true);

  // ── Back on the list: every trajectory matching the filter that still has untouched steps (only #3). ──
  fake.setMode({ mode: "slow", delayMs: 3_000 });
  fake.requests.length = 0;
  await page.goto(`/trajectories?q=${encodeURIComponent(`Model prefill ${RUN}`)}`);
  await page.getByRole("checkbox", { name: `Select ${goal(1)}` }).check();
  await bar.getByRole("button", { name: "Pre-annotate…" }).click();
  await dialog.getByRole("radio", { name: /Every trajectory matching the current filters/ }).check();
  await expect(dialog).toContainText(`text “Model prefill ${RUN}”`);
  const secondId = startedJobId(page);
  await dialog.getByRole("button", { name: "Start pre-annotation" }).click();
  await expect(dialog.getByRole("status")).toContainText("Started over 1 trajectory (4 steps).");
  await page.goto("/admin/model");
  const second = jobsTable(page).getByTestId(`model-job-${await secondId}`);
  await expect(second).toContainText("running");

  // Pause: the job stops after the step in flight; nothing more is asked.
  await expect.poll(() => fake.requests.length).toBeGreaterThanOrEqual(1);
  await second.getByRole("button", { name: "Pause" }).click();
  await expect(second).toContainText("paused");
  await expect(second.getByRole("button", { name: "Resume" })).toBeVisible();
  // The request in flight (3 s) finishes; no new one starts.
  await expect.poll(() => fake.requests.every((r) => r.isEnded), { timeout: 15_000 }).toBe(true);
  const askedWhilePaused = fake.requests.length;
  await page.reload();
  await expect(second).toContainText("paused");
  const progressPaused = (await second.getByRole("cell").nth(2).textContent())!;
  // A window, not a wait: that a paused job asks nothing more can only be seen by letting time pass.
  await page.waitForTimeout(3_000);
  expect(fake.requests.length).toBe(askedWhilePaused);
  await page.reload();
  await expect(second.getByRole("cell").nth(2)).toHaveText(progressPaused);
  expect(Number(progressPaused.match(/(\d+) of 4/)![1])).toBeLessThan(4);

  // Resume: it asks again; then Cancel keeps what was written and stops for good.
  await second.getByRole("button", { name: "Resume" }).click();
  await expect(second).toContainText("running");
  await expect.poll(() => fake.requests.length, { timeout: 10_000 }).toBeGreaterThan(askedWhilePaused);
  await second.getByRole("button", { name: "Cancel" }).click();
  await expect(second).toContainText("cancelled");
  await expect(second.getByRole("button", { name: "Resume" })).toHaveCount(0);
  await expect.poll(() => fake.requests.every((r) => r.isEnded), { timeout: 15_000 }).toBe(true);
  const askedAfterCancel = fake.requests.length;
  // A window, not a wait, as for the pause above.
  await page.waitForTimeout(2_000);
  expect(fake.requests.length).toBe(askedAfterCancel);
  const filled = (await getJson<TrajectoryView>(admin, `/api/trajectories/${ids[2]}`)).steps.filter(
    (s) => s.provenance["thought.state"]?.source === "prefilled",
  ).length;
  expect(filled).toBeGreaterThanOrEqual(1);
  expect(filled).toBeLessThan(4);
  fake.setMode({ mode: "ok" });
});

test("a job stopped by failures says so after 5 failures in a row, and Resume finishes the steps not yet done @storage", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const run = `${RUN}r`;
  const [id] = await importTrajectories(admin, run, [{ goal: `Model resume ${run}: open the clock`, app: "Clock", steps: 7 }]);
  await saveEndpoint(page, { concurrency: 3, timeoutS: 10 });
  fake.setMode({ mode: "fail" });
  fake.requests.length = 0;
  const res = await admin.post("/api/model/jobs", { data: { kind: "prefill", trajectoryIds: [id] } });
  expect(res.status(), await res.text()).toBe(202);
  const jobId = ((await res.json()) as { job: { id: string } }).job.id;

  await page.goto("/admin/model");
  const row = jobsTable(page).getByTestId(`model-job-${jobId}`);
  const state = row.getByRole("cell").nth(1);
  await expect(state).toContainText(/^failed/, { timeout: 30_000 });
  // Exactly as documented: five failures in a row stop it (answers in flight then are not counted).
  await expect(row).toContainText("· 5 failed");
  await expect(row).toContainText("5 of 7");
  await expect(state).toContainText("Stopped after 5 failures in a row");

  fake.setMode({ mode: "ok" });
  fake.requests.length = 0;
  await row.getByRole("button", { name: "Resume" }).click();
  await expect(state).toHaveText("finished", { timeout: 30_000 });
  await expect(row).toContainText("7 of 7");
  await expect(row).toContainText("· 0 failed");
  await expect(row.getByRole("button", { name: "Resume" })).toHaveCount(0);
  expect(fake.requests).toHaveLength(7);
  const steps = (await getJson<TrajectoryView>(admin, `/api/trajectories/${id}`)).steps;
  expect(steps.every((s) => s.provenance["thought.state"]?.source === "prefilled")).toBe(true);
});
