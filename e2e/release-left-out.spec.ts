import sharp from "sharp";
import { importViaApi } from "./datasets";
import { expect, test } from "./fixtures";

// Issue 36 item 1: a release names what it left out and why. An admin of this spec's own (so switching their
// language touches nobody else) cuts a release of a project of two trajectories, one of them held out in an
// evaluation set: the page says so, with the counts before and after; a cut that takes nothing says why, never
// only "no trajectory matches". Screenshots at 1280x720 and 1440x900 in English and Chinese go to SHOTS_DIR.
const RUN = Date.now().toString(36);
const PROJECT = `leftout-${RUN}`;
const SET = `held-${RUN}`;
const SHOTS = process.env.SHOTS_DIR;

test("a release names what it left out and why, in English and Chinese @storage", async ({ browser, request, baseURL }) => {
  test.setTimeout(300_000);
  const files: { name: string; buffer: Buffer }[] = [];
  const lines = ["Open the settings", "Turn on dark mode"].map((goal, i) => {
    files.push({ name: `lo${RUN}_${i}.png`, buffer: Buffer.alloc(0) });
    return {
      goal: `${goal} ${RUN}`,
      app: `LeftOut ${RUN}`,
      steps: [{ action_content: { action: "open", text: "Settings" }, screenshot: `lo${RUN}_${i}.png` }],
    };
  });
  for (const [i, f] of files.entries())
    f.buffer = await sharp({ create: { width: 1080, height: 2400, channels: 3, background: i ? "#e3f5df" : "#dfe8f5" } })
      .png()
      .toBuffer();
  const form = new FormData();
  form.append("format", "ui-s1");
  form.append("project", PROJECT);
  form.append("files", new Blob([lines.map((l) => JSON.stringify(l)).join("\n") + "\n"], { type: "application/jsonl" }), "data.jsonl");
  for (const f of files) form.append("files", new Blob([new Uint8Array(f.buffer)], { type: "image/png" }), f.name);
  expect(await importViaApi(request, baseURL, form)).toMatchObject({ state: "succeeded", trajectories: 2 });
  const list = (await (await request.get(`/api/trajectories?q=${encodeURIComponent(RUN)}`)).json()) as { rows: { id: string }[] };
  const ids = list.rows.map((r) => r.id).sort();
  expect(ids).toHaveLength(2);
  const freeze = (id: string) =>
    request.post("/api/eval-sets", { headers: { origin: baseURL! }, data: { name: SET, status: "all", ids: [id], heldOut: true } });
  expect((await freeze(ids[0]!)).status()).toBe(201);

  const email = `leftout-${RUN}@studio.local`;
  const password = `left-out-${RUN}-pw`;
  const made = await request.post("/api/users", { headers: { origin: baseURL! }, data: { email, role: "admin", password } });
  expect(made.status(), await made.text()).toBe(201);
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] }, viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto("/sign-in?next=%2Fadmin%2Fsnapshots");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Releases", exact: true })).toBeVisible({ timeout: 60_000 });

  async function cut(name: string) {
    const f = page.getByRole("form", { name: "Cut a release" });
    await f.getByLabel("Name", { exact: true }).fill(name);
    await f.getByLabel("Trajectories").selectOption("all");
    await f.getByLabel("Project").fill(PROJECT);
    await f.getByLabel("Licence of the data (SPDX id)").fill("CC-BY-4.0");
    await f.getByRole("button", { name: "Cut release" }).click();
    return f;
  }

  const f = await cut(`first-${RUN}`);
  await expect(f.getByRole("status")).toHaveText(/Release \d+ cut\./);
  const number = (await f.getByRole("status").textContent())!.match(/Release (\d+)/)![1]!;
  const entry = page.getByRole("listitem", { name: `Release ${number}`, exact: true });
  const why = entry.getByRole("group", { name: "What the cut left out, and why" });
  await expect(why).toContainText("2 trajectories in scope before the cut, 1 in the release after it");
  await expect(why).toContainText(`1 is held out for evaluation sets (${SET} v1)`);
  await expect(why.getByRole("listitem")).toHaveCount(1);
  if (SHOTS) {
    await entry.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/release-en-1280x720.png` });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: `${SHOTS}/release-en-1440x900.png` });
  }

  // Both held out now: the cut takes nothing, and the refusal names every reason with its count.
  expect((await freeze(ids[1]!)).status()).toBe(201);
  const empty = await cut(`empty-${RUN}`);
  const alert = empty.getByRole("alert");
  await expect(alert).toContainText(`Nothing to take into release “empty-${RUN}”: of 2 trajectories in scope`);
  await expect(alert).toContainText(`2 are held out for evaluation sets (${SET} v1, ${SET} v2)`);
  await expect(alert).not.toContainText("no trajectory matches");
  if (SHOTS) {
    await alert.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/release-en-refusal-1440x900.png` });
  }

  // The same page in Chinese (this admin's own language setting).
  expect((await page.request.patch("/api/me", { data: { locale: "zh" }, headers: { origin: baseURL! } })).status()).toBe(200);
  await page.reload();
  const zhWhy = page
    .getByRole("listitem", { name: `发布版本 ${number}`, exact: true })
    .getByRole("group", { name: "本次创建未收入的内容及原因" });
  await expect(zhWhy).toContainText(`1 条留作评测集（${SET} v1）`, { timeout: 30_000 });
  if (SHOTS) {
    await zhWhy.scrollIntoViewIfNeeded();
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: `${SHOTS}/release-zh-1280x720.png` });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: `${SHOTS}/release-zh-1440x900.png` });
  }
  await context.close();
});
