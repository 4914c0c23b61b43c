import type { APIRequestContext, Browser, BrowserContext } from "@playwright/test";
import sharp from "sharp";
import type { TrajectoryView } from "@/lib/domain/views";
import { expect } from "./fixtures";
import { storageStateFor } from "./accounts";
import { importViaApi } from "./datasets";

/** A step of a seeded trajectory: the model's tool call arguments (original pixels) and the screenshot's colour. */
export type SeedStep = { args: Record<string, unknown>; colour: string };

/**
 * Import a Mobile-R1 trajectory of 1080x2400 screenshots (one plain colour each, so every step has
 * its own picture) and give it to the demo annotator. Returns the trajectory as the server has it.
 */
export async function seedAnnotatorTask(
  request: APIRequestContext,
  baseURL: string,
  label: string,
  steps: SeedStep[],
  opts: { app?: string } = {},
): Promise<TrajectoryView> {
  const run = `${label}${Date.now().toString(36)}`;
  const instruction = `Open the notes app ${run}`;
  const call = (args: Record<string, unknown>) => JSON.stringify({ name: "mobile_use", arguments: args });
  const row = {
    app_name: opts.app ?? "Notes",
    trajectory_length: steps.length,
    instruction,
    image_width: 1080,
    image_height: 2400,
    trajectory: steps.map((s, i) => ({
      image: `${run}_${i}.png`,
      thought: `Step ${i + 1} of the task.`,
      subtask: `Do step ${i + 1}.`,
      action: call(s.args),
      response: `<think>\nStep ${i + 1} of the task.\n</think><action>\nDo step ${i + 1}.\n</action><tool_call>\n${JSON.stringify(call(s.args))}\n</tool_call>`,
    })),
  };
  const form = new FormData();
  form.append("format", "mobile-r1");
  form.append("files", new Blob([`${JSON.stringify(row)}\n`]), "data.jsonl");
  for (const [i, s] of steps.entries()) {
    const png = await sharp({ create: { width: 1080, height: 2400, channels: 3, background: s.colour } })
      .png()
      .toBuffer();
    form.append("files", new Blob([new Uint8Array(png)]), `${run}_${i}.png`);
  }
  const job = await importViaApi(request, baseURL, form);
  expect(job).toMatchObject({ state: "succeeded", trajectories: 1, steps: steps.length });
  const list = (await (await request.get(`/api/trajectories?q=${encodeURIComponent(run)}`)).json()) as { rows: { id: string }[] };
  const id = list.rows[0]!.id;
  const assigned = await request.post("/api/assignments", {
    headers: { origin: baseURL },
    data: { trajectoryIds: [id], assignee: "annotator@studio.local" },
  });
  expect(assigned.status(), await assigned.text()).toBe(200);
  return (await (await request.get(`/api/trajectories/${id}`)).json()) as TrajectoryView;
}

/** The person settings every spec expects (the defaults): a spec that changes them puts these back. */
export const DEFAULT_SETTINGS = {
  sidePanelWidth: 400,
  isLegendCollapsed: false,
  isNextScreenShown: false,
  isReviewCompact: false,
  verdictAdvances: false,
};

export async function resetSettings(request: APIRequestContext, baseURL: string) {
  const res = await request.put("/api/me/settings", { headers: { origin: baseURL }, data: DEFAULT_SETTINGS });
  expect(res.status(), await res.text()).toBe(200);
}

/** A browser context signed in as the demo annotator, with their settings at the defaults. */
export async function annotatorContext(
  browser: Browser,
  baseURL: string,
  viewport = { width: 1280, height: 720 },
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport, storageState: storageStateFor("annotator") });
  await resetSettings(context.request, baseURL);
  return context;
}
