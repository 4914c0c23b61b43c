// The evaluation pages a team reads every week (issue 36), in Chromium, against a real OpenAI-compatible server
// this spec starts and scripts per checkpoint. Sixteen reviewed trajectories of its own (a click, then terminate)
// in two apps, one with a Chinese name, frozen as a held-out set:
// - the navigation reaches Evaluation and Releases (English and Chinese);
// - the endpoint form tests the connection through the server and says in words that it answered;
// - the run page says its progress in words: running, stopped with its failed calls, finished after a resume;
// - the failure gallery shows 12 of 16 failures a page, a count beside each filter option, and stays under three
//   screens tall at 1440x900;
// - the comparison reads older → newer whichever order the runs were picked in, with signed changes and the steps
//   that flipped, and never shows an internal key (no ALLCAPS key, no `@`, no camelCase or snake_case word) in
//   either language.
// With E2E_SHOTS_DIR set it also saves each page at 1280x720 and 1440x900 in both languages there.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { framePair, QWEN_MAX_PIXELS, toResizedPoint, type Point } from "@/lib/domain/geometry";
import { requestText, startFakeModelServer, type ChatRequest, type FakeModelServer } from "@/lib/server/testing/fake-model-server";
import { storageStateFor } from "./accounts";
import { expect as baseExpect, test } from "./fixtures";
import { annotateAndSubmit, approve, assignTo, importTrajectories } from "./model-seed";
import { StepCanvasPart } from "./pages/step-canvas";

const expect = baseExpect.configure({ timeout: 30_000 });

const RUN = `${Date.now()}`;
const DOUYIN = `抖音${RUN}`;
const MAIL = `Mail${RUN}`;
const N = 16;
const goal = (i: number) => `Weekly ${RUN} #${String(i).padStart(2, "0")}`;
const SET = `weekly-${RUN}`;
const OLD = `old-${RUN}`;
const NEW = `new-${RUN}`;
/** model-seed's screenshots are 540x1200; step 1 is a click at (270, 300) in the box [200, 260, 340, 340]. */
const FRAMES = framePair({ width: 540, height: 1200 }, QWEN_MAX_PIXELS);
const resized = (p: Point) => toResizedPoint(p, FRAMES).map(Math.round);
const answer = (action: Record<string, unknown>) => `<think>Looking.</think><action>${JSON.stringify(action)}</action>`;
const RIGHT = answer({ action: "click", coordinate: resized([270, 300]) });
const OUTSIDE = answer({ action: "click", coordinate: resized([270, 900]) });
const BACK = answer({ action: "system_button", button: "Back" });
const DONE = answer({ action: "terminate", status: "success" });
const WAIT = answer({ action: "wait", time: 1 });

/** The old checkpoint's first answer to these two goals fails (HTTP 400): two failed calls, asked again on resume. */
const FAIL_ONCE = new Set([goal(1), goal(2)]);

/**
 * Old: 抖音's clicks outside the box, Mail's clicks a Back button, every terminate right (16 failed clicks).
 * New: every click right, but Mail's terminate a wait: 16 clicks fixed, 8 terminates broken.
 */
function scripted(req: ChatRequest): string {
  const text = requestText(req);
  const i = Array.from({ length: N }, (_, k) => k + 1).find((k) => text.includes(goal(k)));
  if (i === undefined) return "pong";
  const isMail = i % 2 === 0;
  const isLast = /Step 1: /.test(text);
  if (req.model === OLD) {
    if (isLast) return DONE;
    if (FAIL_ONCE.delete(goal(i))) throw new Error("scripted failure");
    return isMail ? BACK : OUTSIDE;
  }
  if (isLast) return isMail ? WAIT : DONE;
  return RIGHT;
}

let fake: FakeModelServer;
const contexts: APIRequestContext[] = [];

test.beforeAll(async () => {
  fake = await startFakeModelServer();
  fake.setResponder(scripted);
});

test.afterAll(async () => {
  for (const c of contexts) await c.dispose();
  await fake?.close();
});

type Run = { id: string; state: string };

const SHOTS = process.env.E2E_SHOTS_DIR;

