import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import {
  expect as baseExpect,
  request as playwrightRequest,
  test,
  type APIRequestContext,
  type Browser,
  type Page,
} from "@playwright/test";
import type { TrajectoryView } from "@/lib/domain/views";
import { DATE_PATTERNS } from "@/lib/i18n/format";
import { startFakeModelServer, type FakeModelServer } from "@/lib/server/testing/fake-model-server";
import { storageStateFor, type DemoRole } from "./accounts";
import { makeBrokenJsonl } from "./datasets";
import { e2eDatabaseUrl, e2eDataDir } from "./env";
import { annotateAndSubmit, assignTo, getJson, importTrajectories, saveStep } from "./model-seed";

// Issue 21 item 7: every page in Chinese speaks Chinese. Each role switches to zh, visits every page
// (app/**/page.tsx) and the states that only open on demand (help, submit list, an import with
// problems, the model test, the audit trail), and collects what a person reads: visible text plus
// aria-label, title, placeholder and alt. A Latin-script word outside data (elements marked
// data-i18n="data", code, kbd, pre) and outside ALLOWED fails the walk, and so does a date written
// any other way than 2026年11月25日 23:50.

/** A busy machine may take long over a page: every wait gets a minute. */
const expect = baseExpect.configure({ timeout: 60_000 });

/** Proper nouns, formats and units a Chinese sentence keeps in Latin letters. */
const ALLOWED = new Set(
  [
    "Trajectory Studio",
    "Qwen",
    "JSON",
    "JSONL",
    "CSV",
    "UI-S1",
    "Mobile-R1",
    "IoU",
    "Krippendorff",
    // Licence and metadata names on the release form (SPDX ids such as CC-BY-4.0, Apache-2.0; Croissant).
    "SPDX",
    "Croissant",
    "CC-BY-4",
    "CC-BY-NC-4",
    "Apache-2",
    "ms-swift",
    "LLaMA-Factory",
    "verl",
    "API",
    "URL",
    "PNG",
    "ID",
    "OpenAI",
    "TLS",
    "https",
    "http",
    "cli",
    "system",
    "MB",
    "KB",
    "GB",
    "max_pixels",
    "zip",
    "Esc",
    "Enter",
    "Shift",
    "Ctrl",
    "Alt",
    "Tab",
    "Space",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "Backspace",
    "Delete",
    "Bearer",
    "token",
    "ms",
    "px",
    "SQLite",
    "PostgreSQL",
    "S3",
    "HTTP",
    "Konva",
    // Trainer vocabulary: the RL algorithm verl runs, and the bridge's flag a sentence names.
    "GRPO",
    "allow-unreviewed",
  ].flatMap((w) => w.split(/[\s]+/)),
);

/**
 * The tool call's own vocabulary (mobile_use actions and argument names, system buttons) and the
 * import formats' names: identifiers a trainer reads in the data, shown as they are in every language.
 */
const VOCABULARY = new Set([
  ...["click", "long_press", "swipe", "type", "answer", "system_button", "open", "wait", "terminate", "key"],
  ...["text", "coordinate", "coordinate2", "button", "time", "status", "success", "failure", "Back", "Home", "Menu"],
  ...["ui-s1", "mobile-r1", "studio", "trajectory-studio", "rel1000", "smart_resize", "Authorization", "Del", "default"],
  ...["vLLM", "SGLang", "GUI-Owl", "Qwen3-VL", "random", "by-app", "WeChat"],
  // The import formats' field names, quoted where the form says what a format holds.
  ...["goal", "action_content", "thought", "action", "response", "app_name", "instruction", "screenshot"],
  // The demo's project name (data, inside a sentence).
  "demo",
]);

/** Language names the language menu offers in their own language. */
const LANGUAGE_NAMES = new Set(["English"]);

type Found = { page: string; where: string; text: string };

