import { mkdirSync } from "node:fs";
import path from "node:path";
import { request as playwrightRequest, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import type { TrajectoryView } from "@/lib/domain/views";
import { storageStateFor, type DemoRole } from "./accounts";
import { expect as baseExpect, test } from "./fixtures";
import { assignTo, getJson, importTrajectories, saveStep } from "./model-seed";
import { resetSettings } from "./layout-seed";

// Issue 21 items 5 and 7 on a laptop, in both languages, with Chinese data: the editor's header is two
// short lines whatever the instruction's length (one line of it, the rest on hover or click, laid over
// the canvas), the Chinese words of data are drawn with the bundled font in the English UI too (the
// State field and the bold instruction once showed empty boxes), and the editor, review and list pages
// are photographed at 1280x720 and 1440x900 for a person to look at (ZH3_SHOTS_DIR, else the test's output).

/** A busy machine (the suite beside other work) may take long over a page: waits get a minute, tests five. */
const expect = baseExpect.configure({ timeout: 60_000 });
test.describe.configure({ timeout: 300_000 });

const RUN = `${Date.now()}`;
const INSTRUCTION = `在“设置”应用中打开“显示与亮度”，把自动锁屏改为五分钟，再返回主屏幕确认设置已经保存（${RUN}）`;
const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;

let ids: { editing: string; submitted: string };

function context(baseURL: string, role: DemoRole): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, storageState: storageStateFor(role), extraHTTPHeaders: { origin: baseURL } });
}

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(180_000);
  const admin = await context(baseURL!, "admin");
  const annotator = await context(baseURL!, "annotator");
  const [editing, submitted] = await importTrajectories(admin, `words${RUN}`, [
    { goal: INSTRUCTION, app: "设置", steps: 3 },
    { goal: `在微信里给张三发“明天见”并确认已送达（${RUN}）`, app: "微信", steps: 3 },
  ]);
  await assignTo(admin, [editing!, submitted!], "annotator@studio.local");
  // Chinese words in the step form (the State field among them), as a Chinese annotator writes them.
  const first = (await getJson<TrajectoryView>(annotator, `/api/trajectories/${editing}`)).steps[0]!;
  await saveStep(annotator, first, "屏幕上是设置首页");
  const t = await getJson<TrajectoryView>(annotator, `/api/trajectories/${submitted}`);
  for (const s of t.steps) await saveStep(annotator, s, `第 ${s.index + 1} 步：点击目标`);
  const now = await getJson<TrajectoryView>(annotator, `/api/trajectories/${submitted}`);
  const outcome = await annotator.put(`/api/trajectories/${submitted}/annotation`, {
    data: { outcome: "success", isDiscarded: false, cutAfter: null, version: now.version },
  });
  expect(outcome.status(), await outcome.text()).toBe(200);
  const sent = await annotator.post(`/api/trajectories/${submitted}/submit`);
  expect(sent.status(), await sent.text()).toBe(200);
  ids = { editing: editing!, submitted: submitted! };
  await admin.dispose();
  await annotator.dispose();
});

test.afterAll(async ({ baseURL }) => {
  // Other specs read the English UI.
  for (const role of ["admin", "annotator"] as const) {
    const ctx = await context(baseURL!, role);
    await ctx.patch("/api/me", { data: { locale: "en" } });
    await ctx.dispose();
  }
});

const shotsDir = (fallback: string) => {
  const dir = process.env.ZH3_SHOTS_DIR ?? fallback;
  mkdirSync(dir, { recursive: true });
  return dir;
};

async function asRole(browser: Browser, baseURL: string, role: DemoRole, locale: "en" | "zh", viewport: { width: number; height: number }) {
  const ctx = await browser.newContext({ baseURL, viewport, storageState: storageStateFor(role) });
  const res = await ctx.request.patch("/api/me", { data: { locale }, headers: { origin: baseURL } });
  expect(res.status(), await res.text()).toBe(200);
  await resetSettings(ctx.request, baseURL);
  return ctx;
}

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready);
}

for (const locale of ["en", "zh"] as const) {
  test(`the editor's header stays two short lines and Chinese data is drawn with the bundled font (${locale} UI)`, async ({
    browser,
    baseURL,
  }, testInfo) => {
    const dir = shotsDir(testInfo.outputPath());
    const ctx = await asRole(browser, baseURL!, "annotator", locale, VIEWPORTS[0]);
    try {
      const page = await ctx.newPage();
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await page.goto(`/trajectories/${ids.editing}`);
        const title = page.locator(".editor-head .instruction-title");
        await expect(title).toHaveText(INSTRUCTION);
        await settle(page);
        await page.screenshot({ path: path.join(dir, `editor-${locale}-${viewport.width}x${viewport.height}.png`) });
        // One line of the instruction: the header no taller than its two short lines (it was ~108 px).
        const head = (await page.locator(".editor-head").boundingBox())!;
        expect(head.height, `header height at ${viewport.width}x${viewport.height}`).toBeLessThanOrEqual(64);
        expect(await title.evaluate((h) => h.scrollWidth > h.clientWidth)).toBe(true);
        await expect(title).toHaveAttribute("title", INSTRUCTION);
      }
      // Clicked, the whole instruction lies over the canvas: the stage does not move.
      const stage = page.locator(".step-canvas-stage").first();
      const before = await stage.boundingBox();
      await page.locator(".editor-head .instruction-title").click();
      await expect(page.locator(".editor-head .instruction-title")).toHaveAttribute("aria-expanded", "true");
      expect(await stage.boundingBox()).toEqual(before);
      await page.screenshot({ path: path.join(dir, `editor-${locale}-1440x900-instruction-open.png`) });
      await page.keyboard.press("Escape");

      // The Chinese words of the data (the bold instruction, the State field) use the bundled faces in either UI.
      await expect(page.getByRole("textbox", { name: /^(State|当前状态)/ }).first()).toHaveValue(/屏幕上是设置首页/);
      const faces = await page.evaluate(async () => {
        await document.fonts.ready;
        return [...document.fonts].filter((f) => f.family.replace(/"/g, "") === "Studio UI SC").map((f) => `${f.weight}:${f.status}`);
      });
      expect(faces, "the bold face (the instruction) and the regular one (the fields)").toEqual(
        expect.arrayContaining(["100 549:loaded", "550 900:loaded"]),
      );
      for (const sel of [".editor-head .instruction-title", "textarea"]) {
        const family = await page
          .locator(sel)
          .first()
          .evaluate((el) => getComputedStyle(el).fontFamily);
        expect(family, sel).toContain("Studio UI SC");
      }
    } finally {
      await ctx.close();
    }
  });

  test(`the review page and the trajectory list at both laptop sizes (${locale} UI)`, async ({ browser, baseURL }, testInfo) => {
    const dir = shotsDir(testInfo.outputPath());
    const ctx = await asRole(browser, baseURL!, "admin", locale, VIEWPORTS[0]);
    try {
      const page = await ctx.newPage();
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await page.goto(`/reviews/${ids.submitted}`);
        await expect(page.getByRole("article").first()).toBeVisible();
        await settle(page);
        await page.waitForTimeout(500);
        await page.screenshot({ path: path.join(dir, `review-${locale}-${viewport.width}x${viewport.height}.png`) });
        await page.goto("/trajectories");
        await expect(page.getByRole("table").first()).toBeVisible();
        await settle(page);
        await page.screenshot({ path: path.join(dir, `list-${locale}-${viewport.width}x${viewport.height}.png`) });
      }
    } finally {
      await ctx.close();
    }
  });
}
