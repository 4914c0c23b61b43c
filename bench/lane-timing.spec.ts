import { writeFile } from "node:fs/promises";
import os from "node:os";
import type { Page } from "@playwright/test";
import { isOneSentence } from "@/lib/domain/annotation";
import { isPointInBox } from "@/lib/domain/geometry";
import type { DraftTrajectory } from "@/lib/demo/flows";
import { storageStateFor } from "../e2e/accounts";
import { expect as baseExpect, test } from "../e2e/fixtures";
import { demoDraft, seedDemoProjects } from "../e2e/lane-seed";
import { EditorPage } from "../e2e/pages/editor-page";

// Issue 24 item 5: the first-error fast lane measured against full correction on the same 10 demo trajectories, by
// the same scripted person. The person knows where the model went wrong (the demo generator's own truth,
// `isMistake`), and works each trajectory twice, in two copies of the data (two projects):
// - fast lane: → to each step up to the first mistake (or the last step), E on it (Shift+E when there is none), the
//   outcome, Ctrl+Enter;
// - full correction: every step judged (G), a mistaken tap moved onto its target (one click on the canvas, C), a
//   mistaken thought rewritten in its "next action" field (click, Ctrl+A, the words typed, a click on "Corrected"),
//   J to the next step, the outcome, Ctrl+Enter.
// Each key press and click is counted; wall time runs from the loaded editor to the server's answer to the hand-in.
// A benchmark, not a browser test: `npm run bench` runs it (bench/lane-timing.config.ts, against the bench's own
// build and port) and prints its figures with the others; the figures go to BENCH_LANE_OUT (bench/out/lane-timing.json
// from the bench, else the test's output), and the README reports the ratio from there.

const expect = baseExpect.configure({ timeout: 20_000 });
// An action that cannot happen fails within a minute instead of waiting for the whole run's limit.
test.use({ storageState: storageStateFor("annotator"), viewport: { width: 1440, height: 900 }, actionTimeout: 60_000 });

const COUNT = 10;
const RUN = `${Date.now()}`;

type Figures = { trajectory: number; steps: number; firstMistake: number | null; keys: number; clicks: number; ms: number };

/** One scripted person's hands: every key and click goes through here and is counted. */
function hands(page: Page) {
  const n = { keys: 0, clicks: 0 };
  return {
    n,
    press: async (key: string) => {
      n.keys += 1;
      await page.keyboard.press(key);
    },
    type: async (text: string) => {
      // One key press per character, as a person types it.
      n.keys += [...text].length;
      await page.keyboard.type(text);
    },
    click: async (target: { click: (o?: { force?: boolean }) => Promise<void> } | [number, number]) => {
      n.clicks += 1;
      if (Array.isArray(target)) await page.mouse.click(target[0], target[1]);
      // A click where the person clicks (a verdict's radio is drawn by its label: the press lands on the label).
      else await target.click({ force: true });
    },
  };
}

const firstMistakeOf = (d: DraftTrajectory) => {
  const k = d.steps.findIndex((s) => s.isMistake);
  return k < 0 ? null : k;
};

async function fastLane(page: Page, id: string, draft: DraftTrajectory, shots?: string): Promise<Omit<Figures, "trajectory">> {
  const editor = new EditorPage(page);
  await page.goto(`/trajectories/${id}?lane=fast`);
  await editor.waitForScreenshot();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const h = hands(page);
  const start = Date.now();
  const k = firstMistakeOf(draft);
  const until = k ?? draft.steps.length - 1;
  for (let i = 0; i < until; i++) await h.press("ArrowRight");
  await h.press(k === null ? "Shift+E" : "e");
  await h.press("Shift+S");
  // Screenshots are not the person's work: the time they take is left out, measured around them.
  let shotMs = 0;
  if (shots) {
    const before = Date.now();
    await page.screenshot({ path: `${shots}-1440x900.png` });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: `${shots}-1280x720.png` });
    await page.setViewportSize({ width: 1440, height: 900 });
    shotMs = Date.now() - before;
  }
  await h.press("Control+Enter");
  await expect(page.getByRole("region", { name: "First-error fast lane" }).getByText(/^Handed in through the fast lane/)).toBeVisible();
  return { steps: draft.steps.length, firstMistake: k, ...h.n, ms: Date.now() - start - shotMs };
}

