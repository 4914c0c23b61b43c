import { request as apiRequest, type APIRequestContext } from "@playwright/test";
import type { z } from "zod";
import sharp from "sharp";
import yazl from "yazl";
import { STEP_AGREEMENT_FIELDS, TRAJECTORY_AGREEMENT_FIELDS } from "@/lib/domain/agreement";
import type { GoldAccuracy, GoldRates } from "@/lib/domain/gold";
import type { reviewQueueSchema } from "@/lib/domain/review";
import type { TaskList, TrajectoryPage, TrajectoryView } from "@/lib/domain/views";
import { formatter } from "@/lib/i18n/format";
import { storageStateFor } from "./accounts";
import { importViaApi } from "./datasets";
import { expect, test } from "./fixtures";
import { annotatorContext } from "./layout-seed";
import { annotateAndSubmit, approve, getJson } from "./model-seed";
import { EditorPage } from "./pages/editor-page";

// Issue 26 item 4 in Chromium, as an admin uses it: an approved trajectory is marked gold from the
// list's selection bar (after the bar says in words why other work cannot be), the project's gold rate
// is set on /admin/projects; the demo annotator's "Start next task" then gives them a fresh copy of it
// with no gold marker anywhere on the page; they answer every field as the gold answer does but the
// outcome, submit, and the dashboard's gold table shows their accuracy per field. The copy is never in
// the review queue, nothing is left in progress for the annotator, and the project's rate goes back to 0.

test.describe.configure({ timeout: 240_000 });

const ANNOTATOR = "annotator@studio.local";
const FIELDS = [...STEP_AGREEMENT_FIELDS, ...TRAJECTORY_AGREEMENT_FIELDS];
type Field = (typeof FIELDS)[number];

/**
 * What the annotator's answer scores against the gold one, [agreed, compared] per field: two steps (a
 * typed text, then the end), the same action types, text, verdicts and thoughts, no point or box to
 * compare, the cut and the discard the same; the outcome is the one field they answer differently.
 */
const MINE: Record<Field, [number, number]> = {
  actionType: [2, 2],
  point: [0, 0],
  box: [0, 0],
  text: [1, 1],
  verdict: [2, 2],
  thought: [2, 2],
  outcome: [0, 1],
  cut: [1, 1],
  discard: [1, 1],
};

/** The words model-seed's saveStep writes into step n (1-based): the gold answer's thought and clear action. */
const words = (n: number) => ({
  state: `Step ${n} state.`,
  nextAction: `Step ${n} next.`,
  purpose: `Step ${n} purpose.`,
  clear: `Step ${n}.`,
});

