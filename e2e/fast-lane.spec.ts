import { readFile } from "node:fs/promises";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { ACTION_TYPES } from "@/lib/domain/tool-call";
import type { TrajectoryView } from "@/lib/domain/views";
import { storageStateFor } from "./accounts";
import { expect as baseExpect, test } from "./fixtures";
import { demoDraft, exportProject, getJson, seedDemoProjects } from "./lane-seed";
import { EditorPage } from "./pages/editor-page";

// Issue 24 item 4: the first-error fast lane, end to end by keyboard alone in Chromium. The annotator opens a demo
// trajectory, switches the editor into the fast lane (Shift+L), plays it with →, marks the first error (E), corrects
// that step on the spot with an action key, sets the outcome (Shift+F) and hands it in (Ctrl+Enter). The labels must
// reach the export (lane "fast", cut after the mark) and `bridge prm` (+1 before, -1 at the mark, first_error).
// The spec seeds its own trajectory (a demo copy in its own project), so it passes alone and in any order.

const expect = baseExpect.configure({ timeout: 15_000 });
test.use({ storageState: storageStateFor("annotator"), viewport: { width: 1440, height: 900 } });

const RUN = `${Date.now()}`;
/** The demo line used: at least four steps, so there is a step before and after the mark. */
const LINE = Array.from({ length: 20 }, (_, i) => i).find((i) => demoDraft(i).steps.length >= 4)!;
/** The step marked as the first error (0-based). */
const MARK = 2;

test("fast lane by keyboard alone: play, mark the first error, correct it on the spot, hand in; the export and bridge prm carry its labels @storage", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const [project] = await seedDemoProjects(baseURL!, test.info().outputPath("seed"), LINE + 1, [
    { name: `fast-lane-${RUN}`, fastLaneAfter: "cut" },
  ]);
  const id = project!.trajectories[LINE]!;
  const before = await getJson<TrajectoryView>(request, `/api/trajectories/${id}`);
  const editor = new EditorPage(page);
  await editor.goto(id);

  // Keyboard alone from here on: no click, no mouse.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("Shift+L");
  const lane = page.getByRole("region", { name: "First-error fast lane" });
  await expect(lane).toBeVisible();
  // Only the marked step shows the step form: playing is looking, not editing.
  await expect(page.getByRole("complementary", { name: "Step annotation" })).toHaveCount(0);
  for (let i = 0; i < MARK; i++) await page.keyboard.press("ArrowRight");
  await editor.expectStep(MARK + 1);
  await page.keyboard.press("e");
  await expect(lane.getByTestId("fast-lane-first-error")).toHaveText(`step ${MARK + 1}`);
  await expect(page.getByRole("complementary", { name: "Step annotation" })).toBeVisible();
  // Corrected on the spot with an action-type key: the model's call is replaced (saved by the editor as usual).
  const from = before.steps[MARK]!.toolCall.action;
  const to = from === "wait" ? "system_button" : "wait";
  await page.keyboard.press(String((ACTION_TYPES.indexOf(to) + 1) % 10));
  expect((await editor.current()).toolCall.action).toBe(to);
  await page.keyboard.press("Shift+F");
  await expect(lane.getByTestId("fast-lane-outcome")).toHaveText("Failure");
  await page.keyboard.press("Control+Enter");
  await expect(lane.getByRole("status").filter({ hasText: "Handed in through the fast lane." })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("fast-lane-handed-in.png") });

  const after = await getJson<TrajectoryView>(request, `/api/trajectories/${id}`);
  expect(after).toMatchObject({ status: "submitted", lane: "fast", outcome: "failure", cutAfter: MARK });
  expect(after.steps.map((s) => s.verdict)).toEqual(
    before.steps.map((_, i) => (i < MARK ? "good" : i === MARK ? "corrected" : "unreviewed")),
  );

  // The export says which lane it took, and bridge prm labels it from the fast lane's marks.
  const outDir = await exportProject(baseURL!, project!.name);
  const canonical = (await readFile(path.join(outDir, "trajectories.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { id: string; lane: string | null });
  expect(canonical.find((t) => t.id === id)!.lane).toBe("fast");
  const prmOut = test.info().outputPath("prm");
  // The trainer's side runs the command line, as on a training machine: `npm run bridge -- prm`.
  const bridge = spawnSync(process.execPath, ["scripts/studio.mjs", "bridge", "prm", outDir, "--out", prmOut, "--allow-unreviewed"], {
    encoding: "utf8",
  });
  expect(bridge.status, `${bridge.stdout}\n${bridge.stderr}`).toBe(0);
  const rows = (await readFile(path.join(prmOut, "mobile_use_prm.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map(
      (l) =>
        JSON.parse(l) as { trajectory_id: string; step: number; process_label: number; first_error: number | null; lane: string | null },
    )
    .filter((r) => r.trajectory_id === id);
  expect(rows.map((r) => [r.step, r.process_label, r.first_error, r.lane])).toEqual(
    Array.from({ length: MARK + 1 }, (_, i) => [i, i < MARK ? 1 : -1, MARK + 1, "fast"]),
  );
});