/** What a person reads on the page now, outside data: [where, text] pairs. */
async function readable(page: Page): Promise<{ texts: [string, string][]; untranslated: string[] }> {
  return page.evaluate(() => {
    const out: [string, string][] = [];
    const EXCLUDED = '[data-i18n="data"], code, kbd, pre, script, style, noscript, template, [class*="recharts-cartesian-axis"]';
    // Data quoted inside a label ("select 打开设置…", a title naming an id) is data there too.
    // A data element's title (the instruction behind a reason) is data too, wherever a label quotes it.
    const data = [...document.querySelectorAll('[data-i18n="data"]')]
      .flatMap((e) => [e.textContent?.trim() ?? "", e.getAttribute("title")?.trim() ?? ""])
      .filter((s) => s.length >= 2)
      .sort((a, b) => b.length - a.length);
    const strip = (s: string) => data.reduce((acc, d) => acc.split(d).join(" "), s);
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.className && typeof el.className === "string" ? `.${el.className.split(" ")[0]}` : ""}`;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      const text = node.textContent?.trim();
      if (!el || !text || el.closest(EXCLUDED)) continue;
      // A text field's content is what a person typed (a thought, a comment): data. Its label and placeholder are read below.
      if (el.tagName === "TEXTAREA") continue;
      // Options of a closed select are not drawn but are read when it opens: count them.
      if (el.tagName !== "OPTION" && !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      out.push([describe(el), strip(text)]);
    }
    for (const el of document.body.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
      if (el.closest(EXCLUDED)) continue;
      for (const attr of ["aria-label", "title", "placeholder", "alt"]) {
        const v = el.getAttribute(attr)?.trim();
        if (v) out.push([`${describe(el)}[${attr}]`, strip(v)]);
      }
    }
    const untranslated = [...document.querySelectorAll('[data-i18n="untranslated"]')].map((e) => e.textContent?.trim() ?? "");
    return { texts: out, untranslated };
  });
}

/** Latin words of `text` that are neither allowed nor part of an email, a path, a number with unit or a key cap. */
function latinWords(text: string): string[] {
  // Allowed names first, longest first, so "Mobile-R1" or "UI-S1" is not cut into words below.
  const allowed = [...ALLOWED, ...VOCABULARY].sort((a, b) => b.length - a.length);
  const named = allowed.reduce((acc, w) => acc.split(w).join(" "), text.replace(/\b[\w.+-]+@[\w.-]+\b/g, " "));
  const cleaned = named
    .replace(/\b[\w.+-]+@[\w.-]+\b/g, " ") // emails (data, when not marked)
    .replace(/\b[\w-]+\.(jsonl|json|zip|png|jpe?g|webp|csv|parquet)\b/g, " ") // file names
    .replace(/\b[\w-]*\d[\w-]*[a-z][\w-]*\b|\b[a-z]+\d[\w-]*\b/gi, " ") // ids, mixing letters and digits
    .replace(/\b\w+_\w+\b/g, " ") // snake_case identifiers (format fields, actions)
    .replace(/\.\w+\b/g, " ") // file extensions (.jsonl)
    .replace(/\b\w+\//g, " ") // folders (images/)
    .replace(/\/[\w./[\]-]*/g, " "); // paths and routes
  const words = cleaned.match(/[A-Za-z][A-Za-z0-9_'’.-]*[A-Za-z0-9]|[A-Za-z]{2,}/g) ?? [];
  return words.filter((w) => {
    const bare = w.replace(/[.’']+$/, "");
    return !ALLOWED.has(bare) && !VOCABULARY.has(bare) && !LANGUAGE_NAMES.has(bare) && !/^[A-Z]$/.test(bare);
  });
}

/** Date-looking strings: every one must be the locale's single date style. */
const DATE_LIKE = [
  /\d{4}年\d{1,2}月\d{1,2}日(?: \d{2}:\d{2})?/g,
  /\b\d{1,4}[/-]\d{1,2}[/-]\d{1,4}(?:,? \d{1,2}:\d{2}(?::\d{2})?(?: ?[AP]M)?)?/g,
  /\b\d{1,2}:\d{2}(?::\d{2})? ?(?:AM|PM|上午|下午)\b/g,
  /(?:上午|下午)\d{1,2}:\d{2}/g,
  /\b\d{1,2} [A-Z][a-z]{2} \d{4}/g,
  /\b[A-Z][a-z]{2} \d{1,2}, \d{4}/g,
];

function badDates(text: string): string[] {
  const out: string[] = [];
  for (const re of DATE_LIKE)
    for (const m of text.matchAll(re)) {
      const s = m[0];
      if (!DATE_PATTERNS.zh.dateTime.test(s) && !DATE_PATTERNS.zh.date.test(s)) out.push(s);
    }
  return out;
}

async function setLocale(request: APIRequestContext, baseURL: string, locale: "en" | "zh") {
  const res = await request.patch("/api/me", { data: { locale }, headers: { origin: baseURL } });
  expect(res.status(), await res.text()).toBe(200);
}

type Walk = { found: Found[]; dates: Found[]; visited: string[]; untranslated: Set<string> };

async function collect(page: Page, label: string, walk: Walk) {
  await page.waitForLoadState("networkidle");
  // Data still loading shows a spinner's words (components/ui/states.tsx); wait until no spinner is left.
  await expect(page.locator(".loading, .spinner")).toHaveCount(0);
  walk.visited.push(label);
  const shots = path.resolve(".tmp/zh-walk");
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${label.replace(/[^\w-]+/g, "_")}.png`) });
  const { texts, untranslated } = await readable(page);
  for (const u of untranslated) walk.untranslated.add(u);
  for (const [where, text] of texts) {
    const words = latinWords(text);
    if (words.length) walk.found.push({ page: label, where, text: `${words.join(" ")}  ⟵  ${text.slice(0, 160)}` });
    for (const d of badDates(text)) walk.dates.push({ page: label, where, text: d });
  }
}