/** A UI-S1 upload of two trajectories, each a typed text then the end, on screenshots of their own colour. */
async function uploadZip(run: string, goals: string[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const lines: string[] = [];
  for (const [t, goal] of goals.entries()) {
    const steps = [];
    for (const [i, action] of [
      { action: "type", text: "milk" },
      { action: "terminate", status: "success" },
    ].entries()) {
      const name = `images/q${run}_${t}_${i}.png`;
      const png = await sharp({
        create: { width: 540, height: 1200, channels: 3, background: { r: 40 + t * 90, g: 120 + i * 60, b: 200 } },
      })
        .png()
        .toBuffer();
      zip.addBuffer(png, name);
      steps.push({ action_content: action, screenshot: name });
    }
    lines.push(JSON.stringify({ goal, app: "Grocer", steps }));
  }
  zip.addBuffer(Buffer.from(`${lines.join("\n")}\n`), "data.jsonl");
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function ok(res: Awaited<ReturnType<APIRequestContext["post"]>>) {
  expect(res.status(), await res.text()).toBeLessThan(300);
}

test("an admin marks approved work gold and sets the rate; the annotator's gold copy has no marker; the dashboard scores it per field @storage", async ({
  page,
  list,
  browser,
  baseURL,
}) => {
  const run = Date.now().toString(36);
  const project = `e2e-quality-${run}`;
  const keyGoal = `Buy milk at the grocer ${run}`;
  const otherGoal = `Buy bread at the grocer ${run}`;
  const context = (role: "admin" | "reviewer" | "annotator") =>
    apiRequest.newContext({ baseURL, storageState: storageStateFor(role), extraHTTPHeaders: { origin: baseURL! } });
  const [admin, reviewer, annotator] = await Promise.all([context("admin"), context("reviewer"), context("annotator")]);
  let parked: string[] = [];

  // The answer key: corrected by the admin and approved by the reviewer. The other trajectory is set aside
  // (discarded, held by the admin): work that is not approved, which nobody's "Start next task" ever takes.
  const upload = await importViaApi(admin, baseURL, {
    format: "ui-s1",
    project,
    files: { name: `quality-${run}.zip`, mimeType: "application/zip", buffer: await uploadZip(run, [keyGoal, otherGoal]) },
  });
  expect(upload).toMatchObject({ state: "succeeded", trajectories: 2 });
  const imported = await getJson<TrajectoryPage>(admin, `/api/trajectories?project=${encodeURIComponent(project)}`);
  const keyId = imported.rows.find((r) => r.instruction === keyGoal)!.id;
  const otherId = imported.rows.find((r) => r.instruction === otherGoal)!.id;
  await ok(await admin.post("/api/assignments", { data: { trajectoryIds: [keyId, otherId], assignee: "admin@studio.local" } }));
  await annotateAndSubmit(admin, keyId, "success");
  await approve(reviewer, keyId);
  const other = await getJson<TrajectoryView>(admin, `/api/trajectories/${otherId}`);
  await ok(
    await admin.put(`/api/trajectories/${otherId}/annotation`, {
      data: { outcome: null, isDiscarded: true, cutAfter: null, version: other.version },
    }),
  );

  try {
    // ── The admin, on the trajectory list of the project. ──
    await list.goto(`?project=${encodeURIComponent(project)}`);
    await expect(list.rows).toHaveCount(2);
    const keyRow = list.rows.filter({ hasText: keyGoal });
    const otherRow = list.rows.filter({ hasText: otherGoal });
    const bar = page.getByRole("region", { name: "Assign selected trajectories" });
    const quality = bar.getByRole("group", { name: "Overlap and gold" });
    await keyRow.getByRole("checkbox").check();
    await expect(bar).toContainText("1 selected");
    // Only untouched work can go to several people: the server's refusal, in words, in the bar.
    await quality.getByRole("button", { name: "Give to 2 people" }).click();
    await expect(bar.getByRole("alert")).toContainText("cannot be overlapped");
    // Work that is not approved in the selection: gold is refused in words before anything is sent, and the table holds still.
    const before = await keyRow.boundingBox();
    await otherRow.getByRole("checkbox").check();
    await expect(bar).toContainText("Only approved work can be gold: 1 of the selected is not approved.");
    await expect(quality.getByRole("button", { name: "Mark as gold" })).toBeDisabled();
    expect(await keyRow.boundingBox()).toEqual(before);
    await page.screenshot({ path: test.info().outputPath("list-gold-refused.png") });
    await otherRow.getByRole("checkbox").uncheck();
    await quality.getByRole("button", { name: "Mark as gold" }).click();
    await expect(bar.getByText("1 marked as gold.")).toBeVisible();
    await expect(keyRow.getByText("Gold", { exact: true })).toBeVisible();
    await expect(otherRow.getByText("Gold", { exact: true })).toHaveCount(0);

    // ── The project's gold rate, beside its gold tasks. ──
    await page.goto("/admin/projects");
    const gold = page.getByRole("region", { name: "Gold tasks" });
    const projectRow = gold.getByRole("row").filter({ hasText: project });
    await expect(projectRow.getByRole("cell").first()).toHaveText("1");
    const rate = gold.getByRole("spinbutton", { name: `Gold rate of ${project}, in percent` });
    const save = gold.getByRole("button", { name: `Save the gold rate of ${project}` });
    await rate.fill("80");
    await expect(projectRow).toContainText("A rate from 0 to 50 %.");
    await expect(save).toBeDisabled();
    await rate.fill("50");
    await save.click();
    await expect(gold.getByRole("status")).toHaveText(`Gold rate of ${project} saved: 50%.`);
    const rates = await getJson<GoldRates>(admin, "/api/gold/rate");
    expect(rates.projects.find((p) => p.project === project)).toEqual({ project, rate: 0.5, goldTasks: 1 });
    await page.screenshot({ path: test.info().outputPath("projects-gold-rate.png") });
    // At 50 % whether this take is gold depends on the annotator's earlier takes (other specs'); at 100 % every take is
    // gold while a gold task is left for them. The page offers at most 50 %, so the test sets 100 % through the API.
    await ok(await admin.put("/api/gold/rate", { data: { project, rate: 1 } }));

    // The annotator's own unfinished work comes first on "Start next task": handed back to the pool for the
    // moment (restored below), so the take reaches the gold task.
    const { tasks } = await getJson<TaskList>(annotator, "/api/tasks");
    parked = tasks.filter((t) => t.status === "new" || t.status === "in_progress" || t.status === "rejected").map((t) => t.id);
    if (parked.length) await ok(await admin.post("/api/assignments", { data: { trajectoryIds: parked, assignee: null } }));
    const scoredBefore = (await getJson<GoldAccuracy>(admin, "/api/dashboard/gold")).people.find((p) => p.email === ANNOTATOR);

    // ── The demo annotator takes the next task: a fresh copy of the gold one, nothing on the page says so. ──
    const annotatorCtx = await annotatorContext(browser, baseURL!, { width: 1440, height: 900 });
    const ap = await annotatorCtx.newPage();
    await ap.goto("/tasks");
    await ap.getByRole("button", { name: /Start next task/ }).click();
    await expect(ap).toHaveURL(/\/trajectories\/[^/?]+/);
    const editor = new EditorPage(ap);
    await editor.waitForScreenshot();
    const copyId = new URL(ap.url()).pathname.split("/").pop()!;
    expect(copyId).not.toBe(keyId);
    const copy = await getJson<TrajectoryView>(annotator, `/api/trajectories/${copyId}`);
    expect([copy.instruction, copy.project, copy.status]).toEqual([keyGoal, project, "new"]);
    // Started from the model's output, not from the answer key.
    expect(copy.steps.map((s) => s.verdict)).toEqual(["unreviewed", "unreviewed"]);
    await expect(ap.getByText(keyGoal).first()).toBeVisible();
    expect(await ap.locator("body").innerText()).not.toMatch(/gold/i);
    await ap.screenshot({ path: test.info().outputPath("gold-copy-editor.png") });

    // Every field as the gold answer has it, but the outcome.
    for (const n of [1, 2]) {
      await editor.expectStep(n);
      const w = words(n);
      await editor.writeThought(w);
      await editor.writeClearAction(w.clear);
      await editor.setVerdict("good");
      if (n === 1) await editor.press("j");
    }
    await editor.setOutcome("Failure");
    await editor.waitSaved();
    expect(await ap.locator("body").innerText()).not.toMatch(/gold/i);
    await expect(editor.submitButton).toBeEnabled();
    await editor.submitButton.click();
    await expect(ap.getByRole("status", { name: "Submitted for review. Thank you!" })).toBeVisible();
    expect((await getJson<TrajectoryView>(annotator, `/api/trajectories/${copyId}`)).status).toBe("submitted");
    expect(await ap.locator("body").innerText()).not.toMatch(/gold/i);
    await annotatorCtx.close();

    // ── The dashboard's gold table: the annotator's accuracy per field, with this answer counted. ──
    const scored = await getJson<GoldAccuracy>(admin, "/api/dashboard/gold");
    const after = scored.people.find((p) => p.email === ANNOTATOR)!;
    const was = (f: Field) => scoredBefore?.fields.find((x) => x.field === f) ?? { agreed: 0, compared: 0 };
    for (const f of FIELDS) {
      const x = after.fields.find((y) => y.field === f)!;
      expect([x.agreed - was(f).agreed, x.compared - was(f).compared], f).toEqual(MINE[f]);
    }
    expect(after.goldTasks).toBe((scoredBefore?.goldTasks ?? 0) + 1);
    const fmt = formatter("en");
    const agreed = FIELDS.reduce((n, f) => n + was(f).agreed + MINE[f][0], 0);
    const compared = FIELDS.reduce((n, f) => n + was(f).compared + MINE[f][1], 0);
    const isFlagged = agreed / compared < scored.threshold;
    // On a studio where this is the annotator's first gold task: 1 task, 90 % overall (9 of 10), 100 % on every field
    // compared but the outcome (0 %), and "–" for the point and the box (a typed text and an end have neither).
    const expected = [
      new RegExp(`^annotator@studio\\.local${isFlagged ? "\\s*Below threshold" : ""}$`),
      fmt.number(after.goldTasks),
      fmt.percent(agreed / compared),
      ...FIELDS.map((f) => {
        const [a, c] = [was(f).agreed + MINE[f][0], was(f).compared + MINE[f][1]];
        return c === 0 ? "–" : fmt.percent(a / c);
      }),
    ];
    if (!scoredBefore) expect(expected.slice(1)).toEqual(["1", "90%", "100%", "–", "–", "100%", "100%", "100%", "0%", "100%", "100%"]);
    await page.goto("/dashboard");
    const table = page.getByRole("table", { name: "Accuracy against gold tasks" });
    const scoredRow = table.getByRole("row").filter({ hasText: ANNOTATOR });
    // The dashboard asks for a dozen figures at once: on a busy machine the gold table can take a while.
    await expect(scoredRow.getByRole("cell")).toHaveText(expected, { timeout: 30_000 });
    // In sight, not under the table's header: what is drawn at the middle of each of its cells is that cell.
    await scoredRow.scrollIntoViewIfNeeded();
    const covered = await scoredRow.evaluate(
      (row) =>
        [...row.querySelectorAll("td")].filter((cell) => {
          const r = cell.getBoundingClientRect();
          return !cell.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
        }).length,
    );
    expect(covered).toBe(0);
    await page.screenshot({ path: test.info().outputPath("dashboard-gold.png") });

    // ── Gold copies are never in the review queue. ──
    const queue = await getJson<z.infer<typeof reviewQueueSchema>>(reviewer, "/api/reviews");
    expect(queue.rows.filter((r) => r.id === copyId || r.instruction === keyGoal)).toEqual([]);
    const reviewerCtx = await browser.newContext({ baseURL, storageState: storageStateFor("reviewer") });
    const rp = await reviewerCtx.newPage();
    await rp.goto("/reviews");
    await expect(rp.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(rp.getByText(keyGoal)).toHaveCount(0);
    await reviewerCtx.close();

    // ── Back to rest: the rate to 0 on the projects page, the gold mark off on the list. ──
    await page.goto("/admin/projects");
    await expect(projectRow).toContainText("A rate from 0 to 50 %.");
    await rate.fill("0");
    await save.click();
    await expect(gold.getByRole("status")).toHaveText(`Gold rate of ${project} saved: 0%.`);
    await list.goto(`?project=${encodeURIComponent(project)}`);
    await keyRow.getByRole("checkbox").check();
    await quality.getByRole("button", { name: "Unmark gold" }).click();
    await expect(bar.getByText("1 no longer gold.")).toBeVisible();
    await expect(keyRow.getByText("Gold", { exact: true })).toHaveCount(0);
  } finally {
    // Whatever happened above: no gold at any rate in this project, and the annotator's own work is theirs again.
    await admin.put("/api/gold/rate", { data: { project, rate: 0 } });
    await admin.post("/api/gold", { data: { trajectoryIds: [keyId], isGold: false } });
    if (parked.length) await ok(await admin.post("/api/assignments", { data: { trajectoryIds: parked, assignee: ANNOTATOR } }));
    const left = await getJson<TaskList>(annotator, "/api/tasks");
    const mine = left.tasks.filter((t) => t.instruction === keyGoal || t.instruction === otherGoal);
    expect(mine.every((t) => t.status === "submitted")).toBe(true);
    await Promise.all([admin.dispose(), reviewer.dispose(), annotator.dispose()]);
  }
});