async function fullCorrection(page: Page, id: string, draft: DraftTrajectory): Promise<Omit<Figures, "trajectory">> {
  const editor = new EditorPage(page);
  await editor.goto(id);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const h = hands(page);
  const start = Date.now();
  const form = page.getByRole("complementary", { name: "Step annotation" });
  for (const [i, step] of draft.steps.entries()) {
    await editor.expectStep(i + 1);
    const call = step.call;
    if (!step.isMistake) await h.press("g");
    else if ((call.action === "click" || call.action === "long_press") && step.bbox && !isPointInBox(call.coordinate, step.bbox)) {
      // A tap beside or on the wrong element: put the point on the right one, then say it was corrected.
      const [x1, y1, x2, y2] = step.bbox;
      await h.click(await editor.toScreen([(x1 + x2) / 2, (y1 + y2) / 2]));
      await h.press("c");
    } else {
      // The right action with the wrong reasoning: rewrite what the thought says comes next.
      await h.click(editor.field("Next action"));
      await h.press("Control+A");
      await h.type(step.subtask);
      await h.click(form.getByRole("radio", { name: /^Corrected/ }));
    }
    // A clear action the import left as two sentences (a typed message ending in "！" inside it) blocks a submit:
    // the person rewrites it as one (the whole text retyped, each character counted).
    const clear = (await editor.current()).clearAction;
    if (!isOneSentence(clear)) {
      await h.click(editor.field("Clear action"));
      await h.press("Control+A");
      await h.type(`${clear.replace(/[。！？!?.]/g, "")}。`);
    }
    if (i < draft.steps.length - 1) {
      // Out of the text field first (keys type there), onto the step's verdict where it was.
      if (!isOneSentence(clear)) await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await h.press("j");
    }
  }
  await h.press("Shift+S");
  await h.press("Control+Enter");
  await expect(page.getByRole("status", { name: /^Submitted for review/ })).toBeVisible();
  return { steps: draft.steps.length, firstMistake: firstMistakeOf(draft), ...h.n, ms: Date.now() - start };
}

test("the fast lane against full correction on the same 10 demo trajectories: key presses, clicks and wall time", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(1_800_000);
  const [fast, full] = await seedDemoProjects(baseURL!, test.info().outputPath("seed"), COUNT, [
    { name: `lane-timing-fast-${RUN}`, fastLaneAfter: "cut" },
    { name: `lane-timing-full-${RUN}`, fastLaneAfter: "cut" },
  ]);

  const rows: { fast: Figures; full: Figures }[] = [];
  for (let i = 0; i < COUNT; i++) {
    const draft = demoDraft(i);
    const f = await fastLane(page, fast!.trajectories[i]!, draft, i === 0 ? test.info().outputPath("fast-lane") : undefined);
    const c = await fullCorrection(page, full!.trajectories[i]!, draft);
    rows.push({ fast: { trajectory: i + 1, ...f }, full: { trajectory: i + 1, ...c } });
    // Each pair as it is measured, so a run cut short still leaves its figures.
    await writeFile(test.info().outputPath("lane-timing-rows.json"), `${JSON.stringify(rows, null, 2)}\n`);
    console.log(`trajectory ${i + 1}: fast ${JSON.stringify(f)} full ${JSON.stringify(c)}`);
  }
  const sum = (lane: "fast" | "full", k: "keys" | "clicks" | "ms") => rows.reduce((n, r) => n + r[lane][k], 0);
  const actions = (lane: "fast" | "full") => sum(lane, "keys") + sum(lane, "clicks");
  const totals = {
    trajectories: COUNT,
    steps: rows.reduce((n, r) => n + r.fast.steps, 0),
    withMistake: rows.filter((r) => r.fast.firstMistake !== null).length,
    fast: { keys: sum("fast", "keys"), clicks: sum("fast", "clicks"), ms: sum("fast", "ms") },
    full: { keys: sum("full", "keys"), clicks: sum("full", "clicks"), ms: sum("full", "ms") },
    actionRatio: Math.round((actions("full") / actions("fast")) * 100) / 100,
    timeRatio: Math.round((sum("full", "ms") / sum("fast", "ms")) * 100) / 100,
    machine: { cpus: os.cpus().length, loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100) },
  };
  const report = { totals, rows };
  const file = process.env.BENCH_LANE_OUT ?? test.info().outputPath("lane-timing.json");
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  await test.info().attach("lane-timing.json", { path: file, contentType: "application/json" });
  console.log(`fast lane vs full correction: ${JSON.stringify(totals)}`);
  // The point of the lane: fewer actions for every trajectory, and less time overall.
  for (const r of rows) expect(r.fast.keys + r.fast.clicks, `trajectory ${r.fast.trajectory}`).toBeLessThan(r.full.keys + r.full.clicks);
  expect(totals.fast.ms).toBeLessThan(totals.full.ms);
});
