// The one job system (lib/server/jobs) with every kind it runs (import, export, model), on SQLite and on
// PostgreSQL: a job is claimed by the process that records it; its heartbeat (and progress) reaches its own
// table; a runner killed mid-job (a child process) leaves a job that the next look fails (import, export)
// or takes over and finishes (model), each once, with its audit row; a job whose runner is alive elsewhere
// is left alone until it goes quiet; pause, resume and cancel work where the kind allows them.
import { readStoredError } from "../errors/stored-message";
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db";
import { EXPORT_JOBS } from "../export/job-kind";
import { IMPORT_JOBS } from "../import/jobs";
import { saveModelSettings } from "../model";
import { MODEL_JOBS, settleModelJobs } from "../model/jobs";
import { EVAL_JOBS, settleEvalRuns } from "../eval";
import { emptyEvalRun } from "../testing/eval-run";
import { startFakeModelServer, type FakeModelServer } from "../testing/fake-model-server";
import { freshStudio } from "../testing/fixtures";
import { hasPostgres, startPostgres, type PostgresServer } from "../testing/postgres";
import { JOB_KINDS } from "../startup";
import { claimed, commandJob, isRunningHere, recoverAllJobs, runJob, runnerId, waitForJob } from "./index";

const ALL_KINDS = JOB_KINDS.map((k) => k.kind);

const KINDS = ["import", "export", "model", "eval"] as const;
type KindName = (typeof KINDS)[number];
const KIND = { import: IMPORT_JOBS, export: EXPORT_JOBS, model: MODEL_JOBS, eval: EVAL_JOBS };
/** Kinds whose jobs are taken over and go on here (the others are failed). */
const TAKES_OVER = (kind: KindName) => kind === "model" || kind === "eval";

type Row = { state: string; runnerId: string | null; heartbeatAt: Date | null; error: string | null };
const read = (db: Db, kind: KindName, id: string): Promise<Row | null> => KIND[kind].table(db).get(id);
const actions = async (db: Db, id: string) =>
  (await db.auditEvent.findMany({ where: { entityId: id }, orderBy: { at: "asc" } })).map((a) => a.action);

async function until(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A job of this kind recorded by this process (as the kind's start does), optionally owned by another runner. */
async function record(db: Db, kind: KindName, owner: { runnerId: string; heartbeatAt: Date } = claimed()): Promise<string> {
  const who = { createdById: null, createdByLabel: "test", ...owner };
  if (kind === "import")
    return (await db.importJob.create({ data: { state: "running", fileName: "a.jsonl", format: "ui-s1", project: "p", ...who } })).id;
  if (kind === "export") {
    const id = `e-${Math.random().toString(36).slice(2)}`;
    await db.exportJob.create({ data: { id, state: "running", outDir: "/nowhere", filtersJson: "{}", ...who } });
    return id;
  }
  if (kind === "eval") return (await db.evalRun.create({ data: { ...(await emptyEvalRun(db)), ...who } })).id;
  const selectionJson = JSON.stringify({ trajectoryIds: [] });
  return (await db.modelJob.create({ data: { kind: "judge", state: "running", selectionJson, prompt: "p", ...who } })).id;
}

/** A studio process holding one running job of `kind` (heartbeat every 100 ms), killed once its heartbeat was seen. */
async function killedHolder(db: Db, kind: KindName, env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("lib/server/testing/job-holder-child.ts"), kind], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((r) => child.on("exit", r));
  const id = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (l) => l.startsWith("job ") && resolve(l.slice(4)));
    child.on("exit", (code) => reject(new Error(`the ${kind} holder exited (${code}) before recording its job`)));
  });
  const first = (await read(db, kind, id))!;
  expect(first.runnerId).toMatch(new RegExp(`^${os.hostname()}:${child.pid}:`));
  // Its heartbeat moves on while it lives...
  await until(async () => (await read(db, kind, id))!.heartbeatAt!.getTime() > first.heartbeatAt!.getTime());
  child.kill("SIGKILL");
  await exited;
  return id;
}

const databases: { name: string; skip: boolean; open: () => Promise<{ db: Db; url: string; dir: string }> }[] = [];
let pg: PostgresServer | undefined;
databases.push({ name: "SQLite", skip: false, open: freshStudio });
databases.push({
  name: "PostgreSQL",
  skip: !hasPostgres,
  open: async () => {
    pg ??= startPostgres();
    return pg.freshDb();
  },
});
afterAll(() => pg?.stop());

