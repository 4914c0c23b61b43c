import { mkdirSync } from "node:fs";
import path from "node:path";
import { request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { formatNumber } from "@/lib/i18n/format";
import { expect, test } from "./fixtures";
import { storageStateFor } from "./accounts";
import { annotatorContext, seedAnnotatorTask } from "./layout-seed";
import { importTrajectories } from "./model-seed";
import { EditorPage } from "./pages/editor-page";

// Issue 36: the smaller things a daily user trips over. The list's tiles follow its filters, the canvas's
// marks never hide a small target, the keyboard help scrolls visibly at 1280x720, the audit trail reads
// in words, and the dashboard keeps unreviewed steps apart. Each page is also photographed at 1280x720
// and 1440x900 in both languages (STUDIO_SHOTS, when set) for a person to look at.

const SHOTS = process.env.STUDIO_SHOTS;
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;

async function setLocale(request: APIRequestContext, baseURL: string, locale: "en" | "zh") {
  const res = await request.patch("/api/me", { data: { locale }, headers: { origin: baseURL } });
  expect(res.status(), await res.text()).toBe(200);
}

/** The demo admin over HTTP with this studio's origin, as the seed helpers' uploads need. */
async function adminRequest(baseURL: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, storageState: storageStateFor("admin"), extraHTTPHeaders: { origin: baseURL } });
}

/** A page still loading may take long on a busy machine. */
const SLOW = { timeout: 60_000 };

// Each test also photographs its pages at two sizes in two languages: more than the default minute on a busy machine.
test.describe.configure({ timeout: 240_000 });

/** Photograph the page at both sizes (only when STUDIO_SHOTS names a folder), after `ready` holds at each. */
async function shoot(page: Page, name: string, ready: () => Promise<void>) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await ready();
    await page.screenshot({ path: path.join(SHOTS, `${name}-${size.width}x${size.height}.png`) });
  }
  await page.setViewportSize(SIZES[0]);
}

test("the list's tiles count what its filters keep, on every page of it", async ({ page, request, baseURL }) => {
  const run = Date.now().toString(36);
  const admin = await adminRequest(baseURL!);
  await importTrajectories(admin, run, [
    { goal: `tiles ${run} first`, app: `TilesA${run}`, steps: 2 },
    { goal: `tiles ${run} second`, app: `TilesA${run}`, steps: 3 },
    { goal: `tiles ${run} third`, app: `TilesB${run}`, steps: 4 },
  ]);
  const tiles = page.getByRole("list", { name: "Counts of the filtered list" });
  await page.goto(`/trajectories?q=${encodeURIComponent(`tiles ${run}`)}`);
  await expect(page.getByText("3 matching")).toBeVisible(SLOW);
  for (const name of ["Trajectories: 3", "Steps: 9", "Apps: 2", "New: 3", "Approved: 0"])
    await expect(tiles.getByRole("listitem", { name })).toBeVisible();

  await page.goto(`/trajectories?q=${encodeURIComponent(`tiles ${run}`)}&app=TilesA${run}`);
  await expect(page.getByText("2 matching")).toBeVisible(SLOW);
  for (const name of ["Trajectories: 2", "Steps: 5", "Apps: 1", "New: 2"])
    await expect(tiles.getByRole("listitem", { name })).toBeVisible();

  // Unfiltered, the tiles say the whole studio again (the tile list's name says so too).
  await page.goto("/trajectories");
  const all = (await (await request.get("/api/stats")).json()) as { trajectories: number };
  await expect(page.getByRole("list", { name: "Counts" }).getByRole("listitem", { name: `Trajectories: ${all.trajectories}` })).toBeVisible(
    SLOW,
  );

  for (const locale of ["en", "zh"] as const) {
    await setLocale(request, baseURL!, locale);
    try {
      await page.goto(`/trajectories?q=${encodeURIComponent(`tiles ${run}`)}&app=TilesA${run}`);
      await shoot(page, `list-${locale}`, () => expect(page.getByRole("table")).toBeVisible());
    } finally {
      await setLocale(request, baseURL!, "en");
    }
  }
});

