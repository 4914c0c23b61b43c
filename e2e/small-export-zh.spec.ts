import { mkdirSync } from "node:fs";
import path from "node:path";
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { storageStateFor } from "./accounts";
import { importTrajectories } from "./model-seed";
import { expect, test } from "./fixtures";

// Issue 36 item 4: the export page in Chinese has no English left: what a person reads (text, labels,
// titles, placeholders, the tab's title) outside data (names people gave, commands, paths) is Chinese.

/** Names, formats and tools a Chinese sentence keeps in Latin letters, as the Chinese page walk allows them. */
const KEPT = new Set(["JSON", "JSONL", "Mobile-R1", "manifest", "json", "data", "jsonl", "Ctrl", "Trajectory", "Studio", "ms-swift"]);
const KEPT_PHRASES = [
  "Mobile-R1",
  "LLaMA-Factory",
  "verl",
  "GRPO",
  "allow-unreviewed",
  "max_pixels",
  "token",
  "random:42:0.9,0.1",
  "by-app:WeChat",
];

async function setLocale(request: APIRequestContext, baseURL: string, locale: "en" | "zh") {
  const res = await request.patch("/api/me", { data: { locale }, headers: { origin: baseURL } });
  expect(res.status(), await res.text()).toBe(200);
}

test("the export page in Chinese speaks Chinese @storage", async ({ page, request, baseURL }) => {
  test.setTimeout(240_000);
  // A small export of its own, so the list of finished exports (counts, folder, trainer commands) is read too.
  const run = Date.now().toString(36);
  const admin = await playwrightRequest.newContext({
    baseURL,
    storageState: storageStateFor("admin"),
    extraHTTPHeaders: { origin: baseURL! },
  });
  await importTrajectories(admin, `exp${run}`, [{ goal: `export zh ${run}`, app: `Exp${run}`, steps: 2 }]);
  const started = await admin.post("/api/exports", { data: { status: "all", project: `model-e2e-exp${run}` } });
  expect(started.status(), await started.text()).toBeLessThan(300);
  await setLocale(request, baseURL!, "zh");
  try {
    await page.goto("/export");
    await expect(page.getByRole("heading", { name: "导出数据集" })).toBeVisible();
    // The finished export lists its counts (the one just started, once it is done).
    await expect(page.getByRole("list", { name: "导出记录" }).getByRole("listitem").first()).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole("form", { name: /导出/ })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expect(page).toHaveTitle(/导出/);
    const texts = await page.getByRole("main").evaluate((main) => {
      const out: string[] = [];
      const EXCLUDED = '[data-i18n="data"], code, kbd, pre';
      const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (el && !el.closest(EXCLUDED) && n.textContent?.trim()) out.push(n.textContent.trim());
      }
      for (const el of main.querySelectorAll("[aria-label], [title], [placeholder]"))
        if (!el.closest(EXCLUDED))
          for (const a of ["aria-label", "title", "placeholder"]) if (el.getAttribute(a)) out.push(el.getAttribute(a)!);
      return out;
    });
    const english = texts
      .map((t) => KEPT_PHRASES.reduce((acc, p) => acc.split(p).join(" "), t))
      // An export's id (its folder's name, 20261207T235701Z-all) names the entry: data, not a word.
      .map((t) => t.replace(/\b\d{8}T\d{6}Z[\w-]*/g, " ").replace(/UI.S1/g, " "))
      .flatMap((t) => (t.match(/[A-Za-z][A-Za-z'-]{2,}/g) ?? []).filter((w) => !KEPT.has(w)).map((w) => `${w} in “${t}”`));
    expect(english).toEqual([]);
    // The trainer's note about where to run UI-S1 rows is a sentence, not a line of settings in English.
    await expect(page.getByText(/run from/i)).toHaveCount(0);
    await expect(page.getByText(/请在 .* 下运行/).first()).toBeVisible();
    const shots = process.env.STUDIO_SHOTS;
    if (shots) {
      mkdirSync(shots, { recursive: true });
      for (const size of [
        { width: 1280, height: 720 },
        { width: 1440, height: 900 },
      ]) {
        await page.setViewportSize(size);
        await page.screenshot({ path: path.join(shots, `export-zh-${size.width}x${size.height}.png`), fullPage: true });
      }
    }
  } finally {
    await setLocale(request, baseURL!, "en");
  }
  const shots = process.env.STUDIO_SHOTS;
  if (shots) {
    await page.goto("/export");
    await expect(page.getByRole("heading", { name: "Export a dataset" })).toBeVisible();
    await page.waitForLoadState("networkidle");
    for (const size of [
      { width: 1280, height: 720 },
      { width: 1440, height: 900 },
    ]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: path.join(shots, `export-en-${size.width}x${size.height}.png`), fullPage: true });
    }
  }
});
