// The trajectory judge against people on /dashboard, in Chromium, over trajectories this spec seeds
// with known human outcomes (annotated, submitted and approved through the API) and a real
// OpenAI-compatible HTTP server it starts, which answers "completed" by a marker in the task text.
// The figures on the page must match the counts: confusion matrix, agreement, Cohen's kappa, per app,
// and the disagreements, each linking to its trajectory.
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import type { JudgeAgreement } from "@/lib/domain/model";
import { requestText, startFakeModelServer, type FakeModelServer } from "@/lib/server/testing/fake-model-server";
import { storageStateFor } from "./accounts";
import { expect as baseExpect, test } from "./fixtures";
import { annotateAndSubmit, approve, assignTo, getJson, importTrajectories } from "./model-seed";

const expect = baseExpect.configure({ timeout: 15_000 });

const RUN = `${Date.now()}`;
const MAIL = `Mail ${RUN}`;
const MAPS = `Maps ${RUN}`;

// [app, human outcome, judge says completed]
const PLAN: [string, "success" | "failure", boolean][] = [
  [MAIL, "success", true],
  [MAIL, "success", true],
  [MAIL, "success", false],
  [MAIL, "failure", false],
  [MAIL, "failure", false],
  [MAPS, "success", false],
  [MAPS, "failure", true],
  [MAPS, "failure", false],
];
const goal = (i: number) => `Judge ${RUN} task ${i} [${PLAN[i]![2] ? "done" : "not done"}]`;

let fake: FakeModelServer;
const contexts: APIRequestContext[] = [];

test.beforeAll(async () => {
  fake = await startFakeModelServer();
  fake.setResponder((req) => {
    const done = /\[done\]/.test(requestText(req));
    return JSON.stringify({ completed: done, consistent: true, reason: done ? "The last screen shows it done." : "It stopped early." });
  });
});

test.afterAll(async () => {
  for (const c of contexts) await c.dispose();
  await fake?.close();
});

type Matrix = JudgeAgreement["overall"]["confusion"];

/** Cohen's kappa for a 2x2 table, written out here so the page is checked against arithmetic, not against itself. */
function kappa(m: Matrix): number | null {
  const n = m.success.success + m.success.failure + m.failure.success + m.failure.failure;
  if (n === 0) return null;
  const po = (m.success.success + m.failure.failure) / n;
  const humanS = (m.success.success + m.success.failure) / n;
  const judgeS = (m.success.success + m.failure.success) / n;
  const pe = humanS * judgeS + (1 - humanS) * (1 - judgeS);
  return pe === 1 ? null : (po - pe) / (1 - pe);
}

