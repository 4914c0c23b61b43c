import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { editorPath } from "@/lib/domain/trajectory";
import type { TrajectoryView } from "@/lib/domain/views";
import { importViaApi } from "./datasets";
import { e2eDataDir, e2eDatabaseUrl } from "./env";
import { expect, test } from "./fixtures";

// Issue 27 item 2: a trainer row's lineage leads back to its step. The admin cuts a release (the API), exports it and
// makes SFT rows (the command line, as a trainer would), and the link built from a row's lineage opens the editor on
// exactly that step.
const RUN = Date.now().toString(36);
const APP = `Lineage ${RUN}`;
const ACTIONS = ["Open the settings", "Tap Display", "Turn on dark mode"];

test("the editor link built from a release row's lineage opens that trajectory at that step @storage", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(560_000);
  const line = {
    goal: `Turn on dark mode ${RUN}`,
    app: APP,
    steps: ACTIONS.map((a, i) => ({
      action_content: { action: "click", coordinate: [300 + 100 * i, 600] },
      thought: `${a}.`,
      action_description: a,
      screenshot: `l${RUN}_${i}.png`,
    })),
  };
  const files: { name: string; mimeType: string; buffer: Buffer }[] = [
    { name: "data.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(`${JSON.stringify(line)}\n`) },
  ];
  for (const [i, colour] of ["#dfe8f5", "#f5e9df", "#e3f5df"].entries()) {
    const png = await sharp({ create: { width: 1080, height: 2400, channels: 3, background: colour } })
      .png()
      .toBuffer();
    files.push({ name: `l${RUN}_${i}.png`, mimeType: "image/png", buffer: png });
  }
  const form = new FormData();
  form.append("format", "ui-s1");
  for (const f of files) form.append("files", new Blob([new Uint8Array(f.buffer)], { type: f.mimeType }), f.name);
  expect(await importViaApi(request, baseURL, form)).toMatchObject({ state: "succeeded", trajectories: 1, steps: 3 });
  const list = (await (await request.get(`/api/trajectories?q=${encodeURIComponent(RUN)}`)).json()) as { rows: { id: string }[] };
  const id = list.rows[0]!.id;

  const cut = await request.post("/api/releases", {
    headers: { origin: baseURL! },
    data: { name: `lineage-${RUN}`, status: "all", apps: [APP] },
  });
  expect(cut.status(), await cut.text()).toBe(201);
  const { snapshot } = (await cut.json()) as { snapshot: { number: number; trajectories: number } };
  expect(snapshot.trajectories).toBe(1);

  // The release's export and its SFT rows, made by the command line against the server's own database and store.
  const out = mkdtempSync(path.join(os.tmpdir(), "lineage-"));
  const studio = (args: string[]) =>
    execFileSync(process.execPath, ["node_modules/tsx/dist/cli.mjs", "lib/cli/main.ts", ...args], {
      env: { ...process.env, DATABASE_URL: e2eDatabaseUrl, STUDIO_DATA_DIR: e2eDataDir },
      encoding: "utf8",
    });
  studio(["release", "export", String(snapshot.number), "--out", path.join(out, "release")]);
  studio(["bridge", "sft", path.join(out, "release"), "--out", path.join(out, "sft"), "--target", "ms-swift", "--allow-unreviewed"]);
  const rows = readFileSync(path.join(out, "sft", "mobile_use_sft.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map(
      (l) => JSON.parse(l) as { lineage: { release: string; release_number: number; trajectory_id: string; step: number; editor: string } },
    );
  expect(rows).toHaveLength(3);
  const row = rows.find((r) => r.lineage.step === 1)!;
  expect(row.lineage).toMatchObject({ release: `lineage-${RUN}`, release_number: snapshot.number, trajectory_id: id, step: 1 });
  expect(row.lineage.editor).toBe(editorPath(id, 1));

  // The link: the studio's address + the row's editor path; the trajectory opens at that step (the editor, or the
  // viewer for a person who may not edit it).
  await page.goto(new URL(row.lineage.editor, baseURL).href);
  // A cold page on a busy machine may take a while over its first paint.
  await expect(page.getByRole("status", { name: "Step counter" })).toHaveText("Step 2 / 3", { timeout: 30_000 });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(line.goal);
  await expect(page.getByText(ACTIONS[1]!, { exact: true }).first()).toBeVisible();

  // The admin page: an edit of step 3, a second cut, and the diff between the two names exactly that step and field.
  const view = (await (await request.get(`/api/trajectories/${id}`)).json()) as TrajectoryView;
  const third = view.steps[2]!;
  const saved = await request.put(`/api/steps/${third.id}/annotation`, {
    headers: { origin: baseURL! },
    data: {
      thought: third.thought,
      clearAction: "Switch dark mode on",
      toolCall: third.toolCall,
      box: third.box,
      verdict: third.verdict,
      version: third.version,
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const second = await request.post("/api/releases", {
    headers: { origin: baseURL! },
    data: { name: `lineage-${RUN}`, status: "all", apps: [APP] },
  });
  expect(second.status(), await second.text()).toBe(201);
  const next = ((await second.json()) as { snapshot: { number: number } }).snapshot.number;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto("/admin/snapshots");
  await expect(page.getByRole("listitem", { name: `Release ${next}`, exact: true })).toContainText(`lineage-${RUN}`);
  const compare = page.getByRole("form", { name: "Compare two releases" });
  await compare.getByLabel("From").selectOption(String(snapshot.number));
  await compare.getByLabel("To").selectOption(String(next));
  await compare.getByRole("button", { name: "Compare" }).click();
  const diff = page.locator(".release-diff");
  await expect(diff).toContainText("0 added, 0 removed, 1 changed");
  // The one step field edited, and the task's status, which the first save moved from new to in progress.
  await expect(diff.locator(".diff-field")).toHaveCount(2);
  await expect(diff.locator(".diff-field").filter({ hasText: "trajectory · status" })).toContainText("in_progress");
  const field = diff.locator(".diff-field").filter({ hasText: "step" });
  await expect(field).toHaveCount(1);
  await expect(field).toContainText("step 3 · clearAction");
  await expect(field).toContainText("Switch dark mode on");
  await expect(field).toContainText("admin@studio.local");
  await expect(field.getByRole("link", { name: "Open in the editor" })).toHaveAttribute("href", editorPath(id, 2));
  await page.screenshot({ path: test.info().outputPath("snapshots-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.screenshot({ path: test.info().outputPath("snapshots-1440.png"), fullPage: true });
});
