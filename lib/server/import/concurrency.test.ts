// Imports and saves at the same time, on real databases (a SQLite file; a private PostgreSQL server
// where Debian's binaries are installed). Reproduces issue 11's first finding: saves failing with
// SQLITE_BUSY or timing out while the command line or an upload imported, and other requests seeing
// an import's rows 100 at a time before it finished.
import { spawn } from "node:child_process";
import { appendFile, mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import yazl from "yazl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SaveStepInput } from "@/lib/domain/annotation";
import type { Actor } from "@/lib/domain/permissions";
import { saveStepAnnotation } from "../annotate";
import type { Db } from "../db";
import { importFile, sweepAbandonedImports, type ImportProgress } from "./import-file";
import { importUpload } from "./upload";
import { freshStudio } from "../testing/fixtures";
import { mobileR1Dataset } from "../testing/dataset";
import { hasPostgres, startPostgres, type PostgresServer } from "../testing/postgres";

const ROOT = process.cwd();
const ANNOTATORS = 8;

type Studio = { db: Db; url: string; dir: string };

/** Annotators, each assigned one trajectory of a first small import, saving its first step. */
async function annotators(db: Db): Promise<{ actor: Actor; stepId: string }[]> {
  const trajectories = await db.trajectory.findMany({
    take: ANNOTATORS,
    orderBy: { id: "asc" },
    include: { steps: { where: { index: 0 } } },
  });
  expect(trajectories.length).toBe(ANNOTATORS);
  return Promise.all(
    trajectories.map(async (t, i) => {
      const u = await db.user.create({ data: { id: `ann-${i}`, email: `ann${i}@test.local`, name: `Annotator ${i}`, role: "annotator" } });
      await db.trajectory.update({ where: { id: t.id }, data: { assigneeId: u.id } });
      return { actor: { id: u.id, email: u.email, name: u.name, role: "annotator" as const }, stepId: t.steps[0]!.id };
    }),
  );
}

type Observed = { phase: string; ms: number; error?: string };

/**
 * Until `done()`: every annotator saves its step again and again (as the editor's autosave does),
 * and a reader counts trajectories. Each save and count is tagged with the import's phase then.
 */
async function saveAndCountUntil(db: Db, people: { actor: Actor; stepId: string }[], phase: () => string, done: () => boolean) {
  const saves: Observed[] = [];
  const counts: { phase: string; n: number }[] = [];
  const saver = async ({ actor, stepId }: { actor: Actor; stepId: string }, who: number) => {
    let edit = 0;
    while (!done()) {
      const row = (await db.step.findUnique({ where: { id: stepId } }))!;
      const input: SaveStepInput = {
        version: row.version,
        thought: {
          state: row.thoughtState,
          nextAction: row.thoughtNext,
          purpose: row.thoughtPurpose,
          text: `${row.thought.replace(/ \(edit \d+\)$/, "")} (edit ${++edit})`,
        },
        clearAction: row.clearAction,
        toolCall: JSON.parse(row.toolCallJson),
        box: row.boxJson ? JSON.parse(row.boxJson) : null,
        verdict: row.verdict as SaveStepInput["verdict"],
      };
      const at = phase();
      const t0 = performance.now();
      try {
        await saveStepAnnotation({ actor, stepId, ...input }, db);
        saves.push({ phase: at, ms: performance.now() - t0 });
      } catch (e) {
        saves.push({ phase: at, ms: performance.now() - t0, error: `annotator ${who}: ${String(e).slice(0, 300)}` });
      }
      await new Promise((r) => setTimeout(r, 60));
    }
  };
  const reader = async () => {
    while (!done()) {
      const at = phase();
      counts.push({ phase: at, n: await db.trajectory.count() });
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await Promise.all([...people.map(saver), reader()]);
  return { saves, counts };
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))] ?? 0;

/** What every run must show: no save failed, saves ran while rows were written, counts only before or after. */
function expectNoInterference(r: { saves: Observed[]; counts: { phase: string; n: number }[] }, before: number, after: number) {
  expect(r.saves.filter((s) => s.error).map((s) => s.error)).toEqual([]);
  const whileWriting = r.saves.filter((s) => s.phase === "writing" || s.phase === "committing");
  expect(whileWriting.length).toBeGreaterThanOrEqual(3);
  expect(r.counts.filter((c) => c.phase === "writing" || c.phase === "committing").length).toBeGreaterThanOrEqual(2);
  expect([...new Set(r.counts.map((c) => c.n))].filter((n) => n !== before && n !== after)).toEqual([]);
  return { whileWriting: whileWriting.length, p95: Math.round(p95(whileWriting.map((s) => s.ms))) };
}

async function counts(db: Db) {
  const [trajectories, steps, screenshots, staged, stagedSteps, stagedShots] = await Promise.all([
    db.trajectory.count(),
    db.step.count(),
    db.screenshot.count(),
    db.importStagedTrajectory.count(),
    db.importStagedStep.count(),
    db.importStagedScreenshot.count(),
  ]);
  return { trajectories, steps, screenshots, staged: staged + stagedSteps + stagedShots };
}

function suite(name: string, studio: () => Promise<Studio>) {
  describe(`${name}: imports never block or leak into saves and reads`, () => {
    let source: string;
    let big: { trajectories: number; steps: number; file: string };
    beforeAll(async () => {
      source = await mkdtemp(path.join(os.tmpdir(), "concurrency-src-"));
      big = await mobileR1Dataset(path.join(source, "big"), 1500, 5);
      await mobileR1Dataset(path.join(source, "small"), 60, 7);
    });

    async function seeded(): Promise<Studio & { people: { actor: Actor; stepId: string }[] }> {
      const s = await studio();
      const r = await importFile({ file: path.join(source, "small/data.jsonl"), format: "mobile-r1", db: s.db });
      expect(r.ok).toBe(true);
      return { ...s, people: await annotators(s.db) };
    }

    it("command-line import: every save during it succeeds and readers see the count jump once", async () => {
      const s = await seeded();
      const before = await s.db.trajectory.count();
      let phase = "starting";
      let exited = false;
      let stderr = "";
      const child = spawn(
        process.execPath,
        [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "lib/cli/main.ts", "import", big.file, "--format", "mobile-r1"],
        { cwd: ROOT, env: { ...process.env, DATABASE_URL: s.url, STUDIO_DATA_DIR: s.dir }, stdio: ["ignore", "pipe", "pipe"] },
      );
      child.stderr!.on("data", (d: Buffer) => {
        stderr += d.toString();
        const m = /(checking|writing|committing)[^\r]*$/.exec(stderr);
        if (m) phase = m[1]!;
      });
      const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => ((exited = true), resolve(code))));
      const r = await saveAndCountUntil(
        s.db,
        s.people,
        () => phase,
        () => exited,
      );
      expect(await exit, stderr.slice(-2000)).toBe(0);
      const after = await s.db.trajectory.count();
      expect(after).toBe(before + big.trajectories);
      const seen = expectNoInterference(r, before, after);
      console.log(`${name} CLI import of ${big.steps} steps: ${seen.whileWriting} saves while it wrote, p95 ${seen.p95} ms`);
      expect((await counts(s.db)).staged).toBe(0);
      await s.db.$disconnect();
    });

    it("upload import (in the server's own process): every save succeeds and readers see the count jump once", async () => {
      const s = await seeded();
      const before = await s.db.trajectory.count();
      const zip = await zipFolder(path.join(source, "big"));
      const boundary = "----studio-test-boundary";
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="format"\r\n\r\nmobile-r1\r\n`),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.zip"\r\nContent-Type: application/zip\r\n\r\n`,
        ),
        zip,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      let phase = "uploading";
      let finished = false;
      const req = new Request("http://studio.test/api/imports", {
        method: "POST",
        headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
        body,
      });
      const importing = importUpload(req, undefined, { db: s.db, onProgress: (p: ImportProgress) => (phase = p.phase) }).finally(
        () => (finished = true),
      );
      const r = await saveAndCountUntil(
        s.db,
        s.people,
        () => phase,
        () => finished,
      );
      expect(await importing).toMatchObject({ ok: true, trajectories: big.trajectories, steps: big.steps });
      const after = await s.db.trajectory.count();
      expect(after).toBe(before + big.trajectories);
      const seen = expectNoInterference(r, before, after);
      console.log(`${name} upload import of ${big.steps} steps: ${seen.whileWriting} saves while it wrote, p95 ${seen.p95} ms`);
      await s.db.$disconnect();
    });

    it("an import that fails half-way leaves nothing a reader can see, and saves go on", async () => {
      const s = await seeded();
      const start = await counts(s.db);
      // Copy the big file, then break it while the import writes: the second pass finds it changed.
      const copy = path.join(source, "big", "changing.jsonl");
      await appendFile(copy, await readFile(big.file));
      let phase = "checking";
      let broke = false;
      let finished = false;
      const importing = importFile({
        file: copy,
        format: "mobile-r1",
        screenshotsDir: path.join(source, "big/images"),
        db: s.db,
        onProgress: (p) => {
          phase = p.phase;
          if (p.phase === "writing" && p.lines >= 100 && !broke) {
            broke = true;
            void appendFile(copy, "{ this line is not JSON\n");
          }
        },
      })
        .then(() => "imported")
        .catch((e: Error) => e.message)
        .finally(() => (finished = true));
      const r = await saveAndCountUntil(
        s.db,
        s.people,
        () => phase,
        () => finished,
      );
      expect(await importing).toMatch(/changed while it was being imported; nothing was imported/);
      expect(r.saves.filter((x) => x.error)).toEqual([]);
      expect([...new Set(r.counts.map((c) => c.n))]).toEqual([start.trajectories]);
      expect(await counts(s.db)).toEqual(start);
      const batch = await s.db.importBatch.findFirst({ where: { fileName: "changing.jsonl" } });
      expect(batch).toMatchObject({ status: "failed", trajectories: 0 });
      await s.db.$disconnect();
    });

    it("an import killed mid-write stays invisible, and the next import sweeps what it left", async () => {
      const s = await seeded();
      const start = await counts(s.db);
      let stderr = "";
      // The command line people run (`npm run studio`): one process, so the kill reaches the import itself.
      const child = spawn(process.execPath, ["scripts/studio.mjs", "import", big.file, "--format", "mobile-r1"], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: s.url, STUDIO_DATA_DIR: s.dir },
        stdio: ["ignore", "ignore", "pipe"],
      });
      const exited = new Promise((r) => child.on("exit", r));
      await new Promise<void>((resolve) =>
        child.stderr!.on("data", (d: Buffer) => {
          stderr += d.toString();
          if (/writing [1-9]\d{2,} lines/.test(stderr)) resolve();
        }),
      );
      child.kill("SIGKILL");
      await exited;
      const left = await counts(s.db);
      expect({ ...left, staged: 0 }).toEqual({ ...start, staged: 0 });
      expect(left.staged).toBeGreaterThan(0);
      expect(await s.db.importBatch.count({ where: { status: "running" } })).toBe(1);
      // A fresh import does not treat a running batch with a recent heartbeat as dead...
      expect(await sweepAbandonedImports(s.db)).toEqual({ failed: 0 });
      // ...but one silent for longer than the limit is failed and its rows deleted.
      expect(await sweepAbandonedImports(s.db, 0)).toEqual({ failed: 1 });
      expect(await counts(s.db)).toEqual(start);
      expect(await s.db.importBatch.count({ where: { status: "failed" } })).toBe(1);
      const again = await importFile({ file: big.file, format: "mobile-r1", db: s.db });
      expect(again).toMatchObject({ ok: true, trajectories: big.trajectories, steps: big.steps });
      expect((await counts(s.db)).staged).toBe(0);
      await s.db.$disconnect();
    });
  });
}

async function zipFolder(dir: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addFile(path.join(dir, "data.jsonl"), "data.jsonl");
  const { readdir } = await import("node:fs/promises");
  for (const name of await readdir(path.join(dir, "images")))
    zip.addFile(path.join(dir, "images", name), `images/${name}`, { compress: false });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

suite("SQLite", () => freshStudio());

let server: PostgresServer | undefined;
describe.skipIf(!hasPostgres)("PostgreSQL", () => {
  beforeAll(() => {
    server = startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());
  suite("PostgreSQL", () => server!.freshDb());
});