test("the dashboard's judge figures match seeded counts, per app too, and each disagreement opens its trajectory @storage", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const as = async (role: "admin" | "annotator" | "reviewer") => {
    const c = await playwrightRequest.newContext({ baseURL, storageState: storageStateFor(role), extraHTTPHeaders: { origin: baseURL! } });
    contexts.push(c);
    return c;
  };
  const admin = await as("admin");
  const annotator = await as("annotator");
  const reviewer = await as("reviewer");

  // ── Seed: eight trajectories with known human outcomes, reviewed and approved. ──
  const ids = await importTrajectories(
    admin,
    RUN,
    PLAN.map(([app], i) => ({ goal: goal(i), app, steps: 2 })),
  );
  await assignTo(admin, ids, "annotator@studio.local");
  for (const [i, id] of ids.entries()) await annotateAndSubmit(annotator, id, PLAN[i]![1]);
  for (const id of ids) await approve(reviewer, id);

  // What other specs left judged in this database (a fresh one has nothing): the page must add ours to it exactly.
  const base = await getJson<JudgeAgreement>(admin, "/api/judge/agreement");

  // ── The admin points the studio at the server and starts the judge over these eight from /admin/model. ──
  const settings = await admin.put("/api/model/settings", {
    data: { baseUrl: fake.baseUrl, model: "fake-judge", concurrency: 2, timeoutMs: 10_000 },
  });
  expect(settings.status(), await settings.text()).toBe(200);
  await page.goto("/admin/model");
  await page.getByRole("textbox", { name: /Trajectory ids/ }).fill(ids.join("\n"));
  const started = page.waitForResponse((r) => r.url().endsWith("/api/model/jobs") && r.request().method() === "POST");
  await page.getByRole("button", { name: "Judge", exact: true }).click();
  const jobId = ((await (await started).json()) as { job: { id: string } }).job.id;
  const row = page.getByRole("table", { name: "Background jobs" }).getByTestId(`model-job-${jobId}`);
  await expect(row).toContainText("finished", { timeout: 60_000 });
  await expect(row).toContainText("8 of 8");
  await expect(row).toContainText("judge.v2 · fake-judge");
  expect(fake.requests.filter((r) => /Judge .* task/.test(requestText(r.body)))).toHaveLength(8);

  // ── The dashboard. ──
  const mine: Matrix = { success: { success: 2, failure: 2 }, failure: { success: 1, failure: 3 } };
  const expected: Matrix = {
    success: { success: base.overall.confusion.success.success + 2, failure: base.overall.confusion.success.failure + 2 },
    failure: { success: base.overall.confusion.failure.success + 1, failure: base.overall.confusion.failure.failure + 3 },
  };
  const pairs = base.overall.pairs + 8;
  await page.goto("/dashboard");
  const section = page.getByRole("region", { name: "Judge against people" });
  await expect(section.getByTestId("judge-pairs")).toHaveText(String(pairs));
  const matrix = section.getByRole("table", { name: "Confusion matrix (rows: people, columns: judge)" });
  for (const human of ["success", "failure"] as const) {
    const r = matrix.getByRole("row", { name: new RegExp(`^People: ${human}`) });
    await expect(r.getByRole("cell")).toHaveText([String(expected[human].success), String(expected[human].failure)]);
  }
  const k = kappa(expected);
  await expect(section.getByTestId("judge-kappa")).toHaveText(k === null ? "n/a" : k.toFixed(2));
  if (base.overall.pairs === 0) {
    // A fresh database: the figures are exactly the seeded ones.
    expect(kappa(mine)).toBeCloseTo(0.25, 10);
    await expect(section.getByTestId("judge-kappa")).toHaveText("0.25");
  }

  // Per app: Mail 5 judged, 4 agree (80 %), kappa 0.6154; Maps 3 judged, 1 agrees (33 %), kappa -0.5.
  const byApp = section.getByRole("table", { name: "By app" });
  await expect(byApp.getByRole("row", { name: new RegExp(`^${MAIL}`) }).getByRole("cell")).toHaveText([MAIL, "5", "80%", "0.62"]);
  await expect(byApp.getByRole("row", { name: new RegExp(`^${MAPS}`) }).getByRole("cell")).toHaveText([MAPS, "3", "33%", "-0.50"]);

  // Disagreements: the three seeded ones, with the judge's reason, each opening its trajectory.
  const list = section.getByRole("table", { name: "Disagreements" });
  const ours = list.getByRole("row").filter({ hasText: RUN });
  await expect(ours).toHaveCount(3);
  await expect(list.getByRole("row", { name: new RegExp(`^${MAPS} failure success The last screen shows it done\\.`) })).toHaveCount(1);
  await expect(list.getByRole("row", { name: new RegExp(`^${MAPS} success failure It stopped early\\.`) })).toHaveCount(1);
  await expect(list.getByRole("row", { name: new RegExp(`^${MAIL} success failure It stopped early\\.`) })).toHaveCount(1);
  for (const i of [0, 1, 3, 4, 7]) await expect(list.getByRole("link", { name: `Open “${goal(i)}”` })).toHaveCount(0);
  await list.getByRole("link", { name: `Open “${goal(6)}”` }).click();
  await expect(page).toHaveURL(new RegExp(`/trajectories/${ids[6]}`));
  await expect(page.getByRole("heading", { level: 1, name: goal(6) })).toBeVisible();
});