describe.each(databases)("jobs on $name", ({ skip, open }) => {
  let db: Db;
  let env: NodeJS.ProcessEnv;
  let fake: FakeModelServer;

  beforeAll(async () => {
    if (skip) return;
    const s = await open();
    db = s.db;
    env = { ...process.env, DATABASE_URL: s.url, STUDIO_DATA_DIR: s.dir };
    fake = await startFakeModelServer();
    await db.user.create({ data: { id: "u-admin", email: "admin@test.local", name: "admin", role: "admin" } });
    const admin = { id: "u-admin", email: "admin@test.local", name: "admin", role: "admin" as const };
    await saveModelSettings({ actor: admin, baseUrl: fake.baseUrl, model: "m", apiKey: "sk-test", concurrency: 1, timeoutMs: 5_000 }, db);
  });
  afterAll(async () => {
    if (skip) return;
    await settleModelJobs();
    await fake.close();
    await db.$disconnect();
  });

  it.skipIf(skip)("every kind is in the studio's table of job kinds", () => {
    expect(ALL_KINDS.map((k) => k.name).sort()).toEqual([...KINDS].sort());
  });

  it.skipIf(skip).each(KINDS)(
    "%s: a job is claimed by the process that records it, and its heartbeat and progress reach its row",
    async (kind) => {
      const id = await record(db, kind);
      const before = (await read(db, kind, id))!;
      expect(before.runnerId).toBe(runnerId());
      let release!: () => void;
      const progress = {
        import: { phase: "writing", lines: 7, trajectories: 2, steps: 5 },
        export: { progressDone: 3, progressTotal: 9 },
        model: undefined,
        eval: undefined,
      };
      const done = runJob({ ...KIND[kind], heartbeatMs: 50 } as typeof IMPORT_JOBS, db, id, async (job) => {
        if (progress[kind]) job.progressed(progress[kind] as never);
        await new Promise<void>((r) => (release = r));
        return "finished";
      })!;
      expect(isRunningHere(KIND[kind], id)).toBe(true);
      // A second run of the same job in this process is refused.
      expect(runJob(KIND[kind] as typeof IMPORT_JOBS, db, id, async () => "twice")).toBeNull();
      await until(async () => (await read(db, kind, id))!.heartbeatAt!.getTime() > before.heartbeatAt!.getTime() + 40);
      if (kind === "import")
        expect(await db.importJob.findUniqueOrThrow({ where: { id } })).toMatchObject({ phase: "writing", lines: 7, steps: 5 });
      if (kind === "export")
        expect(await db.exportJob.findUniqueOrThrow({ where: { id } })).toMatchObject({ progressDone: 3, progressTotal: 9 });
      // Ours and alive: a look from this process changes nothing.
      expect((await recoverAllJobs(db, ALL_KINDS))[kind]).toEqual([]);
      release();
      expect(await done).toBe("finished");
      await waitForJob(KIND[kind], id);
      expect(isRunningHere(KIND[kind], id)).toBe(false);
      // Still "running" but run by nobody here any more: the next look recovers it.
      expect((await recoverAllJobs(db, ALL_KINDS))[kind]).toEqual([id]);
      await settleModelJobs();
    },
  );

  it.skipIf(skip).each(KINDS)("%s: a runner killed mid-job leaves a job the next look fails or takes over, once", async (kind) => {
    const id = await killedHolder(db, kind, env);
    const changed = await recoverAllJobs(db, ALL_KINDS);
    expect(changed[kind]).toEqual([id]);
    // Nobody gets it twice.
    expect((await recoverAllJobs(db, ALL_KINDS))[kind]).toEqual([]);
    if (TAKES_OVER(kind)) {
      // Taken over by this process and finished here (a judge job over no trajectory, a run over an empty set,
      // have nothing left to ask).
      await settleModelJobs();
      await settleEvalRuns();
      expect(await read(db, kind, id)).toMatchObject({ state: "succeeded", runnerId: runnerId(), error: null });
      const prefix = KIND[kind].audit.prefix;
      expect(await actions(db, id)).toEqual([`${prefix}.takeover`, `${prefix}.finish`]);
    } else {
      const row = (await read(db, kind, id))!;
      expect(row.state).toBe("failed");
      // Stored as a catalogue key with its words (lib/server/errors/stored-message.ts), worded when read.
      expect(readStoredError(row.error).error).toMatch(new RegExp(`The studio process running this ${kind} stopped`));
      expect(await actions(db, id)).toEqual([`${kind}.fail`]);
    }
  });

  it.skipIf(skip).each(KINDS)("%s: a job whose runner is on another machine is left alone until its heartbeat goes stale", async (kind) => {
    const alive = await record(db, kind, { runnerId: "elsewhere:1:aaaa", heartbeatAt: new Date() });
    const quiet = await record(db, kind, { runnerId: "elsewhere:2:bbbb", heartbeatAt: new Date(Date.now() - KIND[kind].staleMs - 1_000) });
    const changed = (await recoverAllJobs(db, ALL_KINDS))[kind]!;
    expect(changed).toContain(quiet);
    expect(changed).not.toContain(alive);
    expect(await read(db, kind, alive)).toMatchObject({ state: "running", runnerId: "elsewhere:1:aaaa" });
    await settleModelJobs();
    await settleEvalRuns();
    // Failed (import, export), or taken over by this process and finished here (model, eval).
    expect(await read(db, kind, quiet)).toMatchObject(
      TAKES_OVER(kind) ? { state: "succeeded", runnerId: runnerId() } : { state: "failed" },
    );
    // Tidy: the live one's runner "stops", so later looks in this file are not disturbed by it.
    await KIND[kind].table(db).update({ id: alive }, { state: "failed", finishedAt: new Date() });
  });

  it.skipIf(skip)(
    "model: pause, resume and cancel are conditional changes with their audit rows; cancel aborts the work in flight",
    async () => {
      const id = await record(db, "model");
      let aborted = false;
      const held = runJob(
        MODEL_JOBS,
        db,
        id,
        (job) => new Promise<void>((r) => job.signal.addEventListener("abort", () => ((aborted = true), r()))),
        {
          abortWhenLost: true,
        },
      )!;
      const actor = { id: "u-admin", label: "admin@test.local" };
      const row = async () => (await db.modelJob.findUniqueOrThrow({ where: { id } }))!;
      expect(await commandJob(MODEL_JOBS, db, { actor, row: await row(), command: "resume" })).toEqual({
        ok: false,
        reason: "not-allowed",
      });
      const seen = await row();
      expect(await commandJob(MODEL_JOBS, db, { actor, row: seen, command: "pause" })).toEqual({ ok: true });
      // A second command judged on the row as it was before the pause finds it changed.
      expect(await commandJob(MODEL_JOBS, db, { actor, row: seen, command: "cancel" })).toEqual({ ok: false, reason: "changed" });
      expect((await row()).state).toBe("paused");
      await db.modelJobItem.create({ data: { jobId: id, itemId: "t-1", result: "failed" } });
      expect(await commandJob(MODEL_JOBS, db, { actor, row: await row(), command: "resume" })).toEqual({ ok: true });
      expect(await row()).toMatchObject({ state: "running", runnerId: runnerId() });
      // A failed item is asked again on resume.
      expect(await db.modelJobItem.count({ where: { jobId: id } })).toBe(0);
      expect(aborted).toBe(false);
      expect(await commandJob(MODEL_JOBS, db, { actor, row: await row(), command: "cancel" })).toEqual({ ok: true });
      await held;
      expect(aborted).toBe(true);
      expect((await row()).state).toBe("cancelled");
      expect(await actions(db, id)).toEqual(["model.job.pause", "model.job.resume", "model.job.cancel"]);
    },
  );

  it.skipIf(skip).each(["import", "export"] as const)("%s jobs cannot be paused, resumed or cancelled", async (kind) => {
    const id = await record(db, kind);
    const row = (await read(db, kind, id))!;
    await expect(
      commandJob(KIND[kind] as typeof IMPORT_JOBS, db, { actor: { id: null, label: "t" }, row: row as never, command: "pause" }),
    ).rejects.toThrow(`${kind} jobs cannot be paused, resumed or cancelled`);
    await KIND[kind].table(db).update({ id }, { state: "failed", finishedAt: new Date() });
  });
});
