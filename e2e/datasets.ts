import { createWriteStream } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import yazl from "yazl";
import { expect, type APIRequestContext } from "@playwright/test";

const SIZE = { width: 1080, height: 2400 };

async function png(seed: number): Promise<Buffer> {
  const background = { r: (seed * 53) % 255, g: (seed * 97) % 255, b: (seed * 151) % 255 };
  return sharp({ create: { ...SIZE, channels: 3, background } })
    .png()
    .toBuffer();
}

/** One UI-S1 trajectory line: a click then terminate, screenshots named by `prefix`. */
export function uiS1Line(goal: string, prefix: string): string {
  return JSON.stringify({
    goal,
    is_successful: true,
    steps: [
      {
        action_content: { action: "click", coordinate: [540, 1200], bbox: [400, 1100, 680, 1300] },
        screenshot: `/data/images/${prefix}_0.png`,
      },
      { action_content: { action: "terminate", status: "success" }, screenshot: `/data/images/${prefix}_1.png` },
    ],
  });
}

/** A zip with a top folder holding data.jsonl and images/, as people pack one. */
export async function makeUiS1Zip(dir: string, goal: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const prefix = `e2e${Date.now()}`;
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(`${uiS1Line(goal, prefix)}\n`), "batch/data.jsonl");
  zip.addBuffer(await png(Date.now() % 1000), `batch/images/${prefix}_0.png`);
  zip.addBuffer(await png((Date.now() + 7) % 1000), `batch/images/${prefix}_1.png`);
  zip.end();
  const file = path.join(dir, "batch.zip");
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(file)).on("close", resolve).on("error", reject));
  return file;
}

/** A .jsonl whose line 2 is broken JSON and whose line 3 misses a screenshot, plus the one image line 1 needs. */
export async function makeBrokenJsonl(dir: string): Promise<{ jsonl: string; images: string[] }> {
  await mkdir(dir, { recursive: true });
  const jsonl = path.join(dir, "broken.jsonl");
  const good = uiS1Line("A good line that must not be imported either", "ok");
  await writeFile(jsonl, `${good}\n{"goal": "cut off", "steps": [\n${uiS1Line("Missing screenshots", "missing")}\n`);
  const images = [path.join(dir, "ok_0.png"), path.join(dir, "ok_1.png")];
  await writeFile(images[0]!, await png(1));
  await writeFile(images[1]!, await png(2));
  return { jsonl, images };
}

/**
 * Import through the API as a script would: POST /api/imports answers 202 with the running import
 * once the files are received; poll GET /api/imports/:id until it ends. Returns the ended job.
 */
export async function importViaApi(
  request: APIRequestContext,
  baseURL: string | undefined,
  multipart: Parameters<APIRequestContext["post"]>[1] extends infer O ? (O extends { multipart?: infer M } ? M : never) : never,
): Promise<{ id: string; state: string; trajectories: number; steps: number; problemCount: number }> {
  const res = await request.post("/api/imports", { multipart, headers: baseURL ? { origin: baseURL } : {} });
  expect(res.status(), await res.text()).toBe(202);
  const { job } = (await res.json()) as { job: { id: string; state: string } };
  expect(job.state).toBe("running");
  let ended: Awaited<ReturnType<typeof importViaApi>> | null = null;
  await expect
    .poll(
      async () => {
        const r = (await (await request.get(`/api/imports/${job.id}`)).json()) as { job: NonNullable<typeof ended> };
        ended = r.job.state === "running" ? null : r.job;
        return r.job.state;
      },
      { timeout: 60_000 },
    )
    .not.toBe("running");
  return ended!;
}
