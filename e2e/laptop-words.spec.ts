import { mkdirSync } from "node:fs";
import path from "node:path";
import { request as playwrightRequest, type APIRequestContext, type Browser, type Locator, type Page } from "@playwright/test";
import type { TrajectoryView } from "@/lib/domain/views";
import { storageStateFor, type DemoRole } from "./accounts";
import { expect as baseExpect, test } from "./fixtures";
import { assignTo, getJson, importTrajectories, saveStep } from "./model-seed";
import { resetSettings } from "./layout-seed";
import { StepCanvasPart } from "./pages/step-canvas";

// Issue 21 items 5 and 7 on a laptop, in both languages, with Chinese data: the editor's header is two
// short lines whatever the instruction's length (one line of it, the rest on hover or click, laid over
// the canvas), the Chinese words of data are drawn as words in the English UI too, whether or not the machine
// has a CJK font (the State field and the bold instruction once showed empty boxes), and the editor, review and list pages
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

/**
 * The characters of an element's text that are drawn as empty boxes ("tofu"): each character drawn on a canvas
 * with the element's own font (weight, size, family stack, so the same fallback the page takes) should look like
 * no other character and not like a code point no font has (U+10FFFD, always a box). `only` picks the characters
 * looked at (CJK ideographs unless told); `text` stands in for the element's own (the check's own control).
 */
async function boxesIn(el: Locator, { only = "[\\u3400-\\u9fff]", text: given }: { only?: string; text?: string } = {}): Promise<string[]> {
  return el.evaluate(
    async (node, { pattern, given }) => {
      await document.fonts.ready;
      const own = node instanceof HTMLTextAreaElement || node instanceof HTMLInputElement ? node.value : (node.textContent ?? "");
      const text = given ?? own;
      const chars = [...new Set([...text].filter((c) => new RegExp(pattern, "u").test(c)))];
      if (chars.length === 0) return ["(no such characters in the text)"];
      const style = getComputedStyle(node);
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 64;
      const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
      const draw = (c: string) => {
        ctx.clearRect(0, 0, 64, 64);
        ctx.font = `${style.fontStyle} ${style.fontWeight} 40px ${style.fontFamily}`;
        ctx.textBaseline = "top";
        ctx.fillText(c, 8, 8);
        return canvas.toDataURL();
      };
      const seen = new Map([[draw("\u{10FFFD}"), "(a box)"]]);
      const boxes: string[] = [];
      for (const c of chars) {
        const image = draw(c);
        if (seen.has(image)) boxes.push(`${c} drawn as ${seen.get(image)}`);
        else seen.set(image, c);
      }
      return boxes;
    },
    { pattern: only, given },
  );
}

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready);
}

for (const locale of ["en", "zh"] as const) {
  test(`the editor's header stays two short lines and Chinese data is drawn as words, not boxes (${locale} UI)`, async ({
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

      // The Chinese words of the data (the bold instruction, the State field) are drawn as words, not empty boxes, in
      // either UI: by the bundled font on a machine without a CJK font, by the system's where it has one.
      await expect(page.getByRole("textbox", { name: /^(State|当前状态)/ }).first()).toHaveValue(/屏幕上是设置首页/);
      expect(await boxesIn(page.locator(".editor-head .instruction-title")), "the bold instruction").toEqual([]);
      expect(await boxesIn(page.getByRole("textbox", { name: /^(State|当前状态)/ }).first()), "the State field").toEqual([]);
      // The check sees boxes where there are some: two code points no font has, in the instruction's font.
      const none = { text: "\u{10FFFB}\u{10FFFC}", only: "[\\u{10FFFB}\\u{10FFFC}]" };
      expect(await boxesIn(page.locator(".editor-head .instruction-title"), none)).toHaveLength(2);
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
        // The first step's screenshot drawn on its canvas before the photograph.
        await new StepCanvasPart(page, page.getByRole("article").first().locator(".step-canvas")).waitForScreenshot();
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