/** The colour the stage drew at a stage pixel (CSS pixels from its top-left), every layer composited. */
async function pixelAt(page: Page, [x, y]: [number, number]): Promise<[number, number, number]> {
  return page
    .getByRole("region", { name: "Screenshot" })
    .locator(".step-canvas-stage")
    .evaluate(
      (host, [px, py]) => {
        type KStage = { container: () => HTMLElement; toCanvas: (o: { pixelRatio: number }) => HTMLCanvasElement };
        const stage = (window as unknown as { Konva: { stages: KStage[] } }).Konva.stages.find((s) => host.contains(s.container()))!;
        const d = stage.toCanvas({ pixelRatio: 1 }).getContext("2d")!.getImageData(Math.round(px), Math.round(py), 1, 1).data;
        return [d[0]!, d[1]!, d[2]!] as [number, number, number];
      },
      [x, y] as [number, number],
    );
}

const BLUE: [number, number, number] = [0x33, 0x66, 0xcc];
const near = (a: [number, number, number], b: [number, number, number]) => Math.max(...a.map((v, i) => Math.abs(v - b[i]!)));

test.describe("the annotator's editor at 1280x720", () => {
  test("the tap and the box's handles are outlines: the screenshot shows through where they sit", async ({ browser, request, baseURL }) => {
    const t = await seedAnnotatorTask(request, baseURL!, "marks", [
      { args: { action: "click", coordinate: [540, 1200] }, colour: "#3366cc" },
      { args: { action: "terminate", status: "success" }, colour: "#33aa66" },
    ]);
    const context = await annotatorContext(browser, baseURL!);
    const page = await context.newPage();
    try {
      const editor = new EditorPage(page);
      await editor.goto(t.id, 1);
      await editor.canvas.waitForScreenshot();
      await editor.tapAt([540, 1200]);
      await editor.drawBox([340, 1000, 740, 1400]);
      await expect.poll(async () => (await editor.canvas.drawn()).handles).toBe(8);
      const tap = await editor.canvas.toStage([540, 1200]);
      const corner = await editor.canvas.toStage([340, 1000]);
      // The tapped pixel itself, and a pixel inside the correction's ring: the screenshot's blue, untinted.
      expect(near(await pixelAt(page, tap), BLUE), "the tap's centre").toBeLessThan(14);
      expect(near(await pixelAt(page, [tap[0] + 5, tap[1] + 5]), BLUE), "inside the tap's ring").toBeLessThan(14);
      // The box's handles are hollow squares (a handle is too small to sample between its line and the box's).
      const handleFills = await page
        .getByRole("region", { name: "Screenshot" })
        .locator(".step-canvas-stage")
        .evaluate((host) => {
          type KNode = { getAttr: (k: string) => unknown };
          type KStage = { container: () => HTMLElement; find: (sel: string) => KNode[] };
          const stage = (window as unknown as { Konva: { stages: KStage[] } }).Konva.stages.find((st) => host.contains(st.container()))!;
          return stage.find(".box-handle").map((h) => h.getAttr("fill") ?? null);
        });
      expect(handleFills).toEqual(Array(8).fill(null));
      // Inside the box: no tint over the element.
      expect(near(await pixelAt(page, [corner[0] + 12, corner[1] + 12]), BLUE), "inside the box").toBeLessThan(14);
      for (const locale of ["en", "zh"] as const) {
        await setLocale(page.request, baseURL!, locale);
        try {
          await editor.goto(t.id, 1);
          await shoot(page, `editor-${locale}`, () => editor.waitForScreenshot());
        } finally {
          await setLocale(page.request, baseURL!, "en");
        }
      }
    } finally {
      await context.close();
    }
  });

  test("the keyboard help scrolls under its title, says more is below, and every row can be reached", async ({
    browser,
    request,
    baseURL,
  }) => {
    const t = await seedAnnotatorTask(request, baseURL!, "help", [
      { args: { action: "click", coordinate: [540, 1200] }, colour: "#3366cc" },
    ]);
    const context = await annotatorContext(browser, baseURL!);
    const page = await context.newPage();
    try {
      const editor = new EditorPage(page);
      await editor.goto(t.id, 1);
      const open = async (title: string, list: string, more: string) => {
        await page.locator("body").press("Shift+Slash");
        const dialog = page.getByRole("dialog", { name: title });
        await expect(dialog).toBeVisible();
        return { dialog, list: dialog.getByRole("region", { name: list }), more: dialog.getByRole("button", { name: more }) };
      };
      const { dialog, list, more } = await open("Keyboard shortcuts", "All shortcuts (scrolls)", "More below: scroll down");
      // The dialog fits the window; the list inside it scrolls, and says so.
      const box = (await dialog.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(720);
      expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
      await expect(more).toBeVisible();
      const last = list.locator(".help-row").last();
      await expect(last).not.toBeInViewport({ ratio: 1 });
      // The cue scrolls the list; at its end the cue goes and the last row is wholly in view.
      for (let i = 0; i < 10 && (await more.isVisible()); i++) await more.click();
      await expect(more).toBeHidden();
      await expect(last).toBeInViewport({ ratio: 1 });
      await expect(dialog.getByRole("heading", { name: "Keyboard shortcuts" })).toBeInViewport();
      await page.keyboard.press("Escape");

      for (const [locale, title, listName, moreName] of [
        ["en", "Keyboard shortcuts", "All shortcuts (scrolls)", "More below: scroll down"],
        ["zh", "键盘快捷键", "全部快捷键（可滚动）", "下方还有更多：请向下滚动"],
      ] as const) {
        await setLocale(page.request, baseURL!, locale);
        try {
          await editor.goto(t.id, 1);
          const help = await open(title, listName, moreName);
          await shoot(page, `help-${locale}`, () => expect(help.dialog).toBeVisible());
        } finally {
          await setLocale(page.request, baseURL!, "en");
        }
      }
    } finally {
      await context.close();
    }
  });
});

test("the audit trail names actions and fields in the person's language, with figures formatted and no ids", async ({
  page,
  request,
  baseURL,
}) => {
  const run = Date.now().toString(36);
  const admin = await adminRequest(baseURL!);
  await importTrajectories(admin, `audit${run}`, [{ goal: `audit ${run}`, app: `Audit${run}`, steps: 2 }]);
  for (const [locale, action, field] of [
    ["en", "Import written", "trajectories: 1"],
    ["zh", "导入写入", "轨迹数: 1"],
  ] as const) {
    await setLocale(request, baseURL!, locale);
    try {
      await page.goto("/admin/audit?action=import.batch");
      const row = page.getByRole("row").filter({ hasText: `model-audit${run}.zip` });
      await expect(row).toHaveCount(1, SLOW);
      await expect(row.getByRole("cell").nth(2)).toHaveText(action);
      await expect(row).toContainText(field);
      const table = await page.getByRole("table").innerText();
      expect(table, "no raw float").not.toMatch(/\d\.\d{4,}/);
      expect(table, "no record id").not.toMatch(/\bc[a-z0-9]{20,}\b/);
      expect(table, "no raw action").not.toContain("import.batch");
      await shoot(page, `audit-${locale}`, () => expect(row).toBeVisible());
    } finally {
      await setLocale(request, baseURL!, "en");
    }
  }
});

test.describe("the dashboard, as a reviewer", () => {
  test.use({ storageState: storageStateFor("reviewer") });

  test("shows steps without a verdict apart from the verdict chart", async ({ page, baseURL }) => {
    const dash = (await (await page.request.get("/api/dashboard")).json()) as { verdicts: Record<string, number> };
    for (const [locale, region, note, unreviewed, noneYet] of [
      ["en", "Step verdicts", /steps? ha(s|ve) no verdict yet \(kept out of the chart\)/, "unreviewed", "No step has a verdict yet"],
      ["zh", "步骤判定", /个步骤尚无判定（不计入图表）/, "未判定", "还没有步骤有判定"],
    ] as const) {
      await setLocale(page.request, baseURL!, locale);
      try {
        await page.goto("/dashboard");
        const verdicts = page.getByRole("region", { name: region });
        await expect(verdicts.getByText(note)).toBeVisible(SLOW);
        await expect(verdicts).toContainText(formatNumber(dash.verdicts.unreviewed!, locale));
        // Which verdicts the chart draws (never "unreviewed") is proven over the chart's data in
        // lib/domain/dashboard.test.ts; here: the note stands apart, or the "none yet" line when nobody judged.
        const judged = Object.entries(dash.verdicts).reduce((n, [v, c]) => (v === "unreviewed" ? n : n + c), 0);
        const drawn = () => expect(judged > 0 ? verdicts.getByText(note) : verdicts.getByText(noneYet)).toBeVisible(SLOW);
        await drawn();
        await expect(verdicts.getByText(unreviewed, { exact: true })).toHaveCount(0);
        await shoot(page, `dashboard-${locale}`, drawn);
      } finally {
        await setLocale(page.request, baseURL!, "en");
      }
    }
  });
});