async function visit(page: Page, url: string, walk: Walk, label = url) {
  const res = await page.goto(url);
  expect(res?.status(), url).toBeLessThan(500);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await collect(page, label, walk);
}

async function asRole(browser: Browser, baseURL: string, role: DemoRole) {
  const context = await browser.newContext({ baseURL, storageState: storageStateFor(role), viewport: { width: 1440, height: 900 } });
  return { context, page: await context.newPage() };
}

const ROLES: DemoRole[] = ["admin", "reviewer", "annotator"];
const RUN = `${Date.now()}`;

/** What the walk's own setup made, so every state it must see is there whatever ran before it. */
type Seeded = { submitted: string; failedExport: string; failedJob: string };

/**
 * A failed export as a restart leaves one (as e2e/export-restart.spec.ts): another studio process on
 * the same database and data folder starts an export and is killed mid-way; the server records it as
 * failed with its stored message. Its id.
 */
async function failedExport(admin: APIRequestContext): Promise<string> {
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("lib/server/testing/export-child.ts"), "web"], {
    env: { ...process.env, STUDIO_DATA_DIR: e2eDataDir, DATABASE_URL: e2eDatabaseUrl },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (l) => l === "exporting" && resolve());
    child.on("exit", (code) => reject(new Error(`export child exited (${code}) before exporting`)));
  });
  type Exports = { exports: { id: string; state: string }[] };
  const running = (await getJson<Exports>(admin, "/api/exports")).exports.find((e) => e.state === "running");
  expect(running, "the other process's export is running").toBeTruthy();
  await new Promise<void>((resolve) => {
    child.on("exit", () => resolve());
    child.kill("SIGKILL");
  });
  await expect
    .poll(async () => (await getJson<Exports>(admin, "/api/exports")).exports.find((e) => e.id === running!.id)?.state, {
      timeout: 180_000,
    })
    .toBe("failed");
  return running!.id;
}

/**
 * Through the studio's own API: two trajectories with Chinese data in their own project; one
 * annotated (words changed, so the review shows a diff) and submitted, so a review page is visited;
 * a model endpoint that answers every request with an error and a pre-annotation job it stops (its
 * stored error); a failed export. The audit trail then holds steps, tasks and people.
 */
async function seed(baseURL: string): Promise<{ seeded: Seeded; fake: FakeModelServer }> {
  const context = (role: DemoRole) =>
    playwrightRequest.newContext({ baseURL, storageState: storageStateFor(role), extraHTTPHeaders: { origin: baseURL } });
  const admin = await context("admin");
  const annotator = await context("annotator");
  const fake = await startFakeModelServer();
  try {
    const [toSubmit, toPrefill] = await importTrajectories(admin, `zh${RUN}`, [
      { goal: `打开设置，开启飞行模式（${RUN}）`, app: "设置", steps: 3 },
      { goal: `在微信里给张三发“明天见”（${RUN}）`, app: "微信", steps: 7 },
    ]);
    await assignTo(admin, [toSubmit!], "annotator@studio.local");
    // The first step's words changed before the rest, so the review's diff has something in it.
    const first = (await getJson<TrajectoryView>(annotator, `/api/trajectories/${toSubmit}`)).steps[0]!;
    await saveStep(annotator, first, "点击“设置”图标");
    await annotateAndSubmit(annotator, toSubmit!, "success");

    fake.setMode({ mode: "fail" });
    const settings = await admin.put("/api/model/settings", {
      data: { baseUrl: fake.baseUrl, model: "fake-qwen-vl-zh", concurrency: 1, timeoutMs: 2_000 },
    });
    expect(settings.status(), await settings.text()).toBe(200);
    const started = await admin.post("/api/model/jobs", { data: { kind: "prefill", trajectoryIds: [toPrefill] } });
    expect(started.status(), await started.text()).toBe(202);
    const jobId = ((await started.json()) as { job: { id: string } }).job.id;
    type Jobs = { jobs: { id: string; state: string }[] };
    await expect
      .poll(async () => (await getJson<Jobs>(admin, "/api/model/jobs")).jobs.find((j) => j.id === jobId)?.state, { timeout: 180_000 })
      .toBe("failed");

    return { seeded: { submitted: toSubmit!, failedExport: await failedExport(admin), failedJob: jobId }, fake };
  } catch (e) {
    await fake.close();
    throw e;
  } finally {
    await admin.dispose();
    await annotator.dispose();
  }
}

