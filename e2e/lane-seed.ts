import { createWriteStream } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import yazl from "yazl";
import { expect, request as apiRequest, type APIRequestContext } from "@playwright/test";
import { generateDemoDataset } from "@/lib/demo/generate";
import { buildTrajectory, type DraftTrajectory } from "@/lib/demo/flows";
import { deriveSeed } from "@/lib/demo/prng";
import { DEMO_ACCOUNTS, storageStateFor } from "./accounts";
import { importViaApi } from "./datasets";

/** The demo generator's seed for the fast-lane specs: the same trajectories on every run and machine. */
export const LANE_DEMO_SEED = 20261126;

/** The demo trajectory `i` as the generator drafted it, with its internal truth (which steps are the model's mistakes). */
export function demoDraft(i: number, seed = LANE_DEMO_SEED): DraftTrajectory {
  // The same call generateDemoDataset makes for line i.
  return buildTrajectory(deriveSeed(seed, i), i + (seed % 28));
}

/** A zip of `count` demo trajectories in the Mobile-R1 release layout (data.jsonl + images/), as people pack one. */
async function demoZip(dir: string, count: number, seed: number): Promise<Buffer> {
  await generateDemoDataset({ outDir: dir, trajectories: count, seed });
  const zip = new yazl.ZipFile();
  zip.addFile(path.join(dir, "data.jsonl"), "batch/data.jsonl");
  for (const name of await readdir(path.join(dir, "images"))) zip.addFile(path.join(dir, "images", name), `batch/images/${name}`);
  zip.end();
  const file = path.join(dir, "batch.zip");
  await new Promise<void>((resolve, reject) => zip.outputStream.pipe(createWriteStream(file)).on("close", resolve).on("error", reject));
  return readFile(file);
}

export type SeededProject = { name: string; id: string; trajectories: string[] };

/**
 * As the admin: import the same `count` demo trajectories into each named project (copies across projects),
 * set each project's fast-lane choice, and assign every trajectory to the demo annotator. Trajectory ids come
 * back in the generator's order (line 1 first).
 */
export async function seedDemoProjects(
  baseURL: string,
  dir: string,
  count: number,
  projects: { name: string; fastLaneAfter: "cut" | "queue" }[],
): Promise<SeededProject[]> {
  await mkdir(dir, { recursive: true });
  const admin = await apiRequest.newContext({ baseURL, storageState: storageStateFor("admin") });
  const headers = { origin: baseURL };
  try {
    const bytes = await demoZip(dir, count, LANE_DEMO_SEED);
    const out: SeededProject[] = [];
    for (const p of projects) {
      const job = await importViaApi(admin, baseURL, {
        format: "mobile-r1",
        project: p.name,
        onOtherProjects: "import",
        files: { name: "batch.zip", mimeType: "application/zip", buffer: bytes },
      });
      expect(job.state, JSON.stringify(job)).toBe("succeeded");
      const list = (await (await admin.get(`/api/projects`)).json()) as { projects: { id: string; name: string }[] };
      const project = list.projects.find((x) => x.name === p.name)!;
      const set = await admin.put(`/api/projects/${project.id}/lane`, { headers, data: { fastLaneAfter: p.fastLaneAfter } });
      expect(set.status(), await set.text()).toBe(200);
      const rows = (
        (await (await admin.get(`/api/trajectories?project=${encodeURIComponent(p.name)}&pageSize=200`)).json()) as {
          rows: { id: string; instruction: string }[];
        }
      ).rows;
      expect(rows).toHaveLength(count);
      // The generator's order: line i holds demoDraft(i)'s instruction.
      const ids = Array.from({ length: count }, (_, i) => {
        const want = demoDraft(i).instruction;
        const row = rows.find((r) => r.instruction === want);
        expect(row, `line ${i + 1} (${want}) was imported into ${p.name}`).toBeTruthy();
        return row!.id;
      });
      const annotator = DEMO_ACCOUNTS.find((a) => a.role === "annotator")!.email;
      const assigned = await admin.post("/api/assignments", { headers, data: { trajectoryIds: ids, assignee: annotator } });
      expect(assigned.status(), await assigned.text()).toBe(200);
      out.push({ name: p.name, id: project.id, trajectories: ids });
    }
    return out;
  } finally {
    await admin.dispose();
  }
}

/** As the admin: export one project's handed-in work through the API; the finished folder's path on this machine. */
export async function exportProject(baseURL: string, project: string): Promise<string> {
  const admin = await apiRequest.newContext({ baseURL, storageState: storageStateFor("admin") });
  try {
    const started = await admin.post("/api/exports", { headers: { origin: baseURL }, data: { status: "submitted", project } });
    expect(started.status(), await started.text()).toBe(202);
    const { export: job } = (await started.json()) as { export: { id: string } };
    let outDir = "";
    await expect
      .poll(
        async () => {
          const e = ((await (await admin.get(`/api/exports/${job.id}`)).json()) as { export: { state: string; outDir: string } }).export;
          outDir = e.outDir;
          return e.state;
        },
        { timeout: 60_000 },
      )
      .toBe("succeeded");
    return outDir;
  } finally {
    await admin.dispose();
  }
}

/** Read an API answer as the annotator would see it. */
export async function getJson<T>(request: APIRequestContext, url: string): Promise<T> {
  const res = await request.get(url);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as T;
}
