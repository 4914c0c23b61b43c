// The worker threads are TypeScript files (import/reader.worker.ts, export/links.worker.ts), and each way the
// studio runs finds a runnable file for them (lib/server/jobs/worker-file.ts): the sources (vitest, tsx, the API
// lane) compile them once; the compiled command line runs its own built copies, compiling nothing. The Next
// build's (Turbopack's) copies are proven by the import and export browser specs with STUDIO_API_LANE=next.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildCli } from "../../../scripts/build-cli.mjs";
import { ALREADY_THERE, LinkWorker, NOT_STORED, PLACED } from "../export/links";
import { blankPng, freshStudio } from "../testing/fixtures";
import { runnable } from "./worker-file";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanup) await c();
});

/** One UI-S1 trajectory of two steps in data.jsonl, its screenshots in images/, as people lay them out. */
async function uiS1Folder(dir: string): Promise<{ jsonl: string; images: string }> {
  const line = JSON.stringify({
    goal: "Open the settings",
    steps: [
      { action_content: { action: "click", coordinate: [540, 1200] }, screenshot: "/data/images/a_0.png" },
      { action_content: { action: "terminate", status: "success" }, screenshot: "/data/images/a_1.png" },
    ],
  });
  const images = path.join(dir, "images");
  await mkdir(images, { recursive: true });
  await writeFile(path.join(dir, "data.jsonl"), `${line}\n`);
  await writeFile(path.join(images, "a_0.png"), await blankPng(1080, 2400, "#336699"));
  await writeFile(path.join(images, "a_1.png"), await blankPng(1080, 2400, "#996633"));
  return { jsonl: path.join(dir, "data.jsonl"), images };
}

describe("worker threads from TypeScript files", () => {
  it("from the sources: a worker is compiled once per process into a file of its own, which runs", async () => {
    const source = new URL("../export/links.worker.ts", import.meta.url);
    const built = runnable(source);
    expect(built.href).toMatch(/\/studio-workers-\d+\/links\.worker-[0-9a-f]{16}\.mjs$/);
    expect(runnable(source)).toBe(built);
    // The shared outcomes are bundled in: the built file imports nothing of ours.
    expect(readFileSync(built, "utf8")).not.toMatch(/from "\.\//);
    const dir = await mkdtemp(path.join(os.tmpdir(), "studio-links-"));
    await writeFile(path.join(dir, "from.png"), "bytes");
    const links = new LinkWorker();
    try {
      const out = await links.place([path.join(dir, "from.png"), path.join(dir, "to.png"), path.join(dir, "also.png")]);
      expect([...out]).toEqual([PLACED, PLACED]);
      expect(await readFile(path.join(dir, "also.png"), "utf8")).toBe("bytes");
      const again = await links.place([
        path.join(dir, "from.png"),
        path.join(dir, "to.png"),
        "",
        path.join(dir, "gone.png"),
        path.join(dir, "x.png"),
        "",
      ]);
      expect([...again]).toEqual([ALREADY_THERE, 0, NOT_STORED, 0]);
    } finally {
      await links.close();
    }
  });

  it("from the compiled command line: each worker is built beside the bundle, and an import runs the built reader, compiling nothing", async () => {
    await mkdir(path.join(ROOT, ".tmp"), { recursive: true });
    // Inside the checkout, as .tmp/cli is: the bundle's packages (better-sqlite3, sharp) resolve from its node_modules.
    const outDir = await mkdtemp(path.join(ROOT, ".tmp", "cli-workers-test-"));
    cleanup.push(() => rm(outDir, { recursive: true, force: true }));
    const entry = await buildCli({ root: ROOT, outDir, quiet: true });
    const files = readdirSync(outDir);
    const reader = files.find((f) => /^reader\.worker-[A-Z0-9]+\.mjs$/.test(f));
    expect(reader).toBeDefined();
    expect(files.some((f) => /^links\.worker-[A-Z0-9]+\.mjs$/.test(f))).toBe(true);
    // The bundle names its built worker, never the TypeScript source.
    const chunks = files.filter((f) => f.endsWith(".mjs")).map((f) => readFileSync(path.join(outDir, f), "utf8"));
    expect(chunks.some((c) => c.includes(`new URL("./${reader}"`))).toBe(true);
    expect(chunks.some((c) => c.includes('"./reader.worker.ts"'))).toBe(false);

    const studio = await freshStudio();
    const data = await uiS1Folder(path.join(studio.dir, "batch"));
    // A temporary folder of its own: a worker compiled at run time would be written there.
    const tmp = await mkdtemp(path.join(os.tmpdir(), "studio-cli-tmp-"));
    const r = spawnSync(process.execPath, [entry, "import", data.jsonl, "--format", "ui-s1", "--screenshots", data.images], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: studio.url, STUDIO_DATA_DIR: studio.dir, TMPDIR: tmp },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(await studio.db.step.count()).toBe(2);
    // Both screenshots were read, decoded and stored by the reader thread.
    const shots = await studio.db.screenshot.findMany();
    expect(shots).toHaveLength(2);
    expect(readdirSync(tmp).filter((f) => f.startsWith("studio-workers-"))).toEqual([]);
    expect(existsSync(entry)).toBe(true);
    await studio.db.$disconnect();
  });
});