test.describe("the Chinese UI, every page", () => {
  let seeded: Seeded;
  let fake: FakeModelServer | undefined;
  test.beforeAll(async ({ browser, baseURL }) => {
    test.setTimeout(600_000);
    ({ seeded, fake } = await seed(baseURL!));
    for (const role of ROLES) {
      const { context } = await asRole(browser, baseURL!, role);
      await setLocale(context.request, baseURL!, "zh");
      await context.close();
    }
  });
  test.afterAll(async ({ browser, baseURL }) => {
    await fake?.close();
    for (const role of ROLES) {
      const { context } = await asRole(browser, baseURL!, role);
      await setLocale(context.request, baseURL!, "en");
      await context.close();
    }
  });

  test("no English sentence and one date style on any page, for every role @storage", async ({ browser, baseURL }, testInfo) => {
    // Whatever other specs left in the database is walked too: their data must be marked as data, their stored
    // messages worded. The states the walk must see are made by its own setup (seed), never assumed.
    test.setTimeout(1_200_000);
    const walk: Walk = { found: [], dates: [], visited: [], untranslated: new Set() };

    // Admin: every page, and the states that open on demand.
    {
      const { context, page } = await asRole(browser, baseURL!, "admin");
      const trajectories = (await (await context.request.get("/api/trajectories?pageSize=50")).json()) as {
        rows: { id: string; status: string }[];
      };
      const anyId = trajectories.rows[0]?.id;
      expect(anyId, "the demo has trajectories").toBeTruthy();
      for (const url of [
        "/",
        "/trajectories",
        "/import",
        "/export",
        "/dashboard",
        "/admin",
        "/admin/people",
        "/admin/audit",
        "/admin/model",
        "/admin/projects",
        "/admin/snapshots",
        "/account",
        "/reviews",
        "/forbidden",
      ])
        await visit(page, url, walk, `admin ${url}`);
      await visit(page, `/trajectories/${anyId}`, walk, "admin /trajectories/[id]");
      await visit(page, `/reviews/${seeded.submitted}`, walk, "admin /reviews/[id]");
      // The review shows the annotator's change as a diff, and the outcome in words.
      await expect(page.locator("ins").first()).toBeVisible();
      await expect(page.getByText("结果：成功")).toBeVisible();

      // Stored messages in the reader's language: the export a restart failed, the model job its endpoint stopped.
      await page.goto("/export");
      await expect(page.getByText("运行此导出的工作室进程已停止").first()).toBeVisible();
      await collect(page, "admin /export (a failed export)", walk);
      await page.goto("/admin/model");
      await expect(page.getByTestId(`model-job-${seeded.failedJob}`)).toContainText("连续失败 5 次后已停止");
      await collect(page, "admin /admin/model (a stopped job)", walk);

      // The model page's connection test against the endpoint the setup saved, which answers with an error: worded too.
      await page.goto("/admin/model");
      const testButton = page.getByRole("button", { name: "测试连接" });
      await expect(testButton).toBeEnabled();
      await testButton.click();
      await page.getByRole("status").or(page.getByRole("alert")).first().waitFor();
      await collect(page, "admin /admin/model (tested)", walk);

      // An import with problems.
      const { jsonl, images } = await makeBrokenJsonl(testInfo.outputPath("broken"));
      await page.goto("/import");
      await page.locator('input[type="file"]').setInputFiles([jsonl, ...images]);
      await page
        .locator("select")
        .filter({ has: page.locator('option[value="ui-s1"]') })
        .selectOption("ui-s1");
      await page.locator('form button[type="submit"]').click();
      await expect(page.getByRole("table").filter({ hasText: "broken.jsonl" }).first()).toBeVisible({ timeout: 30_000 });
      // Each problem in Chinese, its values (file names, the parser's detail) as data.
      await expect(page.getByRole("table", { name: "列出的全部问题" }).getByText("找不到截图文件：").first()).toBeVisible();
      await expect(page.getByRole("table", { name: "列出的全部问题" }).getByText("JSON 格式损坏：")).toBeVisible();
      await collect(page, "admin /import (problems)", walk);
      await context.close();
    }

    // Reviewer: the queue and a review.
    {
      const { context, page } = await asRole(browser, baseURL!, "reviewer");
      await visit(page, "/reviews", walk, "reviewer /reviews");
      await visit(page, `/reviews/${seeded.submitted}`, walk, "reviewer /reviews/[id]");
      await visit(page, "/dashboard", walk, "reviewer /dashboard");
      await visit(page, "/admin", walk, "reviewer /admin (forbidden)");
      await context.close();
    }

    // Annotator: tasks, the editor with its help and its submit list.
    {
      const { context, page } = await asRole(browser, baseURL!, "annotator");
      await visit(page, "/tasks", walk, "annotator /tasks");
      const tasks = (await (await context.request.get("/api/tasks")).json()) as { tasks: { id: string; status: string }[] };
      const task =
        tasks.tasks.find((t) => t.status === "in_progress" || t.status === "assigned" || t.status === "returned") ?? tasks.tasks[0];
      expect(task, "the demo annotator has work").toBeTruthy();
      await visit(page, `/trajectories/${task!.id}`, walk, "annotator editor");
      await page.keyboard.press("?");
      await expect(page.getByRole("dialog")).toBeVisible();
      await collect(page, "annotator editor (help)", walk);
      await page.keyboard.press("Escape");
      const submit = page.getByRole("button", { name: /^提交/ }).first();
      if ((await submit.isVisible()) && (await submit.isEnabled())) {
        await submit.click();
        await collect(page, "annotator editor (submit list)", walk);
      }
      await visit(page, "/account", walk, "annotator /account");
      await visit(page, "/export", walk, "annotator /export (forbidden)");
      await context.close();
    }

    const report = (list: Found[]) => list.map((f) => `${f.page} · ${f.where}: ${f.text}`).join("\n");
    await testInfo.attach("visited", { body: walk.visited.join("\n") });
    expect([...walk.untranslated], "text marked untranslated").toEqual([]);
    expect(walk.visited.length).toBeGreaterThanOrEqual(24);
    expect(
      `${report(walk.found)}\n---\n${report(walk.dates)}`,
      "Latin-script words outside data and the allowed names --- dates not written 2026年11月25日 23:50",
    ).toBe("\n---\n");
  });

  test("the Chinese editor draws its words with the bundled font, on a machine without a CJK font too @storage", async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(300_000);
    const shots = process.env.ZH_SHOTS_DIR ?? path.resolve(".tmp/zh-walk");
    mkdirSync(shots, { recursive: true });
    const { context, page } = await asRole(browser, baseURL!, "annotator");
    const tasks = (await (await context.request.get("/api/tasks")).json()) as { tasks: { id: string }[] };
    const id = tasks.tasks[0]!.id;
    // Before: the font blocked, as on a build without it (this machine has no CJK font: tofu).
    await page.route("**/fonts/studio-ui-sc-*.woff2", (r) => r.abort());
    await page.goto(`/trajectories/${id}`);
    await page.locator(".instruction-title").waitFor();
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: path.join(shots, "editor-1440x900-without-bundled-font.png") });
    await page.unrouteAll();
    await page.goto(`/trajectories/${id}`);
    await page.locator(".instruction-title").waitFor();
    await page.waitForLoadState("networkidle");
    await page.evaluate(() => document.fonts.ready);
    const faces = await page.evaluate(() =>
      [...document.fonts].filter((f) => f.family.replace(/"/g, "") === "Studio UI SC").map((f) => `${f.weight}:${f.status}`),
    );
    expect(faces, "the bundled faces the page used").toContain("100 549:loaded");
    const family = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
    expect(family.split(",")[0]?.replace(/"/g, "").trim()).toBe("Studio UI SC");
    await page.screenshot({ path: path.join(shots, "editor-1440x900-with-bundled-font.png") });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: path.join(shots, "editor-1280x720-with-bundled-font.png") });
    await context.close();
  });
});
