import type { APIRequestContext } from "@playwright/test";
import { expect } from "@playwright/test";
import sharp from "sharp";
import yazl from "yazl";
import type { TrajectoryView } from "@/lib/domain/views";
import { importViaApi } from "./datasets";

// Seeding for the model specs through the studio's own API (upload, assign, annotate, submit, approve),
// so they run against whatever database the browser suite uses and pass alone and in any order.

export type SeedTrajectory = { goal: string; app: string; steps: number };

/** A UI-S1 upload (data.jsonl + small PNGs, one colour per step) holding `trajectories`. */
async function zipOf(run: string, trajectories: SeedTrajectory[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const lines: string[] = [];
  let n = 0;
  for (const [ti, t] of trajectories.entries()) {
    const steps = [];
    for (let i = 0; i < t.steps; i++) {
      const name = `images/m${run}_${ti}_${i}.png`;
      n += 1;
      zip.addBuffer(
        await sharp({ create: { width: 540, height: 1200, channels: 3, background: { r: (n * 37) % 255, g: (n * 71) % 255, b: 90 } } })
          .png()
          .toBuffer(),
        name,
      );
      const isLast = i === t.steps - 1;
      steps.push({
        action_content: isLast
          ? { action: "terminate", status: "success" }
          : { action: "click", coordinate: [270, 300 + i * 50], bbox: [200, 260 + i * 50, 340, 340 + i * 50] },
        screenshot: name,
      });
    }
    lines.push(JSON.stringify({ goal: t.goal, app: t.app, steps }));
  }
  zip.addBuffer(Buffer.from(`${lines.join("\n")}\n`), "data.jsonl");
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url);
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

/** Upload the trajectories as the admin; their ids, in the order given. */
export async function importTrajectories(admin: APIRequestContext, run: string, trajectories: SeedTrajectory[]): Promise<string[]> {
  const upload = await importViaApi(admin, undefined, {
    format: "ui-s1",
    project: `model-e2e-${run}`,
    files: { name: `model-${run}.zip`, mimeType: "application/zip", buffer: await zipOf(run, trajectories) },
  });
  expect(upload.state).toBe("succeeded");
  const ids: string[] = [];
  for (const t of trajectories) {
    const page = await getJson<{ rows: { id: string; instruction: string }[] }>(
      admin,
      `/api/trajectories?q=${encodeURIComponent(t.goal)}&pageSize=10`,
    );
    const row = page.rows.find((r) => r.instruction === t.goal);
    expect(row, `imported ${t.goal}`).toBeTruthy();
    ids.push(row!.id);
  }
  return ids;
}

export async function assignTo(admin: APIRequestContext, ids: string[], email: string) {
  const res = await admin.post("/api/assignments", { data: { trajectoryIds: ids, assignee: email } });
  expect(res.status(), await res.text()).toBe(200);
}

/** Save one step as a person would (thought, clear action, verdict). */
export async function saveStep(request: APIRequestContext, step: TrajectoryView["steps"][number], words: string) {
  const res = await request.put(`/api/steps/${step.id}/annotation`, {
    data: {
      thought: {
        state: `${words} state.`,
        nextAction: `${words} next.`,
        purpose: `${words} purpose.`,
        text: `${words} state. ${words} next. ${words} purpose.`,
      },
      clearAction: `${words}.`,
      toolCall: step.toolCall,
      box: step.box,
      verdict: "good",
      version: step.version,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** As the annotator: every step written, the outcome set, submitted. */
export async function annotateAndSubmit(annotator: APIRequestContext, id: string, outcome: "success" | "failure") {
  const t = await getJson<TrajectoryView>(annotator, `/api/trajectories/${id}`);
  for (const s of t.steps) await saveStep(annotator, s, `Step ${s.index + 1}`);
  const now = await getJson<TrajectoryView>(annotator, `/api/trajectories/${id}`);
  const res = await annotator.put(`/api/trajectories/${id}/annotation`, {
    data: { outcome, isDiscarded: false, cutAfter: null, version: now.version },
  });
  expect(res.status(), await res.text()).toBe(200);
  const submitted = await annotator.post(`/api/trajectories/${id}/submit`);
  expect(submitted.status(), await submitted.text()).toBe(200);
}

/** As the reviewer: claim and approve. */
export async function approve(reviewer: APIRequestContext, id: string) {
  const claim = await reviewer.post(`/api/reviews/${id}/claim`);
  expect(claim.status(), await claim.text()).toBe(200);
  const t = await getJson<TrajectoryView>(reviewer, `/api/trajectories/${id}`);
  const res = await reviewer.post(`/api/reviews/${id}`, { data: { decision: "approve", version: t.version } });
  expect(res.status(), await res.text()).toBe(200);
}
