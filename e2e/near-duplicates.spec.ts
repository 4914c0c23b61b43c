import type { APIRequestContext } from "@playwright/test";
import sharp from "sharp";
import { importViaApi } from "./datasets";
import { expect, test } from "./fixtures";

// Issue 27, near-duplicates as an admin meets them: a batch holding the same task run three times over the same
// screens (re-encoded files, taps a few pixels apart, the instruction in other letter cases) and once over other
// screens. Filtered to near-duplicates, the list shows exactly the three, the first marked as the one kept;
// selecting them all and assigning with "Skip near-duplicates" gives the annotator only that one. The hashes
// grouping reads were made by the import itself. Everything is given back to the pool at the end.

const RUN = `${Date.now()}`;
const PROJECT = `near-dup-${RUN}`;
const ANNOTATOR = "annotator@studio.local";
/** The planted re-runs: one task, written three ways that read the same once case is ignored; the first is kept. */
const RERUNS = [`Turn on dark mode ${RUN}`, `turn on dark mode ${RUN}`, `TURN ON DARK MODE ${RUN}`];
/** The same task and actions over other screens: not a near-duplicate. */
const DISTINCT = `Turn On Dark Mode ${RUN}`;

/** A 540x1200 screen: dark bars at the given heights over a light background, `tag` in its metadata (its own bytes). */
async function screen(bars: number[], tag: string): Promise<Buffer> {
  const rects = bars.map((y, i) => `<rect x="${40 + i * 30}" y="${y}" width="${200 + i * 40}" height="90" fill="#222"/>`).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="540" height="1200"><rect width="540" height="1200" fill="#eee"/>${rects}</svg>`;
  return sharp(Buffer.from(svg))
    .png()
    .withMetadata()
    .withExif({ IFD0: { ImageDescription: tag } })
    .toBuffer();
}

/** A UI-S1 line: a tap on the first screen, then done on the second. */
const line = (goal: string, shots: [string, string], dx: number) =>
  JSON.stringify({
    goal,
    app: "Settings",
    is_successful: true,
    steps: [
      { action_content: { action: "click", coordinate: [270 + dx, 600 - dx] }, screenshot: shots[0] },
      { action_content: { action: "terminate", status: "success" }, screenshot: shots[1] },
    ],
  });

async function seed(request: APIRequestContext, baseURL: string): Promise<void> {
  const form = new FormData();
  form.append("format", "ui-s1");
  form.append("project", PROJECT);
  const lines: string[] = [];
  for (const [k, goal] of RERUNS.entries()) {
    const shots: [string, string] = [`rerun${k}_0.png`, `rerun${k}_1.png`];
    form.append("files", new Blob([new Uint8Array(await screen([100, 700], `${RUN}-${k}-0`))]), shots[0]);
    form.append("files", new Blob([new Uint8Array(await screen([300, 900, 1000], `${RUN}-${k}-1`))]), shots[1]);
    lines.push(line(goal, shots, 3 * k));
  }
  form.append("files", new Blob([new Uint8Array(await screen([500, 520, 1100], `${RUN}-d-0`))]), "distinct_0.png");
  form.append("files", new Blob([new Uint8Array(await screen([50], `${RUN}-d-1`))]), "distinct_1.png");
  lines.push(line(DISTINCT, ["distinct_0.png", "distinct_1.png"], 0));
  form.append("files", new Blob([`${lines.join("\n")}\n`]), "data.jsonl");
  const job = await importViaApi(request, baseURL, form);
  expect(job).toMatchObject({ state: "succeeded", trajectories: 4, steps: 8 });
}

/** Give every trajectory of this run's project back to the pool (also when the test failed half-way). */
async function returnToPool(request: APIRequestContext, baseURL: string): Promise<void> {
  const list = (await (await request.get(`/api/trajectories?project=${PROJECT}`)).json()) as { rows: { id: string }[] };
  if (list.rows.length === 0) return;
  const res = await request.post("/api/assignments", {
    headers: { origin: baseURL },
    data: { trajectoryIds: list.rows.map((r) => r.id), assignee: null },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test("the list filtered to near-duplicates shows the planted re-runs with their keeper, and assignment skips the others @storage", async ({
  page,
  request,
  baseURL,
  list,
}) => {
  await seed(request, baseURL!);
  try {
    await list.goto(`?project=${PROJECT}`);
    await expect(list.rows).toHaveCount(4);

    await page.getByRole("combobox", { name: "Near-duplicates" }).selectOption({ label: "Only near-duplicates" });
    await expect(page).toHaveURL(/[?&]duplicates=only/);
    await expect(list.matching).toHaveText("3 matching");
    await expect(list.rows).toHaveCount(3);
    // Exactly the planted group: the re-runs, never the same task over other screens.
    for (const goal of RERUNS) await expect(list.table.getByRole("link", { name: goal, exact: true })).toBeVisible();
    await expect(list.table.getByRole("link", { name: DISTINCT, exact: true })).toHaveCount(0);

    // The first run is the one kept; the other two say so and link to it.
    const rowOf = (goal: string) => list.rows.filter({ has: page.getByRole("link", { name: goal, exact: true }) });
    const keeper = rowOf(RERUNS[0]!);
    await expect(keeper.getByText("Kept of 3", { exact: true })).toBeVisible();
    await expect(list.table.getByText("Kept of 3", { exact: true })).toHaveCount(1);
    const keeperHref = await keeper.getByRole("link", { name: RERUNS[0]!, exact: true }).getAttribute("href");
    for (const goal of RERUNS.slice(1)) {
      const rerun = rowOf(goal).getByRole("link", { name: "Re-run", exact: true });
      await expect(rerun).toBeVisible();
      await expect(rerun).toHaveAttribute("href", keeperHref!);
    }

    // Select all three, assign to the annotator with "Skip near-duplicates": only the keeper is given.
    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    const bar = page.getByRole("region", { name: "Assign selected trajectories" });
    await expect(bar).toContainText("3 selected");
    await bar.getByLabel("Assign to").selectOption(ANNOTATOR);
    await bar.getByRole("checkbox", { name: "Skip near-duplicates" }).check();
    await bar.getByRole("button", { name: "Assign", exact: true }).click();
    // The assignment's own status line (the bar's quality note below it is another status).
    const assigned = bar.getByRole("status").filter({ hasText: /assigned|returned/ });
    await expect(assigned).toHaveText("1 assigned, 2 near-duplicates skipped");
    await expect(keeper).toContainText(ANNOTATOR);
    for (const goal of RERUNS.slice(1)) await expect(rowOf(goal)).not.toContainText(ANNOTATOR);
    const theirs = (await (await request.get(`/api/trajectories?project=${PROJECT}&assignee=${ANNOTATOR}`)).json()) as {
      rows: { instruction: string }[];
    };
    expect(theirs.rows.map((r) => r.instruction)).toEqual([RERUNS[0]]);

    // And back to the pool, as a person would undo it.
    await keeper.getByRole("checkbox").check();
    await expect(bar).toContainText("1 selected");
    await bar.getByRole("button", { name: "Return to pool" }).click();
    await expect(assigned).toHaveText("1 returned to the pool");
    await expect(keeper).not.toContainText(ANNOTATOR);
  } finally {
    await returnToPool(request, baseURL!);
  }
});