/** With E2E_SHOTS_DIR: the page at both sizes, full length, named by page and language. */
async function shoot(page: Page, name: string, lang: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const [w, h] of [
    [1280, 720],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${lang}-${w}x${h}.png`), fullPage: true });
  }
}

/** What a person reads on the page's main part, outside data (elements marked data-i18n="data"), as rendered. */
async function readText(page: Page): Promise<string> {
  return page.locator("main").evaluate((main) => {
    const data = [...main.querySelectorAll<HTMLElement>('[data-i18n="data"]')];
    const before = data.map((d) => d.style.display);
    for (const d of data) d.style.display = "none";
    const text = (main as HTMLElement).innerText;
    data.forEach((d, k) => (d.style.display = before[k]!));
    return text;
  });
}

/** Words shaped like an internal key: ALLCAPS (five letters or more, as CSS uppercasing makes), `@`, camelCase, snake_case. */
function keyShapedWords(text: string): string[] {
  return [
    ...(text.match(/\b[A-Z][A-Z0-9]{4,}\b/g) ?? []),
    ...(text.match(/\S*@\S*/g) ?? []),
    ...(text.match(/\b[a-z]+[A-Z][A-Za-z]*\b/g) ?? []),
    ...(text.match(/\b[A-Za-z]+_[A-Za-z_]+\b/g) ?? []),
  ];
}

async function setLocale(request: APIRequestContext, baseURL: string, locale: "en" | "zh") {
  const res = await request.patch("/api/me", { data: { locale }, headers: { origin: baseURL } });
  expect(res.status(), await res.text()).toBe(200);
}

test("the evaluation pages in words: navigation, endpoint test, run progress, a paged failure gallery and a comparison without keys @storage", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(420_000);
  const as = async (role: "admin" | "annotator" | "reviewer") => {
    const c = await playwrightRequest.newContext({ baseURL, storageState: storageStateFor(role), extraHTTPHeaders: { origin: baseURL! } });
    contexts.push(c);
    return c;
  };
  const admin = await as("admin");
  const annotator = await as("annotator");
  const reviewer = await as("reviewer");

  // ── Seed: sixteen reviewed trajectories in two apps, frozen as a held-out set; the new checkpoint's endpoint. ──
  const ids = await importTrajectories(
    admin,
    RUN,
    Array.from({ length: N }, (_, k) => ({ goal: goal(k + 1), app: (k + 1) % 2 === 0 ? MAIL : DOUYIN, steps: 2 })),
  );
  await assignTo(admin, ids, "annotator@studio.local");
  for (const id of ids) await annotateAndSubmit(annotator, id, "success");
  for (const id of ids) await approve(reviewer, id);
  const frozen = await admin.post("/api/eval-sets", { data: { name: SET, ids, heldOut: true } });
  expect(frozen.status(), await frozen.text()).toBe(201);
  const saved = await admin.post("/api/eval/endpoints", { data: { name: NEW, baseUrl: fake.baseUrl, model: NEW, concurrency: 4 } });
  expect(saved.status(), await saved.text()).toBe(200);

  try {
    // ── The navigation reaches Releases and Evaluation. ──
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/trajectories");
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Releases" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Evaluation sets and releases" })).toBeVisible();
    await nav.getByRole("link", { name: "Evaluation" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Evaluation runs" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Evaluation" })).toHaveAttribute("aria-current", "page");

    // ── The endpoint form: the command line's options, and Test connection answered in words. ──
    const endpointForm = page.getByRole("form", { name: "Save an endpoint" });
    await endpointForm.getByLabel("Name", { exact: true }).fill(OLD);
    await endpointForm.getByLabel("Base URL (OpenAI-compatible, ending in /v1)").fill(fake.baseUrl);
    await endpointForm.getByLabel("Served model name").fill(OLD);
    await endpointForm.getByLabel("Requests at a time").fill("2");
    await endpointForm.getByLabel("Timeout per request (seconds)").fill("30");
    await endpointForm.getByLabel("API key").fill(`sk-${RUN}`);
    fake.requests.length = 0;
    await endpointForm.getByRole("button", { name: "Test connection" }).click();
    await expect(endpointForm.getByTestId("model-test")).toContainText(`${OLD} answered in`);
    expect(fake.requests.map((r) => r.authorization)).toEqual([`Bearer sk-${RUN}`]);
    await endpointForm.getByRole("button", { name: "Save endpoint" }).click();
    await expect(endpointForm.getByRole("status")).toHaveText(`Endpoint ${OLD} saved.`);
    await expect(page.getByText(`${OLD} · ${fake.baseUrl}`)).toContainText("2 at a time, 30 s per request · key saved");

    // ── Start the old checkpoint's run from the form: the set by version, named held out. ──
    const start = page.getByRole("form", { name: "Start an evaluation run" });
    await start.getByLabel("Evaluation set").selectOption({ label: `${SET} v1 · held out of training` });
    await start.getByLabel("Endpoint").selectOption(OLD);
    fake.setMode({ mode: "slow", delayMs: 700 });
    const started = page.waitForResponse((r) => r.url().endsWith("/api/eval/runs") && r.request().method() === "POST");
    await start.getByRole("button", { name: "Start run" }).click();
    const oldRun = ((await (await started).json()) as { run: Run }).run.id;
    const status = start.getByRole("status");
    await expect(status).toContainText(`Run started: ${OLD} on ${SET} v1 (ui-s1).`);
    await expect(status).toContainText(/Running: \d+ of 32 steps/);
    await expect(status).not.toContainText(oldRun);
    fake.setMode({ mode: "ok" });

    // ── The run page: stopped with its two failed calls, then resumed and finished, all in words. ──
    await status.getByRole("link", { name: "Open the run" }).click();
    const progress = page.locator(".eval-progress");
    await expect(progress).toHaveText("Stopped at 30 of 32 steps, 2 failed calls", { timeout: 90_000 });
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(progress).toHaveText(/^Finished in .+: 32 steps, 2 failed calls$/, { timeout: 90_000 });

    // ── The failure gallery: 12 of the 16 failed clicks a page, counts beside each option, under three screens. ──
    const gallery = page.getByRole("region", { name: "Failed steps" });
    const pager = gallery.getByRole("navigation", { name: "Pagination" });
    await expect(pager).toContainText("1–12 of 16 · page 1 of 2");
    const cards = gallery.locator(".eval-gallery > li");
    await expect(cards).toHaveCount(12);
    const kind = gallery.getByLabel("Why it failed");
    await expect(kind.getByRole("option")).toHaveText([
      "any (16)",
      "wrong action type (8)",
      "point outside the box (8)",
      "text mismatch (0)",
      "other argument differs (0)",
      "unparseable (0)",
    ]);
    await expect(gallery.getByRole("combobox", { name: /^App/ }).getByRole("option")).toHaveText([
      "any (16)",
      `${MAIL} (8)`,
      `${DOUYIN} (8)`,
    ]);
    await expect(gallery.getByRole("combobox", { name: /^Action type/ }).getByRole("option")).toHaveText([
      "any (16)",
      "Click (16)",
      "Terminate (0)",
    ]);
    // A click outside the box: the model's point and the ground truth drawn on the read-only step canvas.
    const first = new StepCanvasPart(page, cards.filter({ hasText: "point outside the box" }).first().locator(".step-canvas"));
    await first.waitForScreenshot();
    expect((await first.drawn()).marks.map((m) => m.name).sort()).toEqual(["corrected-action", "model-action"]);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(3 * 900);
    const confusion = page.getByRole("table", { name: "Predicted against true action type" });
    await expect(confusion.getByRole("columnheader")).toHaveText([
      "True action type",
      "Predicted action type",
      "Click",
      "Terminate",
      "System button",
    ]);
    await expect(confusion.getByRole("row", { name: /^Click/ }).getByRole("cell")).toHaveText(["8", "0", "8"]);
    await shoot(page, "run", "en");
    await page.setViewportSize({ width: 1440, height: 900 });
    await pager.getByRole("button", { name: "Next page" }).click();
    await expect(pager).toContainText("13–16 of 16 · page 2 of 2");
    await expect(cards).toHaveCount(4);
    // A filter starts again at its first page, and the other filters count what it leaves.
    await kind.selectOption("outside-box");
    await expect(pager).toContainText("1–8 of 8 · page 1 of 1");
    await expect(gallery.getByRole("combobox", { name: /^App/ }).getByRole("option")).toHaveText([
      "any (8)",
      `${MAIL} (0)`,
      `${DOUYIN} (8)`,
    ]);

    // ── The new checkpoint, then the comparison picked newer first: it still reads older → newer. ──
    const newRun = (
      (await (await admin.post("/api/eval/runs", { data: { set: SET, endpoint: NEW } })).json()) as {
        run: Run;
      }
    ).run.id;
    await expect
      .poll(async () => ((await (await admin.get(`/api/eval/runs/${newRun}`)).json()) as { run: Run }).run.state, { timeout: 90_000 })
      .toBe("succeeded");
    await page.goto("/admin/eval");
    await shoot(page, "runs", "en");
    await page.locator(`[data-run="${newRun}"]`).getByRole("checkbox").check();
    await page.locator(`[data-run="${oldRun}"]`).getByRole("checkbox").check();
    await page.getByRole("link", { name: "Compare the two chosen runs" }).click();
    await expect(page.getByRole("heading", { name: "Compare two runs" })).toHaveCount(1);
    const runs = page.getByRole("definition");
    await expect(runs.first()).toContainText(`${OLD} on ${SET} v1`);
    await expect(runs.last()).toContainText(`${NEW} on ${SET} v1`);
    await expect(page.getByText(/figures? fell/)).toHaveText(/went from right to wrong, 16 steps from wrong to right\.$/);
    const overall = page.getByRole("table", { name: "All steps" });
    await expect(overall.getByRole("row", { name: /^Step success/ }).getByRole("cell")).toHaveText(["50%", "75%", "+25.0 points"]);
    const perAction = page.getByRole("table", { name: "Step success per action type" });
    await expect(perAction.getByRole("row").nth(1).getByRole("cell")).toHaveText(["100%", "50%", "−50.0 points"]);
    await expect(perAction.getByRole("row").nth(1).getByRole("rowheader")).toHaveText("Terminate");
    await expect(perAction.getByRole("row").nth(1)).toHaveClass(/eval-regression/);
    await expect(perAction.getByRole("row", { name: /^Click/ }).getByRole("cell")).toHaveText(["0%", "100%", "+100.0 points"]);
    const perApp = page.getByRole("table", { name: "Step success per app" });
    await expect(perApp.getByRole("row", { name: DOUYIN }).getByRole("cell")).toHaveText(["50%", "100%", "+50.0 points"]);
    await expect(perApp.getByRole("row", { name: MAIL }).getByRole("cell")).toHaveText(["50%", "50%", "no change"]);
    const broke = page.getByRole("region", { name: "Right before, wrong now (8)" });
    await expect(broke.getByRole("link")).toHaveCount(8);
    await expect(broke.getByRole("link").first()).toHaveText(`${MAIL} · Terminate · step 2`);
    // Each opens that step (the second) of one of Mail's trajectories.
    const mailSteps = ids.filter((_, k) => (k + 1) % 2 === 0).map((id) => `/trajectories/${encodeURIComponent(id)}?step=2`);
    expect((await broke.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")))).sort()).toEqual(
      mailSteps.sort(),
    );
    await expect(page.getByRole("region", { name: "Wrong before, right now (16)" }).getByRole("link")).toHaveCount(16);
    expect(keyShapedWords(await readText(page))).toEqual([]);
    await shoot(page, "compare", "en");

    // ── In Chinese: the same pages in Chinese words, still no key on the comparison. ──
    await setLocale(page.request, baseURL!, "zh");
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "比较两次运行" })).toBeVisible();
    await expect(
      page
        .getByRole("table", { name: "全部步骤" })
        .getByRole("row", { name: /^步骤成功率/ })
        .getByRole("cell"),
    ).toHaveText(["50%", "75%", "上升 25.0 个百分点"]);
    expect(keyShapedWords(await readText(page))).toEqual([]);
    await shoot(page, "compare", "zh");
    const zhNav = page.getByRole("navigation", { name: "主导航" });
    await expect(zhNav.getByRole("link", { name: "评测" })).toBeVisible();
    await expect(zhNav.getByRole("link", { name: "发布版本" })).toBeVisible();
    await page.goto(`/admin/eval/${oldRun}`);
    await expect(page.locator(".eval-progress")).toHaveText(/^用时 .+ 完成：共 32 步，2 次调用失败$/);
    await expect(page.getByRole("region", { name: "失败的步骤" }).getByRole("navigation", { name: "分页" })).toContainText(
      "第 1–12 条，共 16 条",
    );
    await expect(page.getByRole("region", { name: "失败的步骤" }).locator(".eval-gallery > li")).toHaveCount(12);
    await shoot(page, "run", "zh");
    await page.goto("/admin/eval");
    await expect(page.getByRole("heading", { level: 1, name: "评测运行" })).toBeVisible();
    await shoot(page, "runs", "zh");
  } finally {
    fake.setMode({ mode: "ok" });
    await setLocale(page.request, baseURL!, "en");
  }
});
